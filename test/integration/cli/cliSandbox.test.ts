import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import type { AgentEventOf } from '../../../src/shared/events';
import { startFakeOpenAI, type FakeTurn } from '../../support/fakeOpenAIServer';
import { runCliProcess, type CliRun } from './cliProcess';

// Issue 25, acceptance 1: the built CLI with --sandbox workspace-write and commands auto-approved.
// Each escape is tried for real and must be blocked or cleaned up, the result saying so; the same
// commands with --sandbox off must work, so the test fails if the sandbox is not there.
// The folders live under /var/tmp, not /tmp: the sandbox's /tmp is private, which would hide them
// for a reason other than the rule under test (read-only root, hidden secrets, masked sockets).

const runCommand = (command: string): FakeTurn => ({ toolCalls: [{ name: 'run_command', arguments: JSON.stringify({ command }) }] });
const finish: FakeTurn = { toolCalls: [{ name: 'finish', arguments: JSON.stringify({ summary: 'done' }) }] };
const results = (r: CliRun) => r.events.filter((e): e is AgentEventOf<'tool_result'> => e.type === 'tool_result' && e.name === 'run_command').map((e) => e.content);
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/** Live (not zombie) processes whose command line is exactly `args`. */
function livePids(args: string[]): number[] {
  const want = args.join('\0') + '\0';
  const out: number[] = [];
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8') !== want) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (!/\) [ZX] /.test(stat)) out.push(Number(name));
    } catch {}
  }
  return out;
}

