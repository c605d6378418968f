import assert from 'node:assert/strict';
import { runTask } from '../../../src/agent/flow/runTask';
import { scriptedAsker } from '../../support/stubPorts';
import { call, finish, flowModel, harness, requestsOf, requestText, toolNames } from './flowHarness';

// The planner may ask up to three questions (with options) before planning, once per task; the
// answers are what it then plans from. The asker is the shells' port (a person in VS Code, a TTY in
// the CLI, nobody headless).

const PLAN = { goal: 'Add a cache', thought: 'as the user chose', steps: [{ title: 'Add the cache', description: 'Add an LRU cache.', role: 'coder' }] };
const ASK = call('ask_user', {
  why: 'in memory or on disk changes every step',
  questions: [
    { question: 'Where should the cache live?', options: ['in memory', 'on disk'] },
    { question: 'Should entries expire?', options: ['yes', 'no'] },
    { question: 'Which eviction policy?', options: ['LRU', 'LFU'] },
    { question: 'A fourth question?', options: ['a', 'b'] },
  ],
});

function script(planner: Parameters<typeof flowModel>[0]['planner']) {
  return flowModel({
    planner,
    'step:Add the cache': [finish('Added an LRU cache.')],
    updater: () => call('keep_plan', {}),
    report: [call('write_report', { summary: 'Added the cache.', findings: [], verification: '', left: [] })],
  });
}

describe('planning flow: a planner that asks', () => {
  it('asks at most three questions with their options, then plans from the answers with create_plan only', async () => {
    const model = script((request) => (/user's answers to your questions/.test(requestText(request)) ? call('create_plan', PLAN) : ASK));
    const asker = scriptedAsker(['in memory', 'no', 'LRU']);
    const h = harness(model, { task: 'Add a cache to the fetcher', planMode: 'always', asker });
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'finished', result.reason);

    assert.deepEqual(asker.questions.map((q) => [q.question, q.options]), [
      ['Where should the cache live?', ['in memory', 'on disk']],
      ['Should entries expire?', ['yes', 'no']],
      ['Which eviction policy?', ['LRU', 'LFU']],
    ]);
    assert.deepEqual(h.of('question_asked').map((e) => e.callId), ['planner-question-1', 'planner-question-2', 'planner-question-3']);
    assert.deepEqual(h.of('question_answered').map((e) => e.answer), ['in memory', 'no', 'LRU']);
    const [first, second] = requestsOf(model, 'planner');
    assert.deepEqual(toolNames(first!), ['ask_user', 'create_plan']);
    assert.deepEqual(toolNames(second!), ['create_plan'], 'it asks once: the plan comes next');
    assert.match(requestText(second!), /Q: Where should the cache live\?\nA: in memory[\s\S]*Q: Which eviction policy\?\nA: LRU/);
    assert.doesNotMatch(requestText(second!), /A fourth question/);
    assert.equal(h.of('plan_created').length, 1);
  });

  it('headless (nobody answers): it plans on stated assumptions; a clear request plans at once without asking', async () => {
    const model = script((request) => (/Nobody could answer your questions/.test(requestText(request)) ? call('create_plan', PLAN) : ASK));
    const h = harness(model, { task: 'Add a cache to the fetcher', planMode: 'always' });
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'finished', result.reason);
    assert.deepEqual(h.of('question_answered').map((e) => e.answer), [undefined, undefined, undefined]);

    const clear = script([call('create_plan', PLAN)]);
    const asker = scriptedAsker(['x']);
    const h2 = harness(clear, { task: 'Add an LRU cache in memory to the fetcher', planMode: 'always', asker });
    assert.equal((await runTask(h2.options)).outcome, 'finished');
    assert.equal(asker.questions.length, 0);
    assert.equal(requestsOf(clear, 'planner').length, 1);
  });
});
