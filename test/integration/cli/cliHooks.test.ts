import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEventOf } from '../../../src/shared/events';
import { groupHasLiveMembers } from '../../../src/node/processGroup';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../../support/fakeOpenAIServer';
import { runCliProcess, type CliRun } from './cliProcess';

// Hooks in Claude Code's format through the built CLI's --config: real hook processes (node
// scripts reading the event on stdin), real commands, real files; the fake model records what the
// model was told.

const runCommand = (command: string): FakeTurn => ({ toolCalls: [{ name: 'run_command', arguments: JSON.stringify({ command }) }] });
const finish: FakeTurn = { toolCalls: [{ name: 'finish', arguments: JSON.stringify({ summary: 'done' }) }] };
const results = (r: CliRun) => r.events.filter((e): e is AgentEventOf<'tool_result'> => e.type === 'tool_result' && e.name === 'run_command');
const notices = (r: CliRun) => r.events.filter((e): e is AgentEventOf<'notice'> => e.type === 'notice' && e.code === 'hook');

/** A hook that refuses any command running `rm` (exit 2, the reason on stderr), as users write them for Claude Code. */
const NO_RM_HOOK = `
let input = '';
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  const event = JSON.parse(input);
  if (/(^|[\\s;&|])rm\\s/.test(event.tool_input.command)) {
    process.stderr.write('rm is not allowed in this project: move files to ./trash instead');
    process.exit(2);
  }
  process.exit(0);
});`;

/** A hook that writes the event it got on stdin (and whether it saw the model key) to the file named by its argument. */
const RECORD_HOOK = `
let input = '';
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  const event = JSON.parse(input);
  event.sawKey = process.env.OPENAI_API_KEY !== undefined;
  event.projectDir = process.env.CLAUDE_PROJECT_DIR;
  require('fs').appendFileSync(process.argv[2], JSON.stringify(event) + '\\n');
});`;

