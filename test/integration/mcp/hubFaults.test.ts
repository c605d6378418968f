import assert from 'node:assert/strict';
import { startEverythingHttp } from './httpServers';
import { callTool, directContext, EVERYTHING_SCRIPT, everythingStdio, livePidsWith, makeHub, ofType, processGone, runScripted, stdioServer, unframed } from './mcpKit';

const approveAll = () => ({ approved: true as const });
const fastRestarts = { initialDelayMs: 100, maxDelayMs: 400, maxAttempts: 3 };

describe('MCP hub: crashes, restarts and broken servers', function () {
  this.timeout(60_000);
  const hubs: ReturnType<typeof makeHub>[] = [];
  const hubWith = (options: Parameters<typeof makeHub>[0]) => {
    const kit = makeHub(options);
    hubs.push(kit);
    return kit;
  };

  afterEach(async () => {
    const pids = hubs.flatMap((kit) => kit.hub.states().flatMap((s) => (s.pid !== undefined ? [s.pid] : [])));
    await Promise.all(hubs.splice(0).map((kit) => kit.hub.dispose()));
    for (const pid of pids) assert.ok(processGone(pid), `process ${pid} survived dispose`);
  });

  it('a server killed mid-call: the call fails clearly, the run finishes, the server restarts with its tools', async () => {
    const kit = hubWith({ restartPolicy: fastRestarts });
    await kit.hub.configure([everythingStdio()]);
    const firstPid = kit.hub.state('everything')!.pid!;
    let killed = false;
    const { result, events } = await runScripted(
      kit.registry,
      [
        { toolCalls: [{ name: 'everything__trigger-long-running-operation', arguments: { duration: 30, steps: 30 } }] },
        { text: 'The server died; I will continue without it.' },
      ],
      {
        decide: approveAll,
        onEvent: (event) => {
          if (event.type === 'tool_output' && !killed) {
            killed = true;
            process.kill(firstPid, 'SIGKILL');
          }
        },
      },
    );
    assert.ok(killed);
    assert.equal(result.outcome, 'finished');
    assert.equal(result.summary, 'The server died; I will continue without it.');
    const [failed] = ofType(events, 'tool_result');
    assert.equal(failed?.isError, true);
    assert.match(
      failed?.content ?? '',
      /^MCP server "everything" exited during the call to "trigger-long-running-operation" \(the server process exited.*\)\. The call did not complete\. It is being restarted; its tools return when it is back\.$/,
    );

    const errorState = kit.states.find((s) => s.status === 'error');
    assert.match(errorState?.lastError ?? '', /^the server process exited/);
    assert.deepEqual(errorState?.tools, []);
    await kit.waitFor(() => kit.hub.state('everything')?.status === 'connected' && kit.hub.state('everything')?.pid !== firstPid, 'restart');
    const statuses = kit.states.map((s) => s.status);
    assert.deepEqual(statuses.slice(statuses.indexOf('error')), ['error', 'restarting', 'connecting', 'connected', ...statuses.slice(statuses.indexOf('error') + 4)]);
    assert.ok(processGone(firstPid));
    const echo = await callTool(kit.registry, 'everything__echo', { message: 'back' }, directContext({ decide: approveAll }).context);
    assert.equal(unframed(echo.content), 'Echo: back');
  });

  it('an HTTP server that goes away: the call fails clearly and the hub reconnects once it is back', async () => {
    let server = await startEverythingHttp('streamableHttp');
    const port = Number(new URL(server.origin).port);
    try {
      const kit = hubWith({ restartPolicy: { initialDelayMs: 200, maxDelayMs: 1000, maxAttempts: 10 } });
      await kit.hub.configure([{ name: 'remote', source: 'test', enabled: true, autoApprove: true, kind: 'http', url: `${server.origin}/mcp`, headers: {}, transport: 'streamable-http' }]);
      assert.equal(kit.hub.state('remote')?.status, 'connected');
      await server.stop();
      const failed = await callTool(kit.registry, 'remote__echo', { message: 'anyone?' }, directContext().context);
      assert.equal(failed.isError, true);
      assert.match(failed.content, /^Lost the connection to MCP server "remote" during the call to "echo" \(.+\)\. Reconnecting; its tools return when it is back\.$/);
      assert.equal(kit.registry.get('remote__echo'), undefined);
      server = await startEverythingHttp('streamableHttp', port);
      await kit.waitFor(() => kit.hub.state('remote')?.status === 'connected', 'reconnect');
      const echo = await callTool(kit.registry, 'remote__echo', { message: 'back' }, directContext().context);
      assert.equal(unframed(echo.content), 'Echo: back');
    } finally {
      await server.stop();
    }
  });

  it('a server that crashes at startup is reported with its stderr, retried with backoff, then left in error; others still load', async () => {
    const kit = hubWith({ restartPolicy: fastRestarts });
    const crashing = stdioServer('crashing', ['-e', "console.error('boom: API_KEY is missing'); process.exit(3)"]);
    await kit.hub.configure([crashing, everythingStdio()]);
    assert.equal(kit.hub.state('everything')?.status, 'connected');
    await kit.waitFor(() => kit.hub.state('crashing')?.status === 'error' && kit.hub.state('crashing')?.restartAttempts === 3, 'attempts exhausted');
    const crashStates = kit.states.filter((s) => s.name === 'crashing');
    assert.deepEqual(
      crashStates.filter((s) => s.status === 'restarting').map((s) => s.restartAttempts),
      [1, 2, 3],
    );
    assert.match(kit.hub.state('crashing')?.lastError ?? '', /boom: API_KEY is missing/);
    assert.deepEqual(kit.hub.state('crashing')?.tools, []);
    assert.ok(kit.registry.names().some((n) => n.startsWith('everything__')));
    assert.ok(!kit.registry.names().some((n) => n.startsWith('crashing__')));
  });

  it('a command that does not exist is reported as a spawn error', async () => {
    const kit = hubWith({ restartPolicy: { maxAttempts: 0 } });
    await kit.hub.configure([stdioServer('ghost', [], { command: 'stepwise-no-such-command-xyz' })]);
    const state = kit.hub.state('ghost');
    assert.equal(state?.status, 'error');
    assert.match(state?.lastError ?? '', /could not connect: .*ENOENT/);
  });

  it('restarts a server on demand with a new process, and keeps disabled servers idle', async () => {
    const kit = hubWith({});
    await kit.hub.configure([everythingStdio(), everythingStdio('off', { enabled: false })]);
    assert.equal(kit.hub.state('off')?.status, 'disabled');
    assert.equal(kit.hub.state('off')?.pid, undefined);
    const before = kit.hub.state('everything')!.pid!;
    await kit.hub.restart('everything');
    const state = kit.hub.state('everything')!;
    assert.equal(state.status, 'connected');
    assert.notEqual(state.pid, before);
    assert.ok(processGone(before));
    assert.ok(state.tools.includes('everything__echo'));
    await kit.hub.restart('off');
    assert.equal(kit.hub.state('off')?.status, 'connected');
    assert.ok(kit.registry.get('off__echo'));
    await assert.rejects(kit.hub.restart('nobody'), /No MCP server named "nobody"/);
  });

  it('dispose during startup leaves no process behind and rejects later configuration', async () => {
    const kit = hubWith({});
    const marker = `stepwise-marker-${process.pid}-${Date.now()}`;
    const configuring = kit.hub.configure([stdioServer('late', [EVERYTHING_SCRIPT, 'stdio', marker])]);
    while (livePidsWith(marker).length === 0) await new Promise((r) => setTimeout(r, 5));
    assert.equal(kit.hub.state('late')?.status, 'connecting');
    await kit.hub.dispose();
    await configuring;
    assert.deepEqual(livePidsWith(marker), []);
    assert.deepEqual(kit.registry.names(), []);
    await assert.rejects(kit.hub.configure([everythingStdio()]), /McpHub is disposed/);
  });

  it('reconfigures: a removed server leaves with its tools, an unchanged one keeps its process', async () => {
    const kit = hubWith({});
    await kit.hub.configure([everythingStdio('a'), everythingStdio('b')]);
    const pidA = kit.hub.state('a')!.pid!;
    const pidB = kit.hub.state('b')!.pid!;
    await kit.hub.configure([everythingStdio('a'), everythingStdio('c')]);
    assert.equal(kit.hub.state('a')?.pid, pidA);
    assert.equal(kit.hub.state('b'), undefined);
    assert.ok(processGone(pidB));
    assert.ok(!kit.registry.names().some((n) => n.startsWith('b__')));
    assert.ok(kit.registry.get('c__echo'));
    await kit.hub.configure([everythingStdio('a', { autoApprove: true })]);
    assert.notEqual(kit.hub.state('a')?.pid, pidA, 'a changed entry restarts the server');
  });
});
