import assert from 'node:assert/strict';
import { z } from 'zod';
import { o200kCounter } from '../../../src/agent/context/tokenCounter';
import { runAgent } from '../../../src/agent/loop/runAgent';
import type { ChatMessage } from '../../../src/agent/model/types';
import { defineTool } from '../../../src/agent/tools/tool';
import { readOutputTool } from '../../../src/agent/tools/builtins/readOutput';
import { ScriptedModel } from '../../support/scriptedModel';
import { recordingApprover } from '../../support/stubPorts';
import { echoTool, finishTool, makeRun, readTool } from './harness';

type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;
const toolMessages = (messages: ChatMessage[]) => messages.filter((m): m is ToolMessage => m.role === 'tool');

describe('runAgent: acting on tool calls', () => {
  it('runs several calls of one turn in order and answers each by its id right after the assistant message', async () => {
    const order: string[] = [];
    const h = makeRun(
      [
        {
          text: 'Three things.',
          toolCalls: [
            { id: 'x-1', name: 'echo', arguments: { text: 'one' } },
            { id: 'x-2', name: 'echo', arguments: { text: 'two' } },
            { id: 'x-3', name: 'echo', arguments: { text: 'three' } },
          ],
        },
        { text: 'All echoed.' },
      ],
      [echoTool(order), finishTool],
    );
    const result = await runAgent(h.options);
    assert.equal(result.outcome, 'finished');
    assert.deepEqual(order, ['one', 'two', 'three']);
    const next = h.model.requests[1]!.messages;
    const assistantIndex = next.findIndex((m) => m.role === 'assistant');
    const assistant = next[assistantIndex] as Extract<ChatMessage, { role: 'assistant' }>;
    assert.deepEqual(assistant.toolCalls!.map((c) => c.id), ['x-1', 'x-2', 'x-3']);
    assert.deepEqual(
      next.slice(assistantIndex + 1).map((m) => (m.role === 'tool' ? [m.toolCallId, m.name, m.content] : m.role)),
      [
        ['x-1', 'echo', 'echo: one'],
        ['x-2', 'echo', 'echo: two'],
        ['x-3', 'echo', 'echo: three'],
      ],
    );
  });

  it('answers an unknown tool with an error naming the available tools, and the run goes on', async () => {
    const h = makeRun(
      [
        { toolCalls: [{ name: 'read_files', arguments: { path: 'a.ts' } }] },
        { toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' } }] },
        { toolCalls: [{ name: 'finish', arguments: { summary: 'read it' } }] },
      ],
      [readTool(() => 'content of a'), finishTool],
    );
    const result = await runAgent(h.options);
    assert.equal(result.outcome, 'finished');
    const [unknown, fixed] = toolMessages(result.messages);
    assert.equal(unknown!.isError, true);
    assert.match(unknown!.content, /Unknown tool `read_files`/);
    assert.match(unknown!.content, /read_file, finish/);
    assert.equal(fixed!.content, 'content of a');
    assert.equal(result.toolErrors, 1);
    const results = h.ofType('tool_result');
    assert.deepEqual(results.map((r) => r.isError), [true, false, false]);
  });

  it('answers malformed JSON arguments with an error that says the JSON is invalid', async () => {
    const h = makeRun(
      [{ toolCalls: [{ name: 'read_file', arguments: '{"path": "a.ts"' }] }, { text: 'gave up' }],
      [readTool(() => 'x')],
    );
    const result = await runAgent(h.options);
    const [answer] = toolMessages(result.messages);
    assert.equal(answer!.isError, true);
    assert.match(answer!.content, /not valid JSON/);
    // The event shows the raw text the model sent, since it cannot be parsed.
    assert.equal(h.ofType('tool_call')[0]!.args, '{"path": "a.ts"');
  });

  it('answers invalid arguments with an error naming the field', async () => {
    const h = makeRun(
      [{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts', start_line: 'ten' } }] }, { text: 'ok' }],
      [readTool(() => 'x')],
    );
    const result = await runAgent(h.options);
    const [answer] = toolMessages(result.messages);
    assert.equal(answer!.isError, true);
    assert.match(answer!.content, /`start_line`/);
    assert.deepEqual(h.ofType('tool_call')[0]!.args, { path: 'a.ts', start_line: 'ten' });
  });

  it('turns a ToolError into an error result and counts it without ending the run', async () => {
    const h = makeRun(
      [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }] },
        { toolCalls: [{ name: 'read_file', arguments: { path: 'b.txt' } }] },
        { text: 'b.txt read' },
      ],
      [readTool((p) => `content of ${p}`)],
    );
    const result = await runAgent(h.options);
    assert.equal(result.outcome, 'finished');
    assert.equal(result.toolErrors, 1);
    assert.deepEqual(
      toolMessages(result.messages).map((m) => [m.content, m.isError === true]),
      [
        ['File not found: missing.txt', true],
        ['content of b.txt', false],
      ],
    );
  });

  it('flows an approval rejection back to the model as a result with the reason', async () => {
    const guarded = defineTool({
      name: 'write_note',
      description: 'Write a note (asks first).',
      category: 'edit',
      parameters: z.object({ path: z.string(), text: z.string() }),
      execute: async ({ path, text }, ctx) => {
        const decision = await ctx.requestApproval({ category: 'edit', title: `Edit ${path}`, detail: text });
        if (!decision.approved) return { content: `The user rejected the edit: ${decision.reason ?? 'no reason given'}`, isError: true };
        return { content: `wrote ${path}` };
      },
    });
    const approver = recordingApprover(() => ({ approved: false, reason: 'use British spelling' }));
    const h = makeRun(
      [{ toolCalls: [{ id: 'w1', name: 'write_note', arguments: { path: 'notes.md', text: 'color' } }] }, { text: 'understood' }],
      [guarded],
      { approver },
    );
    await runAgent(h.options);
    assert.deepEqual(approver.requests.map(({ announce: _announce, ...r }) => r), [
      { callId: 'w1', tool: 'write_note', category: 'edit', title: 'Edit notes.md', detail: 'color' },
    ]);
    const answer = h.model.requests[1]!.messages.at(-1) as ToolMessage;
    assert.equal(answer.toolCallId, 'w1');
    assert.match(answer.content, /use British spelling/);
    assert.equal(answer.isError, true);
    assert.deepEqual(h.ofType('approval_requested'), [
      { type: 'approval_requested', callId: 'w1', category: 'edit', title: 'Edit notes.md', detail: 'color' },
    ]);
    assert.deepEqual(h.ofType('approval_answered'), [
      { type: 'approval_answered', callId: 'w1', approved: false, reason: 'use British spelling' },
    ]);
    assert.equal(h.ofType('tool_call')[0]!.category, 'edit');
  });

  it('cuts a long tool result to the token budget, keeping head and tail and saying how to read more', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i + 1}: const value${i} = compute(${i});`);
    const h = makeRun(
      [{ toolCalls: [{ name: 'read_file', arguments: { path: 'big.ts' } }] }, { text: 'read' }],
      [readTool(() => lines.join('\n'))],
      { limits: { maxTurns: 5, maxInputTokens: 100_000, maxToolResultTokens: 300 } },
    );
    const result = await runAgent(h.options);
    const [answer] = toolMessages(result.messages);
    assert.ok(o200kCounter.count(answer!.content) <= 300, `tool message has ${o200kCounter.count(answer!.content)} tokens`);
    assert.ok(answer!.content.startsWith('line 1: const value0'));
    assert.ok(answer!.content.endsWith('line 2000: const value1999 = compute(1999);'));
    assert.match(answer!.content, /characters omitted; lines \d+-\d+ of 2000 are left out here; read them with read_output \{"call_id": "call_1", "start_line": \d+\}/);
    assert.equal(h.ofType('tool_result')[0]!.content, answer!.content);
  });

  it('hands over what a cut left out with read_output, window by window, and says when an output is unknown', async () => {
    const log = Array.from({ length: 3000 }, (_, i) => `test ${i + 1} ${i === 1499 ? 'FAILED: expected 3 got 4' : 'passed'}`).join('\n');
    const runTests = defineTool({ name: 'run_tests', description: 'Runs the tests.', category: 'command', parameters: z.object({}), execute: async () => ({ content: log }) });
    const markerOf = (content: string) => /read_output \{"call_id": "([^"]+)", "start_line": (\d+)\}/.exec(content);
    const model = new ScriptedModel((request, index) => {
      const last = request.messages.at(-1)!;
      if (index === 0) return { toolCalls: [{ id: 'same', name: 'run_tests', arguments: {} }] };
      if (index === 1) {
        const m = markerOf(last.content)!;
        return { toolCalls: [{ id: 'same', name: 'read_output', arguments: { call_id: m[1], start_line: Number(m[2]) } }] };
      }
      if (index === 2) {
        const next = /start_line=(\d+)/.exec(last.content)!;
        return { toolCalls: [{ id: 'r2', name: 'read_output', arguments: { call_id: 'same', start_line: Number(next[1]) } }] };
      }
      if (index === 3) return { toolCalls: [{ id: 'r3', name: 'read_output', arguments: { call_id: 'same', start_line: 1500, end_line: 1500 } }] };
      if (index === 4) return { toolCalls: [{ id: 'r4', name: 'read_output', arguments: { call_id: 'never-cut' } }] };
      return { text: 'done' };
    });
    const h = makeRun([], [runTests, readOutputTool]);
    const result = await runAgent({ ...h.options, model, limits: { maxTurns: 8, maxInputTokens: 100_000, maxToolResultTokens: 400 } });
    assert.equal(result.outcome, 'finished', result.reason);
    const [first, window1, window2, failure, unknown] = toolMessages(result.messages);
    assert.doesNotMatch(first!.content, /FAILED/, 'the failure is in the middle the cut left out');
    const span = /lines (\d+)-(\d+) of 3000/.exec(first!.content)!;
    // Each window fits the cap, starts where asked, and the next one goes on where it stopped.
    for (const w of [window1!, window2!]) assert.ok(o200kCounter.count(w.content) <= 400, `${o200kCounter.count(w.content)} tokens`);
    assert.match(window1!.content, new RegExp(`^${span[1]}\\ttest ${span[1]} passed`));
    const end1 = Number(/\[Lines \d+-(\d+) of 3000 of the output of same\. To read more, call read_output with start_line=(\d+)\.\]$/.exec(window1!.content)![1]);
    assert.match(window2!.content, new RegExp(`^${end1 + 1}\\ttest ${end1 + 1} passed`));
    assert.equal(failure!.content, '1500\ttest 1500 FAILED: expected 3 got 4\n[Lines 1500-1500 of 3000 of the output of same. To read more, call read_output with start_line=1501.]');
    assert.equal(unknown!.isError, true);
    assert.match(unknown!.content, /No kept output for call_id "never-cut"/);
  });

  it('answers an empty tool output with a placeholder (some providers reject empty tool messages)', async () => {
    const quiet = defineTool({ name: 'quiet', description: 'Prints nothing.', category: 'command', parameters: z.object({}), execute: async () => ({ content: '' }) });
    const h = makeRun([{ toolCalls: [{ name: 'quiet', arguments: '' }] }, { text: 'ok' }], [quiet]);
    const result = await runAgent(h.options);
    assert.equal(toolMessages(result.messages)[0]!.content, '(no output)');
  });

  it('re-reads the tool specs every turn, so tools that join mid-run are offered', async () => {
    const late = defineTool({ name: 'late_tool', description: 'Joins later.', category: 'mcp', parameters: z.object({}), execute: async () => ({ content: 'late ok' }) });
    const h = makeRun([], [echoTool()]);
    const script = [
      () => {
        h.options.tools.register(late);
        return { toolCalls: [{ name: 'echo', arguments: { text: 'hi' } }] };
      },
      () => ({ toolCalls: [{ name: 'late_tool', arguments: {} }] }),
      () => ({ text: 'done' }),
    ];
    const model = new ScriptedModel(script);
    const result = await runAgent({ ...h.options, model });
    assert.equal(result.outcome, 'finished');
    assert.deepEqual(model.requests[0]!.tools.map((t) => t.name), ['echo']);
    assert.deepEqual(model.requests[1]!.tools.map((t) => t.name), ['echo', 'late_tool']);
    assert.equal(toolMessages(result.messages)[1]!.content, 'late ok');
  });
});
