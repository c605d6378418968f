import assert from 'node:assert/strict';
import { NO_USER_ANSWER } from '../../../src/agent/tools/builtins/askUser';
import { ToolHarness } from './toolHarness';

describe('ask_user', () => {
  it('asks through the Asker, emits both events and returns the answer', async () => {
    const h = new ToolHarness({ answer: (q) => (q.options?.includes('Postgres') ? 'Postgres' : 'other') });
    const result = await h.call('ask_user', { question: 'Which database?', options: ['Postgres', 'SQLite'] }, 'q1');
    assert.equal(result.isError, undefined);
    assert.equal(result.content, 'The user answered: Postgres');
    assert.deepEqual(h.questions, [{ callId: 'q1', question: 'Which database?', options: ['Postgres', 'SQLite'] }]);
    assert.deepEqual(h.events, [
      { type: 'question_asked', callId: 'q1', question: 'Which database?', options: ['Postgres', 'SQLite'] },
      { type: 'question_answered', callId: 'q1', answer: 'Postgres' },
    ]);
  });

  it('tells the model to proceed when nobody can answer', async () => {
    const h = new ToolHarness();
    const result = await h.call('ask_user', { question: 'Proceed?' }, 'q2');
    assert.equal(result.content, NO_USER_ANSWER);
    assert.deepEqual(h.events.at(-1), { type: 'question_answered', callId: 'q2' });
  });

  it('requires a question', async () => {
    const result = await new ToolHarness().call('ask_user', {});
    assert.equal(result.isError, true);
    assert.match(result.content, /`question`/);
  });
});

describe('finish', () => {
  it('returns the summary as the finish signal', async () => {
    const result = await new ToolHarness().call('finish', { summary: 'Added the flag; tests pass.' });
    assert.deepEqual(result, { content: 'Finished.', finish: { summary: 'Added the flag; tests pass.' } });
  });
});