describe('stepwise run (CLI): hooks from --config (Claude Code\'s format)', function () {
  this.timeout(60_000);
  let ws: string;
  let dir: string;
  let fake: FakeOpenAIServer | undefined;

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-hooks-ws-'));
    dir = await mkdtemp(path.join(tmpdir(), 'stepwise-hooks-'));
    await writeFile(path.join(dir, 'no-rm.js'), NO_RM_HOOK);
    await writeFile(path.join(dir, 'record.js'), RECORD_HOOK);
  });

  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
    await rm(dir, { recursive: true, force: true });
  });

  async function run(turns: FakeTurn[], hooks: unknown): Promise<CliRun> {
    fake = await startFakeOpenAI(turns);
    const config = path.join(dir, 'config.json');
    await writeFile(config, JSON.stringify({ hooks }));
    return runCliProcess(['run', 'Tidy up.', '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url, '--no-plan', '--json', '--auto-approve', 'read,command', '--config', config]);
  }

  const node = (script: string, ...args: string[]) => [process.execPath, path.join(dir, script), ...args].map((a) => JSON.stringify(a)).join(' ');

  it('a PreToolUse hook that exits 2 for rm stops the command, and its stderr reaches the model; other commands run', async () => {
    await writeFile(path.join(ws, 'keep.txt'), 'keep me\n');
    const r = await run([runCommand('rm keep.txt'), runCommand('echo ran > ran.txt'), finish], {
      PreToolUse: [{ matcher: 'run_command', hooks: [{ type: 'command', command: node('no-rm.js') }] }],
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await readFile(path.join(ws, 'keep.txt'), 'utf8'), 'keep me\n', 'the blocked rm did not run');
    assert.equal(await readFile(path.join(ws, 'ran.txt'), 'utf8'), 'ran\n', 'a command the hook allows runs');
    const [blocked, ran] = results(r);
    assert.equal(blocked!.isError, true);
    assert.match(blocked!.content, /Blocked by the user's PreToolUse hook[\s\S]*rm is not allowed in this project: move files to \.\/trash instead/);
    assert.equal(ran!.isError, false);
    // The model's next request carries the hook's words as the call's result.
    const second = fake!.chatRequests()[1]!.body!.messages!;
    const toolMessage = second.find((m) => m.role === 'tool');
    assert.match(String(toolMessage?.content), /rm is not allowed in this project/);
    assert.equal(notices(r).length, 1);
    assert.match(notices(r)[0]!.message, /PreToolUse hook .* blocked run_command/);
  });

  it('a PostToolUse hook receives the call as JSON on stdin (tool name, input, response, session, workspace) in the one child environment; the matcher picks the tools', async () => {
    const log = path.join(dir, 'post.jsonl');
    const r = await run([runCommand('echo hello-from-command'), { toolCalls: [{ name: 'list_files', arguments: '{}' }] }, finish], {
      PostToolUse: [{ matcher: 'run_command|edit_file', hooks: [{ type: 'command', command: node('record.js', log) }] }],
    });
    assert.equal(r.code, 0, r.stderr);
    const lines = (await readFile(log, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(lines.length, 1, 'list_files does not match run_command|edit_file');
    const event = lines[0]!;
    const runId = r.envelopes[0]!.runId;
    assert.equal(event.hook_event_name, 'PostToolUse');
    assert.equal(event.tool_name, 'run_command');
    assert.deepEqual(event.tool_input, { command: 'echo hello-from-command' });
    assert.match(String((event.tool_response as { content: string }).content), /hello-from-command/);
    assert.equal((event.tool_response as { exitCode: number }).exitCode, 0);
    assert.equal(event.session_id, runId);
    assert.equal(event.cwd, await realRoot(ws));
    assert.equal(event.projectDir, await realRoot(ws));
    assert.equal(event.sawKey, false, 'the model key is not in a hook\'s environment');
  });

  it('a hook that hangs is ended at its timeout (its whole process group), said in a notice, and the task goes on', async () => {
    const pidFile = path.join(dir, 'hook.pid');
    const r = await run([runCommand('echo after-hang > after.txt'), finish], {
      PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `echo $$ > ${JSON.stringify(pidFile)}; sleep 300 & sleep 300; wait`, timeout: 1 }] }],
    });
    assert.equal(r.code, 0, r.stderr);
    const hung = notices(r).filter((n) => /timed out after 1 s/.test(n.message));
    assert.ok(hung.length >= 1, JSON.stringify(notices(r)));
    assert.equal(await readFile(path.join(ws, 'after.txt'), 'utf8'), 'after-hang\n', 'a failed hook does not block');
    const pgid = Number((await readFile(pidFile, 'utf8')).trim());
    assert.ok(pgid > 0);
    assert.equal(await groupHasLiveMembers(pgid), false, 'the hook and its background sleep are gone');
  });

  it('a hook that fails (exit 1) is a warning, not a block; a bad hooks config is a usage error', async () => {
    const r = await run([runCommand('echo ok > ok.txt'), finish], {
      PreToolUse: [{ hooks: [{ type: 'command', command: 'echo broken >&2; exit 1' }] }],
    });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(path.join(ws, 'ok.txt')));
    assert.ok(notices(r).some((n) => /exited with 1: broken/.test(n.message)));
    await fake?.close();
    const bad = await run([finish], { PreToolUse: [{ hooks: [{ type: 'shell', command: 'x' }] }] });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--config: .*hooks/);
  });

  it('SessionStart and UserPromptSubmit add what they print to the task; UserPromptSubmit exit 2 refuses the task before any model call', async () => {
    const r = await run([finish], {
      SessionStart: [{ hooks: [{ type: 'command', command: 'echo "branch: feature/x"' }] }],
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: node('record.js', path.join(dir, 'prompt.jsonl')) + '; echo "ticket ABC-1"' }] }],
    });
    assert.equal(r.code, 0, r.stderr);
    const first = JSON.stringify(fake!.chatRequests()[0]!.body!.messages);
    assert.match(first, /branch: feature\/x/);
    assert.match(first, /ticket ABC-1/);
    const prompt = JSON.parse((await readFile(path.join(dir, 'prompt.jsonl'), 'utf8')).trim()) as Record<string, unknown>;
    assert.equal(prompt.hook_event_name, 'UserPromptSubmit');
    assert.equal(prompt.prompt, 'Tidy up.');
    await fake?.close();

    const refused = await run([finish], { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo "no tasks on Fridays" >&2; exit 2' }] }] });
    assert.equal(refused.code, 1);
    assert.equal(fake!.chatRequests().length, 0, 'no model call for a refused prompt');
    const ended = refused.events.at(-1) as AgentEventOf<'run_finished'>;
    assert.equal(ended.outcome, 'failed');
    assert.match(ended.reason ?? '', /UserPromptSubmit hook refused the task: no tasks on Fridays/);
  });

  it('a Stop hook that exits 2 sends the agent back to work with its reason; once it exits 0 the task finishes', async () => {
    const gate = path.join(dir, 'gate');
    const r = await run([finish, runCommand('echo fixed > fixed.txt'), finish], {
      Stop: [{ hooks: [{ type: 'command', command: `if [ -f ${JSON.stringify(gate)} ]; then exit 0; fi; touch ${JSON.stringify(gate)}; echo "tests are red: fix them first" >&2; exit 2` }] }],
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fake!.chatRequests().length, 3);
    assert.match(JSON.stringify(fake!.chatRequests()[1]!.body!.messages), /Stop hook did not let the task end yet[^"]*tests are red: fix them first/);
    assert.ok(existsSync(path.join(ws, 'fixed.txt')));
    assert.equal((r.events.at(-1) as AgentEventOf<'run_finished'>).outcome, 'finished');
  });
});

async function realRoot(folder: string): Promise<string> {
  const { realpath } = await import('node:fs/promises');
  return realpath(folder);
}
