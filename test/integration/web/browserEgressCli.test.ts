import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeOpenAI, type FakeOpenAIServer, type RecordedRequest } from '../../support/fakeOpenAIServer';
import { ATTACKS, startAttackerSite, type AttackerSite } from '../../support/attackerSite';
import { commandLine, descendants, eventually, isRunning } from '../../support/processes';
import { startCli } from '../cli/cliProcess';
import { call, flowScript, requestText } from '../flow/flowFake';

// The built CLI with a fake model that drives the browser through every attack of the attacker
// site (127.0.0.2, allowed with --web-allow-host) against a loopback victim (127.0.0.1, not
// allowed) holding a secret: no byte of the secret reaches any model request or the CLI's output,
// the victim is never reached, and the browser ends with the task.

describe('stepwise run (CLI): the browser cannot carry a loopback secret to the model', function () {
  this.timeout(180_000);
  let ws: string;
  let site: AttackerSite;
  let fake: FakeOpenAIServer | undefined;
  const pids: number[] = [];

  before(async () => {
    site = await startAttackerSite();
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-egress-'));
  });
  after(async () => {
    for (const pid of pids) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    await fake?.close();
    await site.close();
    await rm(ws, { recursive: true, force: true });
  });

  /** The last tool result the model was shown. */
  const lastToolResult = (request: RecordedRequest) => String((request.body?.messages ?? []).filter((m) => m.role === 'tool').at(-1)?.content ?? '');

  it('redirect chains, frames, fetch/XHR, WebSockets, workers and a meta refresh: the secret never reaches a model request; the browser ends with the task', async () => {
    const steps = [
      call('browser', { action: 'navigate', url: `${site.url}${ATTACKS.chain}` }),
      call('browser', { action: 'navigate', url: `${site.url}${ATTACKS.frames}` }),
      call('browser', { action: 'navigate', url: `${site.url}${ATTACKS.scripts}` }),
      call('browser', { action: 'wait_for', text: 'all attempts done' }),
      call('browser', { action: 'snapshot' }),
      call('browser', { action: 'navigate', url: `${site.url}${ATTACKS.metaRefresh}` }),
    ];
    let cliPid = 0;
    const browsers: number[] = [];
    const victimPage = `${site.victimUrl}/secret`;
    fake = await startFakeOpenAI(
      flowScript({
        direct: (request, turn) => {
          if (turn === 1) browsers.push(...descendants(cliPid).filter((pid) => /chrom/i.test(commandLine(pid))));
          if (turn < steps.length) return steps[turn]!;
          // After the meta refresh: wait on the page until it has moved (bounded), then answer. The
          // timeouts differ so the loop's repeat detection does not stop the task first.
          const moved = lastToolResult(request).includes(victimPage);
          if (moved || turn > 20) return { text: 'I could not read anything useful from that site.' };
          return call('browser', { action: 'wait_for', text: 'Never shown', timeout_ms: 500 + turn * 100 });
        },
      }),
    );
    const cli = startCli(
      ['run', 'Read the helpful web page on the local site', '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url, '--json', '--no-plan', '--auto-approve', 'read,web', '--web-allow-host', '127.0.0.2'],
      { STEPWISE_HOME: path.join(ws, '.home') },
    );
    cliPid = cli.child.pid!;
    pids.push(cliPid);
    const r = await cli.done;
    assert.equal(r.code, 0, `${r.stderr}\n${r.stdout.slice(-3000)}`);

    const requests = fake.chatRequests();
    assert.ok(requests.length > steps.length, 'every attack ran');
    for (const request of requests) assert.ok(!request.rawBody.includes(site.secret), `the secret reached the model: ${requestText(request)}`);
    assert.ok(!r.stdout.includes(site.secret) && !r.stderr.includes(site.secret), 'the secret is not in the CLI output');
    assert.deepEqual(site.victimHits, [], 'the victim was never reached');
    // The model was told what was refused, at the hop and after the page moved itself.
    const told = requests.map(lastToolResult);
    assert.ok(told.some((t) => t.includes(`Refused: ${victimPage}`)), told.join('\n---\n'));
    assert.ok(lastToolResult(requests.at(-1)!).includes(victimPage), 'the meta refresh was reported at its final URL');
    assert.match(told.find((t) => t.includes('all attempts done')) ?? '', /websocket: (failed|no answer)/);

    assert.ok(browsers.length > 0, 'the CLI ran a browser');
    pids.push(...browsers);
    assert.ok(await eventually(() => !browsers.some(isRunning), 10_000), 'every browser process ended with the task');
  });
});