describe('stepwise run --sandbox (CLI, bubblewrap): escapes are blocked and said; --sandbox off runs them', function () {
  this.timeout(120_000);
  let root: string;
  let ws: string;
  let home: string;
  let outside: string;
  let web: http.Server;
  let docker: net.Server;
  let victim: ChildProcess;
  let port: number;
  let dockerSocket: string;
  const dockerSockets = new Set<net.Socket>();

  before(async function () {
    assert.equal(process.getuid?.(), 0, 'these tests make a setuid helper owned by another user: run them as root');
    root = mkdtempSync('/var/tmp/stepwise-sandbox-test-');
    home = path.join(root, 'home');
    outside = path.join(root, 'outside');
    mkdirSync(path.join(home, '.ssh'), { recursive: true });
    mkdirSync(outside);
    mkdirSync(path.join(root, 'run'));
    writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'FAKE-PRIVATE-KEY\n');
    web = http.createServer((_req, res) => res.end('hello-from-loopback\n'));
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    port = (web.address() as AddressInfo).port;
    // A fake Docker daemon: answers any request on its unix socket.
    dockerSocket = path.join(root, 'run', 'docker.sock');
    docker = net.createServer((socket) => {
      dockerSockets.add(socket);
      socket.end('HTTP/1.1 200 OK\r\nContent-Length: 14\r\nConnection: close\r\n\r\ndocker-daemon\n');
    });
    await new Promise<void>((resolve) => docker.listen(dockerSocket, resolve));
    // A process outside any sandbox, with a secret in its environment.
    victim = spawn('sleep', ['86400'], { stdio: 'ignore', env: { PATH: process.env.PATH ?? '', VICTIM_MARK: 'victim-env-mark' } });
  });

  after(async () => {
    if (victim.pid) process.kill(victim.pid, 'SIGKILL');

    web.closeAllConnections();
    await new Promise<void>((resolve) => web.close(() => resolve()));
    for (const socket of dockerSockets) socket.destroy();
    await new Promise<void>((resolve) => docker.close(() => resolve()));
    rmSync(root, { recursive: true, force: true });
  });

  /** The commands of one run; `tag` keeps the two runs' files and daemons apart. */
  function commands(tag: string): string[] {
    const target = path.join(outside, `target-${tag}.txt`);
    writeFileSync(target, 'original\n');
    symlinkSync(target, path.join(ws, 'link'));
    symlinkSync(path.join(home, '.ssh', 'id_rsa'), path.join(ws, 'key'));
    copyFileSync('/usr/bin/id', path.join(ws, 'idsu'));
    chownSync(path.join(ws, 'idsu'), 65534, 65534);
    chmodSync(path.join(ws, 'idsu'), 0o4755);
    return [
      `echo pwned > ${path.join(outside, `write-${tag}.txt`)}`,
      `cat ${path.join(home, '.ssh', 'id_rsa')}`,
      `curl -sS --max-time 5 --noproxy '*' http://127.0.0.1:${port}/`,
      `curl -sS --max-time 5 http://127.0.0.1:${port}/`,
      `curl -sS --max-time 5 http://localhost:${port}/`,
      'echo pwned > link; cat key',
      `echo pwned > /proc/self/root${path.join(outside, `proc-${tag}.txt`)}; cat /proc/self/root${path.join(home, '.ssh', 'id_rsa')}`,
      `curl -sS --max-time 5 --unix-socket ${dockerSocket} http://docker/version`,
      `${PYTHON} -c "import ctypes,os,sys; l=ctypes.CDLL(None, use_errno=True); r=l.ptrace(16, int(sys.argv[1]), 0, 0); print('ptrace', r, os.strerror(ctypes.get_errno()) if r else '')" ${victim.pid}; tr '\\0' '\\n' < /proc/${victim.pid}/environ | grep VICTIM_MARK`,
      './idsu -u',
      // The pause lets setsid take the daemon out of the command's process group before the shell exits.
      `env -i setsid sleep ${tag === 'sandbox' ? 86401 : 86402} > /dev/null 2>&1 < /dev/null & sleep 0.5; echo started`,
      'echo inside > inside.txt && cat inside.txt',
    ];
  }

  async function run(mode: string, tag: string): Promise<{ out: string[]; r: CliRun }> {
    ws = path.join(root, `ws-${tag}`);
    mkdirSync(ws);
    const list = commands(tag);
    const fake = await startFakeOpenAI([...list.map(runCommand), finish]);
    try {
      const r = await runCliProcess(['run', 'Try the commands.', '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url, '--no-plan', '--json',
        '--auto-approve', 'read,command', '--sandbox', mode, '--sandbox-allow-host', 'localhost'], {
        HOME: home, STEPWISE_HOME: path.join(root, `state-${tag}`), DOCKER_HOST: `unix://${dockerSocket}`,
      });
      assert.equal(r.code, 0, r.stderr);
      const out = results(r);
      assert.equal(out.length, list.length, r.stderr);
      return { out, r };
    } finally {
      await fake.close();
    }
  }

  it('workspace-write blocks each escape and says so in the result; the workspace stays writable', async () => {
    const { out } = await run('workspace-write', 'sandbox');
    const blocked = (i: number, what: RegExp) => {
      assert.match(out[i]!, /\[sandbox workspace-write\] .*blocked by the sandbox/, `result ${i} says the sandbox blocked it:\n${out[i]}`);
      assert.match(out[i]!, what, `result ${i}:\n${out[i]}`);
    };
    assert.equal(existsSync(path.join(outside, 'write-sandbox.txt')), false, 'no write outside the workspace');
    blocked(0, /write outside the workspace/);
    assert.doesNotMatch(out[1]!, /FAKE-PRIVATE-KEY/);
    blocked(1, /\.ssh is hidden/);
    assert.doesNotMatch(out[2]!, /hello-from-loopback/);
    blocked(2, /loopback included, is not reachable/);
    assert.doesNotMatch(out[3]!, /hello-from-loopback/);
    blocked(3, /not allowed/);
    assert.match(out[4]!, /^exit code 0\nhello-from-loopback/, 'the allowed host answers through the proxy');
    assert.equal(readFileSync(path.join(outside, 'target-sandbox.txt'), 'utf8'), 'original\n', 'no write through a symlink');
    assert.doesNotMatch(out[5]!, /FAKE-PRIVATE-KEY/);
    blocked(5, /write outside the workspace/);
    assert.equal(existsSync(path.join(outside, 'proc-sandbox.txt')), false, 'no write through /proc/self/root');
    assert.doesNotMatch(out[6]!, /FAKE-PRIVATE-KEY/);
    blocked(6, /write outside the workspace/);
    assert.doesNotMatch(out[7]!, /docker-daemon/);
    blocked(7, /docker\.sock is hidden/);
    assert.doesNotMatch(out[8]!, /ptrace 0|victim-env-mark/);
    assert.match(out[8]!, /ptrace -1/);
    blocked(8, /processes outside the sandbox are not visible|is hidden/);
    assert.match(out[9]!, /^exit code 0\n0$/, 'the setuid helper runs without its owner (no new privileges)');
    assert.match(out[10]!, /cleaned up by the sandbox: 1 process\(es\) that outlived the command were ended/);
    assert.deepEqual(livePids(['sleep', '86401']), [], 'the daemon is gone');
    assert.match(out[11]!, /^exit code 0\ninside$/);
    assert.equal(readFileSync(path.join(ws, 'inside.txt'), 'utf8'), 'inside\n');
  });

  it('--sandbox off: the same commands work (so the sandbox is what blocks them)', async () => {
    const { out } = await run('off', 'off');
    try {
      for (const text of out) assert.doesNotMatch(text, /\[sandbox/);
      assert.equal(readFileSync(path.join(outside, 'write-off.txt'), 'utf8'), 'pwned\n');
      assert.match(out[1]!, /FAKE-PRIVATE-KEY/);
      assert.match(out[2]!, /hello-from-loopback/);
      assert.match(out[3]!, /hello-from-loopback/);
      assert.equal(readFileSync(path.join(outside, 'target-off.txt'), 'utf8'), 'pwned\n');
      assert.match(out[5]!, /FAKE-PRIVATE-KEY/);
      assert.equal(readFileSync(path.join(outside, 'proc-off.txt'), 'utf8'), 'pwned\n');
      assert.match(out[6]!, /FAKE-PRIVATE-KEY/);
      assert.match(out[7]!, /docker-daemon/);
      assert.match(out[8]!, /ptrace 0/);
      assert.match(out[8]!, /victim-env-mark/);
      assert.match(out[9]!, /^exit code 0\n65534$/, 'outside, the setuid bit takes effect');
      assert.equal(livePids(['sleep', '86402']).length, 1, 'outside, the daemon outlives the command');
    } finally {
      for (const pid of livePids(['sleep', '86402'])) process.kill(pid, 'SIGKILL');
    }
  });

  it('--permission-mode read-only: commands run sandboxed without asking, writes and edits are refused, leaving is asked (refused without a terminal, the model told)', async () => {
    ws = path.join(root, 'ws-read-only');
    mkdirSync(ws);
    const writeFile: FakeTurn = { toolCalls: [{ name: 'write_file', arguments: JSON.stringify({ path: 'edit.txt', content: 'x' }) }] };
    const leave: FakeTurn = { toolCalls: [{ name: 'run_command', arguments: JSON.stringify({ command: 'echo x > out.txt', outside_sandbox: true, reason: 'the file must be written' }) }] };
    const fake = await startFakeOpenAI([runCommand('echo x > inside.txt'), runCommand('echo listed'), writeFile, leave, finish]);
    try {
      const r = await runCliProcess(['run', 'Try.', '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url, '--no-plan', '--json', '--permission-mode', 'read-only'], {
        HOME: home, STEPWISE_HOME: path.join(root, 'state-read-only'),
      });
      assert.equal(r.code, 0, r.stderr);
      const all = r.events.filter((e): e is AgentEventOf<'tool_result'> => e.type === 'tool_result').map((e) => e.content);
      assert.match(all[0]!, /\[sandbox read-only\] blocked by the sandbox: write \(the sandbox is read-only\)/);
      assert.match(all[1]!, /^exit code 0\nlisted$/, 'run without asking (no terminal here, yet it ran)');
      assert.match(all[2]!, /read-only mode/);
      assert.match(all[3]!, /No terminal to ask.*outside the sandbox \(read-only\): the file must be written/s);
      for (const f of ['inside.txt', 'edit.txt', 'out.txt']) assert.equal(existsSync(path.join(ws, f)), false, f);
    } finally {
      await fake.close();
    }
  });

  it('a sandbox that cannot run here stops the CLI with the reason (commands never run unconfined)', async () => {
    ws = path.join(root, 'ws-missing');
    mkdirSync(ws);
    const r = await runCliProcess(['run', 'Try.', '--workspace', ws, '--model', 'fake-model', '--base-url', 'http://127.0.0.1:9', '--json', '--sandbox', 'workspace-write'], {
      HOME: home, STEPWISE_HOME: path.join(root, 'state-missing'), PATH: path.join(root, 'no-bin'),
    });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--sandbox workspace-write: bubblewrap \(bwrap\) is not installed/);
  });
});
