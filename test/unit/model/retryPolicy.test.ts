import assert from 'node:assert/strict';
import { backoffDelay, DEFAULT_RETRY_TIMING, parseRetryAfter, retryDelay } from '../../../src/agent/model/retryPolicy';

const now = Date.parse('2025-03-01T12:00:00Z');
const headers = (values: Record<string, string>) => new Headers(values);

describe('retryPolicy', () => {
  describe('parseRetryAfter', () => {
    it('reads retry-after-ms before retry-after', () => {
      assert.equal(parseRetryAfter(headers({ 'retry-after-ms': '1500', 'retry-after': '9' }), now), 1500);
    });
    it('reads retry-after as seconds, fractions included', () => {
      assert.equal(parseRetryAfter(headers({ 'retry-after': '3' }), now), 3000);
      assert.equal(parseRetryAfter(headers({ 'retry-after': '0.25' }), now), 250);
    });
    it('reads retry-after as an HTTP date relative to now', () => {
      assert.equal(parseRetryAfter(headers({ 'retry-after': new Date(now + 7000).toUTCString() }), now), 7000);
    });
    it('never returns a negative wait for a date in the past', () => {
      assert.equal(parseRetryAfter(headers({ 'retry-after': new Date(now - 7000).toUTCString() }), now), 0);
    });
    it('ignores missing and unparsable values', () => {
      assert.equal(parseRetryAfter(undefined, now), undefined);
      assert.equal(parseRetryAfter(headers({}), now), undefined);
      assert.equal(parseRetryAfter(headers({ 'retry-after': 'soon' }), now), undefined);
      assert.equal(parseRetryAfter(headers({ 'retry-after-ms': 'x', 'retry-after': '2' }), now), 2000);
    });
  });

  describe('backoffDelay', () => {
    it('doubles from the base delay, minus at most a quarter of jitter', () => {
      for (let retry = 1; retry <= 4; retry++) {
        const full = DEFAULT_RETRY_TIMING.baseDelayMs * 2 ** (retry - 1);
        assert.equal(backoffDelay(retry, DEFAULT_RETRY_TIMING, () => 0), full);
        assert.equal(backoffDelay(retry, DEFAULT_RETRY_TIMING, () => 0.999999), Math.round(full * (1 - 0.25 * 0.999999)));
      }
    });
    it('is capped at maxBackoffMs', () => {
      assert.equal(backoffDelay(30, DEFAULT_RETRY_TIMING, () => 0), DEFAULT_RETRY_TIMING.maxBackoffMs);
    });
    it('stays within its bounds with real randomness', () => {
      for (let i = 0; i < 200; i++) {
        const delay = backoffDelay(3);
        assert.ok(delay >= 3000 && delay <= 4000, `delay ${delay}`);
      }
    });
  });

  describe('retryDelay', () => {
    it('honours the server wait when it is within the cap', () => {
      assert.deepEqual(retryDelay(1, headers({ 'retry-after': '60' }), now), { delayMs: 60_000 });
    });
    it('gives up on a server wait above the cap (a daily quota, say)', () => {
      assert.deepEqual(retryDelay(1, headers({ 'retry-after': '3600' }), now), { tooLongMs: 3_600_000 });
    });
    it('falls back to backoff without a hint', () => {
      assert.deepEqual(retryDelay(2, undefined, now, DEFAULT_RETRY_TIMING, () => 0), { delayMs: 2000 });
    });
  });
});
