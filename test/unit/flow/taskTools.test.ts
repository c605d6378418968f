import assert from 'node:assert/strict';
import { z } from 'zod';
import { runTask } from '../../../src/agent/flow/runTask';
import { resumeTask } from '../../../src/agent/flow/resumeTask';
import { asksForWeb, taskTools, type ToolUse } from '../../../src/agent/flow/taskTools';
import { builtinTools } from '../../../src/agent/tools/builtins';
import type { AnyTool } from '../../../src/agent/tools/tool';
import { ToolRegistry } from '../../../src/agent/tools/toolRegistry';
import { webTools } from '../../../src/agent/tools/web';
import { pythonExecuteTool } from '../../../src/agent/tools/python/pythonExecute';
import type { PythonRunner } from '../../../src/agent/tools/python/pythonPort';
import type { BrowserSession, SearchProvider, WebFetcher } from '../../../src/agent/web/webPorts';
import type { AgentEvent } from '../../../src/shared/events';
import { call, finish, flowModel, harness, requestsOf } from './flowHarness';

// The web tools as the shells register them (the ports are never called: only the tool set is counted).
const WEB = webTools({ fetcher: {} as WebFetcher, searchProviders: [{} as SearchProvider], browser: {} as BrowserSession });
const all = () => new ToolRegistry([...builtinTools(), ...WEB]);
const BUILTIN = ['ask_user', 'edit_file', 'finish', 'list_files', 'read_file', 'read_output', 'run_command', 'search_files', 'write_file'];
const READ = ['finish', 'list_files', 'read_file', 'read_output', 'search_files'];
const names = (registry: ToolRegistry) => registry.names().sort();

