import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/shared/events';
import { toolBrief } from '../../../webview-ui/src/itemViews';
import { initialRunView, reduceAll } from '../../../webview-ui/src/reducer';
import { createTranslator } from '../../../webview-ui/src/strings';
import type { ToolCard } from '../../../webview-ui/src/viewModel';
import { envelopes } from './envelopes';

const run = (readArgs: unknown): AgentEvent[] => [
  { type: 'run_started', task: 'Fix the tests', workspace: '/ws', model: 'gpt-test' },
  { type: 'tool_call', callId: 'c1', name: 'run_command', args: { command: 'npm test' }, category: 'command' },
  { type: 'tool_result', callId: 'c1', name: 'run_command', isError: true, content: 'head\n[... 900 characters omitted; lines 3-40 of 50 are left out here; read them with read_output {"call_id": "c1", "start_line": 3} ...]\ntail', durationMs: 10, exitCode: 1 },
  { type: 'tool_call', callId: 'c2', name: 'read_output', args: readArgs, category: 'read' },
];
const cardOf = (readArgs: unknown) => reduceAll(initialRunView(), envelopes('run-r', run(readArgs))).items.find((i): i is ToolCard => i.kind === 'tool' && i.callId === 'c2')!;

describe('webview: a read_output card names the output it reads', () => {
  // [arguments of read_output, English brief, Chinese brief]
  const rows: Array<[unknown, string, string]> = [
    [{ call_id: 'c1', start_line: 3 }, 'more of run_command npm test · from line 3', 'run_command npm test 的更多输出 · 从第 3 行起'],
    [{ call_id: 'c1' }, 'more of run_command npm test', 'run_command npm test 的更多输出'],
    // A model that reused a call id reads "c1~2": still the command's card.
    [{ call_id: 'c1~2', start_line: 9 }, 'more of run_command npm test · from line 9', 'run_command npm test 的更多输出 · 从第 9 行起'],
    // Not on the timeline (another step, a restart): the call id, as the model wrote it.
    [{ call_id: 'gone', start_line: 3 }, 'gone', 'gone'],
    [{ start_line: 3 }, '', ''],
  ];
  for (const [args, english, chinese] of rows) {
    it(JSON.stringify(args), () => {
      const card = cardOf(args);
      assert.equal(toolBrief(createTranslator('en'), card) ?? '', english);
      assert.equal(toolBrief(createTranslator('zh-cn'), card) ?? '', chinese);
    });
  }

  it('other tools keep their main argument', () => {
    const t = createTranslator('en');
    assert.equal(toolBrief(t, { args: { command: 'npm test' } }), 'npm test');
    assert.equal(toolBrief(t, { args: { path: 'src/a.ts', start_line: 4 } }), 'src/a.ts');
  });
});
