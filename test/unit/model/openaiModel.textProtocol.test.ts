import assert from 'node:assert/strict';
import { z } from 'zod';
import { ModelBadRequestError } from '../../../src/agent/model/modelErrors';
import type { ChatMessage } from '../../../src/agent/model/types';
import { defineTool } from '../../../src/agent/tools/tool';
import { ToolRegistry } from '../../../src/agent/tools/toolRegistry';
import { chatRequest, fakeServerPerTest, listFilesSpec, makeModel, readFileSpec, recordingHandlers, rejectionOf } from './support';

const fence = '```';
const toolBlock = (name: string, args: object) => `${fence}tool\n${JSON.stringify({ name, arguments: args })}\n${fence}`;

describe('OpenAICompatibleModel: text tool protocol over the wire', () => {
  const start = fakeServerPerTest();

  it('auto: switches to the text protocol when the endpoint rejects tools, and stays switched', async () => {
    const server = await start(
      [
        { text: `I'll read it.\n${toolBlock('read_file', { path: 'src/a.ts' })}\n`, chunkChars: 3 },
        { text: `Next.\n${toolBlock('list_files', { path: 'src' })}` },
      ],
      { rejectTools: true },
    );
    const model = makeModel(server.url);
    const handlers = recordingHandlers();
    const request = chatRequest({ tools: [readFileSpec, listFilesSpec] });
    const response = await model.complete(request, handlers);

    assert.deepEqual(response.toolCalls, [{ id: 'call_txt_1', name: 'read_file', arguments: '{"path":"src/a.ts"}' }]);
    assert.equal(response.finishReason, 'tool_calls');
    assert.equal(response.text, "I'll read it.\n");
    assert.equal(handlers.texts.join(''), "I'll read it.\n");
    assert.ok(handlers.texts.every((t) => !t.includes('`')), 'no fence reached the user');
    assert.equal(handlers.notices.length, 1);
    assert.match(handlers.notices[0]!, /switched to text tool protocol/);
    assert.match(handlers.notices[0]!, /does not support tools/);
    assert.equal(model.activeToolProtocol, 'text');

    const [rejected, accepted] = server.chatRequests();
    assert.equal(rejected!.body!.tools!.length, 2);
    assert.equal(accepted!.body!.tools, undefined);
    const system = accepted!.body!.messages![0]!;
    assert.equal(system.role, 'system');
    assert.match(system.content!, /^You are a careful coding agent\.\n\n# Tools\n/);
    assert.ok(system.content!.includes('- read_file: Reads a text file of the workspace.'));
    assert.ok(system.content!.includes('- list_files: Lists files in a folder.'));
    assert.ok(system.content!.includes('"required":["path"]'));

    const second = await model.complete(request);
    assert.deepEqual(second.toolCalls, [{ id: 'call_txt_2', name: 'list_files', arguments: '{"path":"src"}' }]);
    assert.equal(server.chatRequests().length, 3, 'the later call went straight to the text protocol');
    assert.equal(server.chatRequests()[2]!.body!.tools, undefined);
  });

  it('auto: also recognises a 404 "no endpoints support tool use" (OpenRouter)', async () => {
    const server = await start((request) =>
      request.body!.tools ? { status: 404, body: { error: { message: 'No endpoints found that support tool use.', code: 404 } } } : { text: 'plain answer' },
    );
    const handlers = recordingHandlers();
    const response = await makeModel(server.url).complete(chatRequest({ tools: [readFileSpec] }), handlers);
    assert.equal(response.text, 'plain answer');
    assert.equal(handlers.notices.length, 1);
  });

  it("native: never falls back, the rejection is a ModelBadRequestError", async () => {
    const server = await start([{ text: 'unreachable' }], { rejectTools: true });
    const handlers = recordingHandlers();
    const error = await rejectionOf(makeModel(server.url, { toolProtocol: 'native' }).complete(chatRequest({ tools: [readFileSpec] }), handlers));
    assert.ok(error instanceof ModelBadRequestError, error.message);
    assert.match(error.message, /does not accept native tool calling/);
    assert.equal(server.chatRequests().length, 1);
    assert.deepEqual(handlers.notices, []);
  });

  it('text: sends history as blocks and user results, and parses several calls', async () => {
    const server = await start([
      {
        text: `Two more.\n${toolBlock('read_file', { path: 'b.ts' })}\n${toolBlock('read_file', { path: 'c.ts' })}\nThen I will decide.`,
        chunkChars: 1,
      },
    ]);
    const messages: ChatMessage[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'Check the files.' },
      { role: 'assistant', content: 'Reading a.', toolCalls: [{ id: 'call_txt_7', name: 'read_file', arguments: '{"path":"a.ts"}' }] },
      { role: 'tool', toolCallId: 'call_txt_7', name: 'read_file', content: 'File not found: a.ts', isError: true },
    ];
    const handlers = recordingHandlers();
    const response = await makeModel(server.url, { toolProtocol: 'text' }).complete(chatRequest({ messages, tools: [readFileSpec], toolChoice: 'required' }), handlers);

    assert.deepEqual(
      response.toolCalls.map((c) => [c.id, c.name, c.arguments]),
      [
        ['call_txt_1', 'read_file', '{"path":"b.ts"}'],
        ['call_txt_2', 'read_file', '{"path":"c.ts"}'],
      ],
    );
    assert.equal(handlers.texts.join(''), 'Two more.\nThen I will decide.');
    assert.equal(response.text, 'Two more.\nThen I will decide.');

    const sent = server.chatRequests()[0]!.body!;
    assert.equal(sent.tools, undefined);
    assert.equal(sent.tool_choice, undefined);
    assert.deepEqual(
      sent.messages!.map((m) => m.role),
      ['system', 'user', 'assistant', 'user'],
    );
    assert.match(sent.messages![0]!.content!, /You must call at least one tool/);
    assert.equal(sent.messages![2]!.content, 'Reading a.\n\n```tool\n{"name":"read_file","arguments":{"path":"a.ts"}}\n```');
    assert.equal(sent.messages![3]!.content, 'Result of read_file (call_txt_7) [error]:\nFile not found: a.ts');
    assert.ok(sent.messages!.every((m) => m.tool_calls === undefined && m.tool_call_id === undefined));
  });

  it('text: a block with malformed JSON reaches the registry, which tells the model', async () => {
    const server = await start([{ text: `${fence}tool\n{"name": "read_file", "arguments": {"path": "a.ts"\n${fence}` }]);
    const response = await makeModel(server.url, { toolProtocol: 'text' }).complete(chatRequest({ tools: [readFileSpec] }));
    assert.equal(response.toolCalls.length, 1);
    const call = response.toolCalls[0]!;
    assert.equal(call.name, 'read_file');
    const registry = new ToolRegistry([
      defineTool({
        name: 'read_file',
        description: 'Reads a file.',
        category: 'read',
        parameters: z.object({ path: z.string() }),
        execute: async () => ({ content: 'unused' }),
      }),
    ]);
    const parsed = registry.parseArguments(call.name, call.arguments);
    assert.equal(parsed.ok, false);
    assert.match((parsed as { message: string }).message, /not valid JSON/);
  });

  it("text with toolChoice 'none': no tool prompt, blocks stay text", async () => {
    const server = await start([{ text: `Summary with an example:\n${toolBlock('read_file', { path: 'a' })}` }]);
    const response = await makeModel(server.url, { toolProtocol: 'text' }).complete(chatRequest({ tools: [readFileSpec], toolChoice: 'none' }));
    assert.deepEqual(response.toolCalls, []);
    assert.ok(response.text.includes('```tool'));
    assert.ok(!server.chatRequests()[0]!.body!.messages![0]!.content!.includes('# Tools'));
  });

  it('native: a fenced block naming a known tool is taken as a call when no native call came', async () => {
    const server = await start([
      {
        text: `Let me look.\n${fence}json\n{"name": "read_file", "arguments": {"path": "README.md"}}\n${fence}\nAn example config:\n${fence}json\n{"name": "demo", "private": true}\n${fence}\n`,
        chunkChars: 2,
      },
    ]);
    const handlers = recordingHandlers();
    const response = await makeModel(server.url).complete(chatRequest({ tools: [readFileSpec] }), handlers);
    assert.deepEqual(response.toolCalls, [{ id: 'call_txt_1', name: 'read_file', arguments: '{"path":"README.md"}' }]);
    assert.equal(response.finishReason, 'tool_calls');
    const shown = handlers.texts.join('');
    assert.equal(shown, response.text);
    assert.ok(!shown.includes('README.md'));
    assert.ok(shown.includes('{"name": "demo", "private": true}'));
    assert.ok(server.chatRequests()[0]!.body!.tools, 'native tools were sent');
  });

  it('native: prefers native calls over blocks in the text', async () => {
    const server = await start([{ text: toolBlock('list_files', { path: '.' }), toolCalls: [{ name: 'read_file', arguments: '{"path":"n.ts"}' }] }]);
    const response = await makeModel(server.url).complete(chatRequest({ tools: [readFileSpec, listFilesSpec] }));
    assert.deepEqual(response.toolCalls.map((c) => c.name), ['read_file']);
  });
});
