import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { CancelledError } from '../../../src/agent/errors';
import { ModelAuthError } from '../../../src/agent/model/modelErrors';
import type { ChatMessage } from '../../../src/agent/model/types';
import { LmChatModel, toLmMessages, toModelError } from '../../../src/host/vscode/model/lmChatModel';

/** A LanguageModelChat answering from a script: no language model can run here, the vscode.lm types are real. */
function scriptedChat(parts: unknown[], seen: { messages?: vscode.LanguageModelChatMessage[]; options?: vscode.LanguageModelChatRequestOptions }, fail?: Error): vscode.LanguageModelChat {
  return {
    name: 'Scripted',
    id: 'scripted-1',
    vendor: 'test',
    family: 'scripted',
    version: '1',
    maxInputTokens: 100_000,
    countTokens: async () => 1,
    sendRequest: async (messages, options) => {
      seen.messages = messages;
      seen.options = options;
      if (fail) throw fail;
      async function* stream(): AsyncIterable<unknown> {
        for (const part of parts) yield part;
      }
      return { stream: stream(), text: (async function* () {})() } as vscode.LanguageModelChatResponse;
    },
  };
}

describe('vscode.lm model adapter (real vscode.lm classes)', () => {
  const signal = new AbortController().signal;

  it('converts the conversation: system as user text, tool calls and merged tool results', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Read two files' },
      { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'a', name: 'read_file', arguments: '{"path":"x"}' }, { id: 'b', name: 'read_file', arguments: '{"path":"y"}' }] },
      { role: 'tool', toolCallId: 'a', name: 'read_file', content: 'X' },
      { role: 'tool', toolCallId: 'b', name: 'read_file', content: 'no such file', isError: true },
    ];
    const lm = toLmMessages(messages);
    assert.equal(lm.length, 4);
    assert.equal(lm[0]!.role, vscode.LanguageModelChatMessageRole.User);
    const assistant = lm[2]!;
    assert.equal(assistant.role, vscode.LanguageModelChatMessageRole.Assistant);
    const calls = assistant.content.filter((p) => p instanceof vscode.LanguageModelToolCallPart);
    assert.deepEqual(calls.map((c) => [c.callId, c.name, c.input]), [['a', 'read_file', { path: 'x' }], ['b', 'read_file', { path: 'y' }]]);
    const results = lm[3]!.content.filter((p) => p instanceof vscode.LanguageModelToolResultPart);
    assert.deepEqual(results.map((r) => r.callId), ['a', 'b']);
  });

  it('streams text, returns tool calls and offers the tools', async () => {
    const seen: { options?: vscode.LanguageModelChatRequestOptions } = {};
    const model = new LmChatModel(scriptedChat([new vscode.LanguageModelTextPart('Let me '), new vscode.LanguageModelTextPart('look.'), new vscode.LanguageModelToolCallPart('c1', 'list_files', { path: '.' })], seen));
    const deltas: string[] = [];
    const response = await model.complete(
      { messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'list_files', description: 'List', parameters: { type: 'object' } }], toolChoice: 'required', signal },
      { onText: (d) => deltas.push(d) },
    );
    assert.deepEqual(deltas, ['Let me ', 'look.']);
    assert.equal(response.text, 'Let me look.');
    assert.deepEqual(response.toolCalls, [{ id: 'c1', name: 'list_files', arguments: '{"path":"."}' }]);
    assert.equal(response.finishReason, 'tool_calls');
    assert.equal(seen.options?.tools?.[0]?.name, 'list_files');
    assert.equal(seen.options?.toolMode, vscode.LanguageModelChatToolMode.Required);
    assert.equal(model.id, 'test/scripted-1');
  });

  it('reads tool calls a model behind vscode.lm wrote as text in its native format', async () => {
    const model = new LmChatModel(scriptedChat([new vscode.LanguageModelTextPart('Looking.\n<tool_call>\n{"name": "list_files", "arguments": {"path": "ü"}}\n</tool_call>')], {}));
    const tools = [{ name: 'list_files', description: 'List', parameters: { type: 'object' } }];
    const response = await model.complete({ messages: [{ role: 'user', content: 'hi' }], tools, toolChoice: 'auto', signal });
    assert.equal(response.text, 'Looking.\n');
    assert.deepEqual(response.toolCalls, [{ id: 'call_lm_1', name: 'list_files', arguments: '{"path":"ü"}' }]);
    assert.equal(response.finishReason, 'tool_calls');
    const malformed = new LmChatModel(scriptedChat([new vscode.LanguageModelTextPart('<tool_call>{"name": "list_files", "arguments": </tool_call>')], {}));
    const broken = await malformed.complete({ messages: [{ role: 'user', content: 'hi' }], tools, toolChoice: 'auto', signal });
    assert.deepEqual(broken.toolCalls, []);
    assert.match(broken.correction ?? '', /could not be read/);
  });

  it('maps vscode.lm errors to model errors and honours an aborted signal', async () => {
    const denied = new LmChatModel(scriptedChat([], {}, vscode.LanguageModelError.NoPermissions('no consent')));
    await assert.rejects(denied.complete({ messages: [], tools: [], toolChoice: 'auto', signal }), ModelAuthError);
    // A provider's own error (no code, as an extension throws it) keeps its words without a stray ": ".
    assert.equal(toModelError(new vscode.LanguageModelError('Monthly quota exceeded.')).message, 'Monthly quota exceeded.');
    assert.equal(toModelError(vscode.LanguageModelError.NotFound('no such model')).message, 'NotFound: no such model');
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(new LmChatModel(scriptedChat([], {})).complete({ messages: [], tools: [], toolChoice: 'auto', signal: controller.signal }), CancelledError);
  });
});

