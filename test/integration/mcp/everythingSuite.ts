import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { isCancellation } from '../../../src/agent/errors';
import { createModelSamplingHandler, type McpServerConfig, type SamplingRequest } from '../../../src/mcp';
import { ScriptedModel } from '../../support/scriptedModel';
import { callTool, directContext, makeHub, ofType, processGone, runScripted, tempDir, unframed } from './mcpKit';

const approveAll = () => ({ approved: true as const });

/**
 * The behaviour every transport must show with server-everything: tools listed and namespaced,
 * calls through the agent loop, progress, cancellation, sampling and capability-gated tools.
 * `start` brings the server up (or returns a stdio entry) and says how to stop it.
 */
export function everythingSuite(
  label: string,
  expectedTransport: 'stdio' | 'streamable-http' | 'sse',
  start: () => Promise<{ config: McpServerConfig; stop: () => Promise<void> }>,
): void {
  describe(`MCP hub with server-everything over ${label}`, function () {
    this.timeout(60_000);
    let kit: ReturnType<typeof makeHub>;
    let server: { config: McpServerConfig; stop: () => Promise<void> };
    let root: { path: string; remove: () => Promise<void> };
    const samplingRequests: SamplingRequest[] = [];
    let declineSampling = false;
    const samplingModel = new ScriptedModel(() => ({ text: 'Hi from the host model' }), 'host-model');

    before(async () => {
      root = await tempDir('stepwise-mcp-root-');
      server = await start();
      kit = makeHub({
        roots: [root.path],
        sampling: createModelSamplingHandler({
          model: samplingModel,
          approve: async (request) => {
            samplingRequests.push(request);
            return declineSampling ? { approved: false, reason: 'not now' } : { approved: true };
          },
        }),
        elicitation: async (request) => ({ action: 'accept', content: { name: `Ada for ${request.server}` } }),
      });
      await kit.hub.configure([server.config]);
      // Capability-gated tools are registered after `initialized` and announced by list_changed.
      await kit.waitFor(() => kit.registry.get('everything__trigger-sampling-request') !== undefined, 'capability-gated tools');
    });

    after(async () => {
      await kit?.hub.dispose();
      await server?.stop();
      await root?.remove();
    });

    it('connects and registers the tools as server__tool with the server schemas', () => {
      const state = kit.hub.state('everything');
      assert.equal(state?.status, 'connected');
      assert.equal(state?.transport, expectedTransport);
      const names = kit.registry.names();
      for (const tool of ['echo', 'get-sum', 'trigger-long-running-operation', 'get-tiny-image']) assert.ok(names.includes(`everything__${tool}`), tool);
      assert.deepEqual(
        [...(state?.tools ?? [])].sort(),
        names.filter((n) => n.startsWith('everything__')).sort(),
      );
      const spec = kit.registry.specs().find((s) => s.name === 'everything__get-sum');
      assert.deepEqual(spec?.parameters.required, ['a', 'b']);
      assert.equal((spec?.parameters.properties as Record<string, { type: string }>).a?.type, 'number');
      assert.equal(spec?.parameters.$schema, undefined);
      assert.match(spec?.description ?? '', /sum of two numbers/i);
    });

    it('offers the capability-gated tools (roots, sampling, elicitation) announced after initialization', () => {
      for (const tool of ['get-roots-list', 'trigger-sampling-request', 'trigger-elicitation-request']) {
        assert.ok(kit.registry.get(`everything__${tool}`), tool);
      }
    });

    it('runs echo and get-sum through the agent loop, asking approval for each', async () => {
      const { result, events, model, approvals } = await runScripted(kit.registry, [
        { toolCalls: [{ name: 'everything__echo', arguments: { message: 'hello mcp' } }, { name: 'everything__get-sum', arguments: { a: 2, b: 40 } }] },
        { text: 'The sum is 42.' },
      ]);
      assert.equal(result.outcome, 'finished');
      const results = ofType(events, 'tool_result');
      assert.deepEqual(
        results.map((r) => [r.name, r.isError, unframed(r.content)]),
        [
          ['everything__echo', false, 'Echo: hello mcp'],
          ['everything__get-sum', false, 'The sum of 2 and 40 is 42.'],
        ],
      );
      assert.deepEqual(approvals.map((a) => [a.category, a.tool]), [
        ['mcp', 'everything__echo'],
        ['mcp', 'everything__get-sum'],
      ]);
      assert.match(approvals[1]!.detail, /"a": 2/);
      assert.ok(model.requests[0]!.tools.some((tool) => tool.name === 'everything__echo'));
    });

    it('rejects arguments that do not match the schema before sending, naming the problem', async () => {
      const { events, approvals } = await runScripted(kit.registry, [
        { toolCalls: [{ name: 'everything__get-sum', arguments: { a: 'two', b: 40 } }] },
        { text: 'I could not add them.' },
      ]);
      const [result] = ofType(events, 'tool_result');
      assert.equal(result?.isError, true);
      assert.match(result?.content ?? '', /`a` must be number/);
      assert.equal(approvals.length, 0);
    });

    it('streams progress of a long-running operation as tool output', async () => {
      const { result, events } = await runScripted(
        kit.registry,
        [{ toolCalls: [{ name: 'everything__trigger-long-running-operation', arguments: { duration: 1, steps: 4 } }] }, { text: 'done' }],
        { decide: approveAll },
      );
      assert.equal(result.outcome, 'finished');
      const outputs = ofType(events, 'tool_output');
      assert.ok(outputs.length >= 2, `progress events: ${JSON.stringify(outputs)}`);
      const steps = outputs.map((o) => {
        const match = /^progress (\d+)\/4\n$/.exec(o.chunk);
        assert.ok(match, o.chunk);
        assert.equal(o.stream, 'stdout');
        return Number(match[1]);
      });
      assert.deepEqual(steps, [...steps].sort((a, b) => a - b));
      assert.match(ofType(events, 'tool_result')[0]?.content ?? '', /Long running operation completed/);
    });

    it('cancels a call in flight when the run is cancelled; the server stays usable', async () => {
      const controller = new AbortController();
      const { events, context } = directContext({ signal: controller.signal, decide: approveAll });
      const pending = callTool(kit.registry, 'everything__trigger-long-running-operation', { duration: 30, steps: 30 }, context);
      const outcome = pending.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      // Abort once the server has reported progress, so the call is truly in flight.
      while (!events.some((e) => e.type === 'tool_output')) await new Promise((r) => setTimeout(r, 20));
      controller.abort();
      const settled = await outcome;
      assert.ok('error' in settled && isCancellation(settled.error), `expected cancellation, got ${JSON.stringify(settled)}`);
      const after = await callTool(kit.registry, 'everything__echo', { message: 'still here' }, directContext({ decide: approveAll }).context);
      assert.equal(unframed(after.content), 'Echo: still here');
    });

    it('ends a run as cancelled when it is cancelled during an MCP call', async () => {
      const controller = new AbortController();
      const { result, events } = await runScripted(
        kit.registry,
        [{ toolCalls: [{ name: 'everything__trigger-long-running-operation', arguments: { duration: 30, steps: 30 } }] }],
        { decide: approveAll, signal: controller.signal, onEvent: (event) => event.type === 'tool_output' && controller.abort() },
      );
      assert.equal(result.outcome, 'cancelled');
      assert.deepEqual(ofType(events, 'tool_result').map((r) => [r.isError, r.content]), [[true, 'cancelled by the user']]);
    });

    it('answers a sampling request through the host model after approval', async () => {
      samplingRequests.length = 0;
      declineSampling = false;
      const { events } = await runScripted(
        kit.registry,
        [{ toolCalls: [{ name: 'everything__trigger-sampling-request', arguments: { prompt: 'Say hi' } }] }, { text: 'ok' }],
        { decide: approveAll },
      );
      const [result] = ofType(events, 'tool_result');
      assert.equal(result?.isError, false);
      assert.match(result?.content ?? '', /Hi from the host model/);
      assert.match(result?.content ?? '', /host-model/);
      assert.equal(samplingRequests.length, 1);
      assert.equal(samplingRequests[0]?.server, 'everything');
      assert.match(samplingRequests[0]?.messages[0]?.text ?? '', /Say hi/);
      const lastSampling = samplingModel.requests.at(-1)!;
      assert.equal(lastSampling.messages[0]?.role, 'system');
      assert.deepEqual(lastSampling.tools, []);
    });

    it('reports a declined sampling request as an error result', async () => {
      declineSampling = true;
      const calls = samplingModel.calls;
      try {
        const result = await callTool(kit.registry, 'everything__trigger-sampling-request', { prompt: 'Say hi' }, directContext({ decide: approveAll }).context);
        assert.equal(result.isError, true);
        assert.match(result.content, /rejected sampling request: not now/i);
        assert.equal(samplingModel.calls, calls);
      } finally {
        declineSampling = false;
      }
    });

    it('answers roots/list with the workspace folders as file:// URIs', async () => {
      const result = await callTool(kit.registry, 'everything__get-roots-list', {}, directContext({ decide: approveAll }).context);
      assert.ok(result.content.includes(pathToFileURL(root.path).href), result.content);
    });

    it('lists prompts and renders one with arguments', async () => {
      const prompts = await kit.hub.listPrompts();
      const args = prompts.find((p) => p.server === 'everything' && p.name === 'args-prompt');
      assert.deepEqual(args?.arguments.map((a) => [a.name, a.required]), [
        ['city', true],
        ['state', false],
      ]);
      const rendered = await kit.hub.getPrompt('everything', 'args-prompt', { city: 'Paris' });
      assert.deepEqual(rendered.messages, [{ role: 'user', text: "What's weather in Paris?" }]);
    });

    it('routes elicitation requests to the elicitation handler', async () => {
      const result = await callTool(kit.registry, 'everything__trigger-elicitation-request', {}, directContext({ decide: approveAll }).context);
      assert.equal(result.isError, undefined);
      assert.match(result.content, /Ada for everything/);
    });

    it('disposes: every MCP tool leaves the registry and the server is disabled', async () => {
      const pid = kit.hub.state('everything')?.pid;
      await kit.hub.dispose();
      assert.deepEqual(kit.registry.names(), []);
      assert.deepEqual(kit.hub.states(), []);
      assert.equal(kit.states.at(-1)?.status, 'disabled');
      if (expectedTransport === 'stdio') assert.ok(pid !== undefined && processGone(pid), `process ${pid} still running`);
    });
  });
}
