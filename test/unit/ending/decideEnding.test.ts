import assert from 'node:assert/strict';
import { decideEnding } from '../../../src/agent/ending/decideEnding';
import type { EndingFacts, StepFact } from '../../../src/agent/ending/endingFacts';
import { RunOutcome } from '../../../src/shared/events';
import { EXIT_CODE_OF_CLASS, OUTCOME_ACTIONS, OUTCOME_CLASS, exitCodeForOutcome, stateForOutcome } from '../../../src/shared/outcomeClass';

const done = (title: string): StepFact => ({ title, status: 'completed' });
const failing = { command: 'npm test', exitCode: 1 };
const passing = { command: 'npm test', exitCode: 0 };

// The same facts end the same way whatever the route: [name, facts, outcome, words in the reason].
const CASES: Array<[string, EndingFacts, RunOutcome, RegExp?]> = [
  ['nothing stopped it, no change checked', { route: 'direct', checksAfterLastChange: [] }, 'finished'],
  ['a check passed after the last change', { route: 'direct', checksAfterLastChange: [passing] }, 'finished'],
  ['the agent\'s own test run failed after the last change', { route: 'direct', checksAfterLastChange: [failing] }, 'unverified', /`npm test` exited 1 after the last change/],
  ['a later pass does not hide an earlier failure after the same change', { route: 'direct', checksAfterLastChange: [failing, passing] }, 'unverified'],
  ['a check that timed out', { route: 'direct', checksAfterLastChange: [{ command: 'pytest', exitCode: null }] }, 'unverified', /timed out or was killed/],
  ['the same on a plan', { route: 'plan', steps: [done('a')], checksAfterLastChange: [failing] }, 'unverified'],
  ['user stop', { route: 'plan', stop: { kind: 'user' }, steps: [done('a'), { title: 'b', status: 'stopped' }], checksAfterLastChange: [failing] }, 'cancelled', /Stopped by the user/],
  ['budget', { route: 'direct', stop: { kind: 'budget', reason: 'budget used' }, checksAfterLastChange: [] }, 'budget'],
  ['turn limit', { route: 'direct', stop: { kind: 'turn_limit', reason: 'stopped after 2 turns' }, checksAfterLastChange: [] }, 'step_limit'],
  ['stuck', { route: 'direct', stop: { kind: 'stuck', reason: 'loop' }, checksAfterLastChange: [] }, 'stuck'],
  ['provider failure', { route: 'direct', stop: { kind: 'provider', reason: 'bad key', code: 'auth' }, checksAfterLastChange: [] }, 'failed'],
  ['tool calls no parser reads, after corrections', { route: 'direct', stop: { kind: 'tool_format', reason: 'its Kimi K2 call could not be read' }, checksAfterLastChange: [] }, 'failed'],
  ['a failed step with no way on', { route: 'plan', stop: { kind: 'plan', reason: 'Step "a" failed.' }, steps: [{ title: 'a', status: 'failed' }], checksAfterLastChange: [] }, 'failed'],
  ['internal', { route: 'plan', stop: { kind: 'internal', reason: 'internal error: x' }, checksAfterLastChange: [] }, 'internal'],
  ['a step the updater skipped', { route: 'plan', steps: [done('a'), { title: 'b', status: 'skipped', skippedBy: 'updater' }], checksAfterLastChange: [] }, 'incomplete', /2\. "b" \(skipped by the plan updater\)/],
  ['a step the user skipped', { route: 'plan', steps: [{ title: 'a', status: 'skipped', skippedBy: 'user' }, done('b')], checksAfterLastChange: [] }, 'incomplete', /1\. "a" \(skipped by you\)/],
  ['a step split into smaller ones is not missing', { route: 'plan', steps: [{ title: 'a', status: 'skipped', skippedBy: 'split' }, done('a1'), done('a2')], checksAfterLastChange: [] }, 'finished'],
  ['a skipped step of an older history (who skipped it unknown)', { route: 'plan', steps: [{ title: 'a', status: 'skipped' }], checksAfterLastChange: [] }, 'incomplete'],
  ['a blocked step', { route: 'plan', steps: [done('a'), { title: 'b', status: 'blocked' }], checksAfterLastChange: [] }, 'incomplete', /blocked/],
  ['a step that never ran', { route: 'plan', steps: [done('a'), { title: 'b', status: 'pending' }], checksAfterLastChange: [] }, 'incomplete', /not run/],
  ['incomplete and a failed check: both named', { route: 'plan', steps: [{ title: 'b', status: 'skipped', skippedBy: 'updater' }], checksAfterLastChange: [failing] }, 'incomplete', /skipped by the plan updater.*`npm test` exited 1/],
];

describe('decideEnding: one ending from the facts', () => {
  for (const [name, facts, outcome, words] of CASES) {
    it(`${name} → ${outcome}`, () => {
      const ending = decideEnding(facts);
      assert.equal(ending.outcome, outcome);
      if (words) assert.match(ending.reason ?? '', words);
      assert.deepEqual(ending.failedChecks, facts.checksAfterLastChange.filter((c) => c.exitCode !== 0));
      assert.deepEqual(decideEnding(facts), ending, 'pure: the same facts, the same ending');
    });
  }
});

describe('OUTCOME_CLASS: the one outcome vocabulary of every shell', () => {
  const expected: Record<RunOutcome, [string, number]> = {
    finished: ['done', 0], incomplete: ['partial', 3], unverified: ['partial', 3], cancelled: ['stopped', 130],
    failed: ['failed', 1], step_limit: ['failed', 1], stuck: ['failed', 1], budget: ['failed', 1], internal: ['failed', 1],
  };
  for (const outcome of RunOutcome.options) {
    it(`${outcome}: class ${expected[outcome][0]}, exit ${expected[outcome][1]}`, () => {
      assert.equal(OUTCOME_CLASS[outcome], expected[outcome][0]);
      assert.equal(exitCodeForOutcome(outcome), expected[outcome][1]);
      assert.equal(EXIT_CODE_OF_CLASS[OUTCOME_CLASS[outcome]], expected[outcome][1]);
    });
  }
  it('a user\'s stop is never a failure and never offers Retry', () => {
    assert.equal(stateForOutcome('cancelled'), 'CANCELLED');
    assert.ok(!OUTCOME_ACTIONS.cancelled.includes('retry_task'));
    assert.ok(OUTCOME_ACTIONS.cancelled.includes('resume'));
  });
  it('Retry is offered only where the run failed before doing its work', () => {
    const withRetry = RunOutcome.options.filter((o) => OUTCOME_ACTIONS[o].includes('retry_task'));
    assert.deepEqual(withRetry, ['failed', 'internal']);
  });
});
