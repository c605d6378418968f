import assert from 'node:assert/strict';
import { runTask } from '../../../src/agent/flow/runTask';
import { call, finish, flowModel, harness, requestsOf } from './flowHarness';

describe('planning flow: simple requests', () => {
  it('answers a simple request with one agent and no plan', async () => {
    const model = flowModel({
      coordinator: [call('route', { mode: 'direct', reason: 'a question about one file' })],
      direct: [call('read_file', { path: 'README.md' }), finish('The project is called Demo.')],
    });
    const h = harness(model, { task: 'What is this project called?', files: { 'README.md': '# Demo\n' } });
    const result = await runTask(h.options);

    assert.equal(result.outcome, 'finished');
    assert.equal(result.route, 'direct');
    assert.equal(result.summary, 'The project is called Demo.');
    assert.equal(result.plan, undefined);
    assert.equal(result.reportPath, undefined);
    assert.deepEqual(h.of('plan_created'), []);
    assert.deepEqual(h.of('step_started'), []);
    assert.deepEqual(h.of('report'), []);
    assert.equal(h.of('run_started').length, 1);
    assert.deepEqual(h.of('run_finished'), [{ type: 'run_finished', outcome: 'finished', summary: 'The project is called Demo.', turns: 2, runningMs: 0, waitingMs: 0 }]);
    // One cheap routing call: the task, one tiny tool, a forced call.
    const [route] = requestsOf(model, 'coordinator');
    assert.equal(route!.toolChoice, 'required');
    assert.equal(route!.messages.at(-1)!.content, 'What is this project called?');
    assert.ok(route!.messages[0]!.content.length < 600);
    // The direct run is the plain agent: default prompt and every tool.
    assert.equal(requestsOf(model, 'direct')[0]!.tools.length, 9);
    assert.equal(model.calls, 3);
  });

  it('planMode never skips the coordinator; always plans without asking it', async () => {
    const direct = flowModel({ direct: [finish('Done.')] });
    const h1 = harness(direct, { task: 'Refactor everything and write a report', planMode: 'never' });
    const r1 = await runTask(h1.options);
    assert.equal(r1.route, 'direct');
    assert.equal(requestsOf(direct, 'coordinator').length, 0);

    const planned = flowModel({
      planner: [call('create_plan', { goal: 'Say hi', thought: 'one step', steps: [{ title: 'Greet', description: 'Say hi.', role: 'researcher' }] })],
      'step:Greet': [finish('Said hi.')],
      updater: [call('keep_plan', {})],
      report: [call('write_report', { summary: 'Said hi.', findings: [], verification: '', left: [] })],
    });
    const h2 = harness(planned, { task: 'hi', planMode: 'always' });
    const r2 = await runTask(h2.options);
    assert.equal(r2.route, 'plan');
    assert.equal(r2.outcome, 'finished');
    assert.equal(requestsOf(planned, 'coordinator').length, 0);
  });

  it('routes direct when the coordinator answer stays unusable', async () => {
    const model = flowModel({
      coordinator: [{ text: 'I think this is simple.' }, call('route', { mode: 'sideways' })],
      direct: [finish('Done.')],
    });
    const h = harness(model, { task: 'Rename foo to bar' });
    const result = await runTask(h.options);
    assert.equal(result.route, 'direct');
    assert.equal(result.outcome, 'finished');
    const retry = requestsOf(model, 'coordinator')[1]!;
    assert.match(retry.messages.at(-1)!.content, /No tool call and no JSON object/);
  });
});