describe('taskTools: the one place that decides which tools a run is sent', () => {
  const cases: Array<{ name: string; use: ToolUse; expected: string[] }> = [
    { name: 'a direct task that does not ask for the web: no web tool', use: { kind: 'direct', text: 'Fix the failing test in src/parser.ts' }, expected: BUILTIN },
    { name: 'a direct task with a URL: every web tool', use: { kind: 'direct', text: 'Summarise https://example.com/changelog' }, expected: [...BUILTIN, 'browser', 'web_fetch', 'web_search'].sort() },
    { name: 'a direct task naming the web', use: { kind: 'direct', text: 'Search online for the release date' }, expected: [...BUILTIN, 'browser', 'web_fetch', 'web_search'].sort() },
    { name: 'a direct task in Chinese naming a web page', use: { kind: 'direct', text: '打开这个网页并总结' }, expected: [...BUILTIN, 'browser', 'web_fetch', 'web_search'].sort() },
    { name: 'a follow-up keeps the web tool its conversation used', use: { kind: 'direct', text: 'and the next one', used: new Set(['web_fetch']) }, expected: [...BUILTIN, 'web_fetch'].sort() },
    { name: 'coder step without the web', use: { kind: 'role', role: 'coder', text: 'Add validation to parse()' }, expected: BUILTIN },
    { name: 'coder step of a web task: web reading, never the browser', use: { kind: 'role', role: 'coder', text: 'Fetch https://x.test/api.json and save it' }, expected: [...BUILTIN, 'web_fetch', 'web_search'].sort() },
    { name: 'researcher: read-only and web reading, whatever the step says', use: { kind: 'role', role: 'researcher', text: 'Inspect the parser' }, expected: [...READ, 'ask_user', 'web_fetch', 'web_search'].sort() },
    { name: 'browser role: the browser too', use: { kind: 'role', role: 'browser', text: 'Look at the sign-in form' }, expected: [...READ, 'ask_user', 'browser', 'web_fetch', 'web_search'].sort() },
    { name: 'reporter: read and write_file, no web', use: { kind: 'role', role: 'reporter', text: 'Write the report from https://x.test' }, expected: [...READ, 'write_file'].sort() },
    { name: 'look-first: read-only and finish', use: { kind: 'look_first' }, expected: READ },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(names(taskTools(all(), c.use)), c.expected));
  }

  // python_execute as the shells register it (the session is never called).
  const withPython = () => new ToolRegistry([...builtinTools(), ...WEB, pythonExecuteTool({} as PythonRunner)]);
  const pythonCases: Array<{ name: string; use: ToolUse; expected: string[] }> = [
    { name: 'python: a direct task that is not data work does not get it', use: { kind: 'direct', text: 'Fix the failing test' }, expected: BUILTIN },
    { name: 'python: a direct data task gets it', use: { kind: 'direct', text: 'Plot the monthly totals of sales.csv' }, expected: [...BUILTIN, 'python_execute'].sort() },
    { name: 'python: a follow-up keeps it when its conversation used it', use: { kind: 'direct', text: 'and now per region', used: new Set(['python_execute']) }, expected: [...BUILTIN, 'python_execute'].sort() },
    { name: 'python: never the coder, even for data work', use: { kind: 'role', role: 'coder', text: 'Clean data.csv' }, expected: BUILTIN },
    { name: 'python: the analyst gets it with read, write_file and ask_user', use: { kind: 'role', role: 'analyst', text: 'Summarise sales.csv' }, expected: [...READ, 'ask_user', 'python_execute', 'write_file'].sort() },
    { name: 'python: never the researcher', use: { kind: 'role', role: 'researcher', text: 'Look at data.csv' }, expected: [...READ, 'ask_user', 'web_fetch', 'web_search'].sort() },
  ];
  for (const c of pythonCases) {
    it(c.name, () => assert.deepEqual(names(taskTools(withPython(), c.use)), c.expected));
  }

  const wordCases: Array<[string, boolean]> = [
    ['http://localhost:3000/login', true], ['check the website', true], ['use the browser', true], ['上网查一下', true],
    ['fix the webpack config', false], ['read the README', false], ['search the repository for TODO', false], ['rename webhookUrl', false],
  ];
  for (const [text, expected] of wordCases) it(`asksForWeb(${JSON.stringify(text)}) = ${expected}`, () => assert.equal(asksForWeb(text), expected));

  it('is a live view: a tool that joins the registry later (an MCP server) is sent too, and one that leaves is not', () => {
    const registry = all();
    const view = taskTools(registry, { kind: 'direct', text: 'Fix the bug' });
    const mcp: AnyTool = { name: 'db__query', description: 'Query', parameters: z.object({}), category: 'mcp', execute: async () => ({ content: 'ok' }) } as AnyTool;
    registry.register(mcp);
    assert.ok(view.names().includes('db__query'));
    assert.equal(view.specs().length, BUILTIN.length + 1);
    registry.unregister('db__query');
    assert.equal(view.get('db__query'), undefined);
    assert.equal(view.get('web_fetch'), undefined, 'a tool the rule leaves out cannot be called through the view either');
  });

  it('runTask: the direct run of a task that does not ask for the web is sent 9 tool schemas, one that does 12', async () => {
    for (const [task, count] of [['What is this project called?', 9], ['What does https://example.com say?', 12]] as const) {
      const model = flowModel({ direct: [finish('Done.')] });
      const h = harness(model, { task, planMode: 'never' });
      h.options.tools = all();
      await runTask(h.options);
      assert.equal(requestsOf(model, 'direct')[0]!.tools.length, count, task);
    }
  });

  it('resumeTask: a follow-up of a task that fetched a page keeps web_fetch and nothing else of the web', async () => {
    const history: AgentEvent[] = [
      { type: 'run_started', task: 'Summarise the changelog', workspace: '/w', model: 'm' },
      { type: 'assistant_message', text: '', toolCalls: [{ id: 'c1', name: 'web_fetch', arguments: '{"url":"http://x.test"}' }] },
      { type: 'tool_result', callId: 'c1', name: 'web_fetch', isError: false, content: 'page', durationMs: 1 },
      { type: 'run_finished', outcome: 'finished', summary: 'Done.', turns: 1 },
    ];
    const model = flowModel({ direct: [call('read_file', { path: 'README.md' }), finish('Again.')] });
    const h = harness(model, { task: 'unused', files: { 'README.md': '# Demo\n' } });
    h.options.tools = all();
    await resumeTask({ ...h.options, history, resumedFrom: 'r1', instruction: 'And the older entries?' });
    const sent = requestsOf(model, 'direct')[0]!.tools.map((t) => t.name).sort();
    assert.deepEqual(sent, [...BUILTIN, 'web_fetch'].sort());
  });
});
