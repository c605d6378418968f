import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEventOf } from '../../../src/shared/events';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { HOSTILE_ROWS, makeHostileRepo } from '../../support/hostileRepo';
import { CLI_PATH, runCliProcess } from './cliProcess';

// Acceptance 2 and the environment rows of acceptance 4 through the BUILT CLI (npm run build first):
// a repository whose config names programs runs none of them through @changes, checkpoints or a
// restore; and a known key (the model key, also copied under an innocent name) reaches no child:
// git (a wrapper first on PATH dumps every git's environment), commands, an MCP stdio server, the browser.

const KEY = 'sk-test-childenv-KEY-0123456789abcdef0123';
const REAL_GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
const EVERYTHING = path.resolve(__dirname, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const call = (name: string, args: object) => ({ toolCalls: [{ name, arguments: JSON.stringify(args) }] });

/** A `git` first on PATH that appends its environment to `dump`, then runs the real git. */
function gitProbe(dir: string, dump: string): string {
  writeFileSync(path.join(dir, 'git'), `#!/bin/sh\n{ echo '--- git' "$1"; env; } >> '${dump}'\nexec '${REAL_GIT}' "$@"\n`);
  chmodSync(path.join(dir, 'git'), 0o755);
  return `${dir}:${process.env.PATH ?? ''}`;
}

describe('built CLI: one child environment, git with a neutral configuration', function () {
  this.timeout(120_000);
  let base: string;
  let fake: FakeOpenAIServer | undefined;

  beforeEach(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'stepwise-childenv-'));
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    await rm(base, { recursive: true, force: true });
  });

  for (const row of HOSTILE_ROWS) {
    it(`${row.name}: @changes, checkpoints and restore run no program of the repository; no git sees the key`, async () => {
      const repo = makeHostileRepo(base);
      const marker = row.setup(repo);
      row.control(repo);
      assert.deepEqual(repo.fired(), [marker], 'control: plain git starts the program');
      repo.clearMarkers();
      const dump = path.join(base, 'git-env.txt');
      const home = path.join(base, 'home');
      const env = { PATH: gitProbe(path.join(base, 'bin'), dump), OPENAI_API_KEY: KEY, INNOCENT: `x${KEY}`, STEPWISE_HOME: home };

      fake = await startFakeOpenAI([call('write_file', { path: 'data.txt', content: 'one\ntwo\nthree\n' }), call('finish', { summary: 'ok' })]);
      const r = await runCliProcess(['run', 'look at @changes', '--workspace', repo.ws, '--model', 'm', '--base-url', fake.url, '--no-plan', '--json', '--auto-approve', 'read,edit'], env);
      assert.equal(r.code, 0, r.stderr);
      const sent = (fake.chatRequests()[0]?.body?.messages ?? []).map((m) => String(m.content)).join('\n');
      assert.match(sent, /@changes — git changes[^\n]*\n```\n M README\.md/);
      if (row.diffShown) assert.match(sent, /\+CHANGED-MARKER/);
      const checkpoints = r.events.filter((e): e is AgentEventOf<'checkpoint'> => e.type === 'checkpoint');
      assert.ok(checkpoints.length >= 2, 'checkpoints were taken');
      assert.equal(readFileSync(path.join(repo.ws, 'data.txt'), 'utf8'), 'one\ntwo\nthree\n');

      const restore = spawnSync(process.execPath, [CLI_PATH, 'restore', r.envelopes[0]!.runId, '--to', checkpoints[0]!.id, '--files', '--force', '--workspace', repo.ws],
        { env: { ...env, HOME: base }, encoding: 'utf8', timeout: 60_000 });
      assert.equal(restore.status, 0, restore.stderr);
      assert.equal(readFileSync(path.join(repo.ws, 'data.txt'), 'utf8'), 'one\ntwo\n', 'restored');

      assert.deepEqual(repo.fired(), [], 'no program the repository names ran');
      const dumped = readFileSync(dump, 'utf8');
      assert.match(dumped, /--- git config/, '@changes ran git (through the probe)');
      assert.match(dumped, /--- git write-tree|--- git update-index/, 'checkpoints ran git (through the probe)');
      assert.ok(!dumped.includes(KEY), 'no git process had the key in its environment');
    });
  }

  it('a command, an MCP stdio server and the browser never get the key; --pass-env is the one way in', async () => {
    const ws = path.join(base, 'ws');
    execFileSync('mkdir', ['-p', ws, path.join(base, 'bin')]);
    const serverDump = path.join(base, 'server-env.txt');
    const browserDump = path.join(base, 'browser-env.txt');
    writeFileSync(path.join(ws, 'mcp.json'), JSON.stringify({ mcpServers: {
      dumper: { command: '/bin/sh', args: ['-c', `env > '${serverDump}'; exec '${process.execPath}' '${EVERYTHING}' stdio`], env: { OWN_SETTING: 'kept' } },
    } }));
    const browser = path.join(base, 'bin', 'fake-chrome');
    writeFileSync(browser, `#!/bin/sh\nenv > '${browserDump}'\nexit 1\n`);
    chmodSync(browser, 0o755);
    const env = { OPENAI_API_KEY: KEY, INNOCENT: `x${KEY}`, STEPWISE_HOME: path.join(base, 'home') };
    const script = () => [
      call('run_command', { command: 'env > cmd-env.txt' }),
      call('browser', { action: 'navigate', url: 'http://127.0.0.1:9/' }),
      call('finish', { summary: 'ok' }),
    ];
    const run = async (extra: string[]) => {
      fake = await startFakeOpenAI(script());
      const r = await runCliProcess(['run', 'dump the environment (commands, MCP, the browser)', '--workspace', ws, '--model', 'm', '--base-url', fake.url, '--no-plan', '--json',
        '--auto-approve', 'read,command,web,mcp', '--mcp-config', path.join(ws, 'mcp.json'), '--browser-path', browser, '--web-allow-host', '127.0.0.1', ...extra], env);
      assert.equal(r.code, 0, r.stderr);
      await fake.close();
      fake = undefined;
      return { command: readFileSync(path.join(ws, 'cmd-env.txt'), 'utf8'), server: readFileSync(serverDump, 'utf8'), browser: existsSync(browserDump) ? readFileSync(browserDump, 'utf8') : '' };
    };

    const clean = await run([]);
    for (const [child, text] of Object.entries(clean)) {
      assert.match(text, /^PATH=/m, `${child} environment was dumped`);
      assert.ok(!text.includes(KEY), `${child} has no key, by name or by value`);
    }
    assert.match(clean.server, /^OWN_SETTING=kept$/m, "the server entry's own variables stay");

    const passed = await run(['--pass-env', 'OPENAI_API_KEY']);
    assert.match(passed.command, new RegExp(`^OPENAI_API_KEY=${KEY}$`, 'm'), 'the user passed it through explicitly');
    assert.ok(!passed.command.includes(`INNOCENT=x${KEY}`), 'only the passed name');
  });
});
