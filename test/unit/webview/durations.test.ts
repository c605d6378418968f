import assert from 'node:assert/strict';
import { durationWords, waitingWords } from '../../../webview-ui/src/durations';
import { createTranslator } from '../../../webview-ui/src/strings';

// Time spent waiting for the user is said apart, and only when somebody was waited for.
describe('duration words', () => {
  const t = createTranslator('en');
  const rows: Array<[number, number | undefined, string]> = [
    [1_300, 96_700, '1.3 s · waited for you 96.7 s'],
    [2_900, 0, '2.9 s'],
    [2_900, 12, '2.9 s'],
    [2_900, undefined, '2.9 s'],
    [2_900, 50, '2.9 s · waited for you 0.1 s'],
  ];
  for (const [ran, waited, words] of rows) {
    it(`${ran} ms run, ${waited ?? 'no'} ms waited → "${words}"`, () => assert.equal(durationWords(t, ran, waited), words));
  }
  it('the outcome card uses the same rule', () => assert.equal(waitingWords(t, 0), ''));
});
