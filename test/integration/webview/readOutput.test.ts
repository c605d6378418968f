import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/shared/events';
import type { HostMessage } from '../../../src/shared/webviewProtocol';
import { chromiumSuite, sendHost, settle } from './harness';
import { wrap } from './scenario';

// Issue 14: a cut output is read back with read_output; its card says whose output, not a call id.

const RUN = 'run-read-output';
const status: HostMessage = { type: 'status', status: { configured: true, trusted: true, running: false, runId: RUN, model: 'gpt-test', history: [] } };
const log = Array.from({ length: 8 }, (_, i) => `PASS test ${i + 1}`).join('\n');
const events: AgentEvent[] = [
  { type: 'run_started', task: 'Make the tests pass', workspace: '/ws', model: 'gpt-test' },
  { type: 'turn_started', turn: 1, maxTurns: 10 },
  { type: 'tool_call', callId: 'call_7', name: 'run_command', args: { command: 'npm test' }, category: 'command' },
  {
    type: 'tool_result', callId: 'call_7', name: 'run_command', isError: true, exitCode: 1, durationMs: 2100,
    content: `${log}\n[... 48210 characters omitted; lines 9-1180 of 1200 are left out here; read them with read_output {"call_id": "call_7", "start_line": 9} ...]\nTests: 1 failed, 1199 passed`,
  },
  { type: 'turn_started', turn: 2, maxTurns: 10 },
  { type: 'tool_call', callId: 'call_8', name: 'read_output', args: { call_id: 'call_7', start_line: 9 }, category: 'read' },
  { type: 'tool_result', callId: 'call_8', name: 'read_output', isError: false, durationMs: 3, content: ' 9| FAIL test 9: expected 3, got 4\n[Lines 9-9 of 1200 of the output of call_7. To read more, call read_output with start_line=10.]' },
];

describe('webviews in Chromium: reading a cut output', function () {
  this.timeout(60_000);
  const { view, shot } = chromiumSuite();

  for (const [lang, brief] of [['en', 'more of run_command npm test · from line 9'], ['zh-cn', 'run_command npm test 的更多输出 · 从第 9 行起']] as const) {
    it(`${lang}: the read_output card names the command whose output it reads`, async () => {
      const page = await view({ view: 'panel', theme: 'dark', lang });
      await sendHost(page, status, { type: 'reset', runId: RUN, task: 'Make the tests pass' }, { type: 'events', runId: RUN, envelopes: wrap(RUN, events) });
      await settle(page);
      const briefs = await page.$$eval('details.tool summary .tool-brief', (els) => els.map((el) => el.textContent));
      assert.deepEqual(briefs, ['npm test', brief]);
      await shot(page, `panel-read-output-${lang}-dark`);
    });
  }
});
