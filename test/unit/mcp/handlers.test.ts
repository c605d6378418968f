import assert from 'node:assert/strict';
import { createAskerElicitationHandler, createModelSamplingHandler } from '../../../src/mcp';
import { ScriptedModel } from '../../support/scriptedModel';
import { scriptedAsker } from '../../support/stubPorts';

const signal = new AbortController().signal;
const form = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name' },
    age: { type: 'integer', description: 'Years' },
    agree: { type: 'boolean' },
    color: { type: 'string', enum: ['red', 'blue'], default: 'blue' },
  },
  required: ['name', 'age'],
};

describe('MCP host handlers', () => {
  it('asks one question per form field, coerces types, re-asks a bad value once, uses defaults', async () => {
    const asker = scriptedAsker(['Ada', 'forty', '36', 'yes', '']);
    const answer = await createAskerElicitationHandler(asker)({ server: 'everything', message: 'Who are you?', requestedSchema: form }, signal);
    assert.deepEqual(answer, { action: 'accept', content: { name: 'Ada', age: 36, agree: true, color: 'blue' } });
    assert.match(asker.questions[0]!.question, /^MCP server "everything" asks: Who are you\?\nName$/);
    assert.match(asker.questions[2]!.question, /Expected type: integer/);
    assert.deepEqual(asker.questions[3]!.options, ['true', 'false']);
    assert.deepEqual(asker.questions[4]!.options, ['red', 'blue']);
  });

  it('declines when a required field is left empty and cancels when nobody can answer', async () => {
    const handler = (answers: (string | undefined)[]) => createAskerElicitationHandler(scriptedAsker(answers));
    assert.deepEqual(await handler([''])({ server: 's', message: 'm', requestedSchema: form }, signal), { action: 'decline' });
    assert.deepEqual(await handler([])({ server: 's', message: 'm', requestedSchema: form }, signal), { action: 'cancel' });
  });

  it('samples with the model after approval, and refuses without calling it', async () => {
    const model = new ScriptedModel(() => ({ text: 'sampled', finishReason: 'length' }), 'm1');
    let approve = true;
    const handler = createModelSamplingHandler({ model, approve: async () => (approve ? { approved: true } : { approved: false, reason: 'no' }) });
    const request = { server: 's', messages: [{ role: 'user' as const, text: 'hi' }], systemPrompt: 'be brief', maxTokens: 50, temperature: 0.2, modelHints: [] };
    assert.deepEqual(await handler(request, signal), { approved: true, text: 'sampled', model: 'm1', stopReason: 'maxTokens' });
    assert.deepEqual(model.requests[0]?.messages, [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi' },
    ]);
    assert.equal(model.requests[0]?.maxOutputTokens, 50);
    approve = false;
    assert.deepEqual(await handler(request, signal), { approved: false, reason: 'no' });
    assert.equal(model.calls, 1);
  });
});
