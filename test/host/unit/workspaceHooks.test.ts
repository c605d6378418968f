import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runHooks } from '../../../src/agent/hooks/runHooks';
import type { AgentEvent } from '../../../src/shared/events';
import { ExecaCommandRunner } from '../../../src/node/execaCommandRunner';
import { hookSources, hooksFingerprint, readWorkspaceHooks, USER_HOOKS_SOURCE, WORKSPACE_HOOKS_FILE } from '../../../src/host/common/hooks/workspaceHooks';

// A workspace's hooks (`.stepwise/settings.json`) are commands from the repository: they run only
// after the user trusted exactly them (by fingerprint), never in Restricted Mode. Real files, the
// real command runner: a hook that runs leaves a marker file.

describe('workspace hooks: nothing runs until the user trusts them', function () {
  this.timeout(30_000);
  let ws: string;
  const runner = new ExecaCommandRunner();
  const events: AgentEvent[] = [];

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-ws-hooks-'));
    events.length = 0;
    await mkdir(path.join(ws, '.stepwise'));
  });

  afterEach(async () => rm(ws, { recursive: true, force: true }));
  after(() => runner.dispose());

  const hooksFile = (command: string) =>
    writeFile(path.join(ws, WORKSPACE_HOOKS_FILE), `// the repository's hooks\n{"hooks": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"type": "command", "command": ${JSON.stringify(command)}}]}]}}\n`);

  async function fire(trusted: Set<string>, workspaceTrusted = true): Promise<ReturnType<typeof hookSources>> {
    const found = hookSources({}, await readWorkspaceHooks(ws), { isTrusted: (f) => trusted.has(f) }, workspaceTrusted);
    await runHooks(found.sources, { commands: runner, workspaceRoot: ws, sessionId: 's1', signal: new AbortController().signal, emit: (e) => events.push(e) }, 'PreToolUse', { tool_input: { command: 'ls' } }, 'run_command');
    return found;
  }

  it('untrusted: the hook does not run and waits with its command listed; trusted: it runs; changed: it waits again', async () => {
    await hooksFile('touch ran-1');
    const trusted = new Set<string>();
    const first = await fire(trusted);
    assert.equal(existsSync(path.join(ws, 'ran-1')), false, 'an untrusted workspace hook did not run');
    assert.deepEqual(first.sources, []);
    assert.deepEqual(first.waiting?.commands, ['PreToolUse (run_command): touch ran-1']);

    trusted.add(first.waiting!.fingerprint);
    const second = await fire(trusted);
    assert.equal(second.waiting, undefined);
    assert.equal(existsSync(path.join(ws, 'ran-1')), true, 'the trusted hook ran');

    // The repository changes the command: new hooks, a new fingerprint, not trusted.
    await hooksFile('touch ran-2');
    const third = await fire(trusted);
    assert.notEqual(third.waiting?.fingerprint, first.waiting!.fingerprint);
    assert.equal(existsSync(path.join(ws, 'ran-2')), false, 'a changed hook waits for trust again');
  });

  it('in Restricted Mode a workspace hook never runs, even one trusted before; the user\'s own hooks always apply', async () => {
    await hooksFile('touch ran');
    const config = (await readWorkspaceHooks(ws)) as { config: Parameters<typeof hooksFingerprint>[0] };
    const trusted = new Set([hooksFingerprint(config.config)]);
    const restricted = await fire(trusted, false);
    assert.deepEqual(restricted.sources, []);
    assert.equal(restricted.waiting, undefined);
    assert.equal(existsSync(path.join(ws, 'ran')), false);

    const user = { PreToolUse: [{ hooks: [{ type: 'command' as const, command: 'touch user-ran' }] }] };
    const withUser = hookSources(user, await readWorkspaceHooks(ws), { isTrusted: () => false }, true);
    assert.deepEqual(withUser.sources.map((s) => s.source), [USER_HOOKS_SOURCE]);
  });

  it('a hooks file Stepwise cannot read is a problem, never a partial run', async () => {
    await writeFile(path.join(ws, WORKSPACE_HOOKS_FILE), '{"hooks": {"PreToolUse": [{"hooks": [{"type": "shell", "command": "touch x"}]}]}}');
    const found = await fire(new Set());
    assert.match(found.problem ?? '', /\.stepwise\/settings\.json: hooks/);
    assert.equal(existsSync(path.join(ws, 'x')), false);
    assert.equal(await readWorkspaceHooks(path.join(ws, 'missing')), undefined);
  });
});