describe('vscode.lm model adapter: models without tool calling (text tool protocol)', () => {
  const signal = new AbortController().signal;
  const tools = [{ name: 'read_file', description: 'Read a file.\nMore words.', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
  const messages: ChatMessage[] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Read a.txt' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_lm_1', name: 'read_file', arguments: '{"path":"a.txt"}' }] },
    { role: 'tool', toolCallId: 'call_lm_1', name: 'read_file', content: 'A' },
  ];
  const textOnly = (parts: unknown[], seen: { messages?: vscode.LanguageModelChatMessage[]; options?: vscode.LanguageModelChatRequestOptions }): vscode.LanguageModelChat =>
    Object.assign(scriptedChat(parts, seen), { capabilities: { supportsToolCalling: false, supportsImageToText: false } });
  const textOf = (message: vscode.LanguageModelChatMessage): string =>
    message.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : `<${p.constructor.name}>`)).join('');

  it('describes the tools in the prompt, sends no native tools, and reads ```tool blocks (hidden from the stream)', async () => {
    const seen: { messages?: vscode.LanguageModelChatMessage[]; options?: vscode.LanguageModelChatRequestOptions } = {};
    const model = new LmChatModel(textOnly([new vscode.LanguageModelTextPart('Reading it.\n```tool\n{"name": "read_file", '), new vscode.LanguageModelTextPart('"arguments": {"path": "b.txt"}}\n```\n')], seen));
    const deltas: string[] = [];
    const response = await model.complete({ messages, tools, toolChoice: 'auto', signal }, { onText: (d) => deltas.push(d) });
    assert.equal(seen.options?.tools, undefined, 'no native tools for a model without tool calling');
    const sent = seen.messages!.map(textOf);
    assert.match(sent[0]!, /Be brief\.[\s\S]*# Tools[\s\S]*```tool[\s\S]*- read_file: Read a file\. /);
    assert.match(sent[1]!, /^Read a\.txt/);
    assert.equal(seen.messages![2]!.role, vscode.LanguageModelChatMessageRole.Assistant);
    assert.match(sent[2]!, /```tool\n\{"name":"read_file","arguments":\{"path":"a\.txt"\}\}\n```/);
    assert.match(sent[3]!, /^Result of read_file \(call_lm_1\):\nA/);
    assert.ok(seen.messages!.every((m) => m.content.every((p) => p instanceof vscode.LanguageModelTextPart)), 'only text parts');
    assert.equal(deltas.join(''), 'Reading it.\n');
    assert.equal(response.text, 'Reading it.\n');
    assert.deepEqual(response.toolCalls, [{ id: 'call_lm_1', name: 'read_file', arguments: '{"path":"b.txt"}' }]);
    assert.equal(response.finishReason, 'tool_calls');
  });

  it('a block with broken JSON is still the call (the tool then says what is wrong); `toolProtocol: text` forces the protocol, `auto` keeps native tools', async () => {
    const broken = await new LmChatModel(textOnly([new vscode.LanguageModelTextPart('```tool\n{"name": "read_file", "arguments": {"path": \n```\n')], {})).complete({ messages, tools, toolChoice: 'auto', signal });
    assert.deepEqual(broken.toolCalls.map((c) => [c.name, c.arguments]), [['read_file', '{"path":']]);
    const seen: { options?: vscode.LanguageModelChatRequestOptions } = {};
    await new LmChatModel(scriptedChat([new vscode.LanguageModelTextPart('Done.')], seen), { toolProtocol: 'text' }).complete({ messages, tools, toolChoice: 'auto', signal });
    assert.equal(seen.options?.tools, undefined);
    const native: { options?: vscode.LanguageModelChatRequestOptions } = {};
    await new LmChatModel(scriptedChat([new vscode.LanguageModelTextPart('Done.')], native), { toolProtocol: 'auto' }).complete({ messages, tools, toolChoice: 'auto', signal });
    assert.equal(native.options?.tools?.[0]?.name, 'read_file', 'a model that does not say it lacks tool calling gets native tools');
  });
});
