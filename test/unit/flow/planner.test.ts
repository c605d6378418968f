import assert from 'node:assert/strict';
import { runTask } from '../../../src/agent/flow/runTask';
import { call, finish, flowModel, type FlowScript, harness, requestsOf, requestText, toolNames } from './flowHarness';

const GOOD_PLAN = {
  goal: 'Tidy the config',
  thought: 'Read it, then fix it.',
  steps: [
    { title: 'Read the config', description: 'Read config.json.', role: 'researcher' },
    { title: 'Fix the config', description: 'Sort the keys of config.json.', role: 'coder' },
  ],
};

function rest(): FlowScript {
  return {
    'step:Read the config': [finish('config.json has 2 unsorted keys.')],
    'step:Fix the config': [call('write_file', { path: 'config.json', content: '{"a":1,"b":2}\n' }), finish('Sorted the keys.')],
    updater: () => call('keep_plan', {}),
    report: [call('write_report', { summary: 'Sorted config.json.', findings: [], verification: '', left: [] })],
  };
}

describe('planning flow: the planner', () => {
  it('sends invalid JSON back to the model and runs the corrected plan', async () => {
    const model = flowModel({
      planner: [
        { toolCalls: [{ name: 'create_plan', arguments: '{"goal": "Tidy", "steps": [' }] },
        call('create_plan', GOOD_PLAN),
      ],
      ...rest(),
    });
    const h = harness(model, { task: 'Tidy config.json', planMode: 'always', files: { 'config.json': '{"b":2,"a":1}\n' } });
    const result = await runTask(h.options);

    assert.equal(result.outcome, 'finished', result.reason);
    assert.equal(result.route, 'plan');
    const [first, second] = requestsOf(model, 'planner');
    assert.equal(requestsOf(model, 'planner').length, 2);
    assert.equal(first!.messages.length, 2);
    const feedback = second!.messages.at(-1)!;
    assert.equal(feedback.role, 'tool');
    assert.match(feedback.content, /The arguments of `create_plan` are not valid JSON/);
    assert.equal(h.of('plan_created')[0]!.steps.length, 2);
    assert.equal(h.workspace.text('config.json'), '{"a":1,"b":2}\n');
  });

  it('sends schema errors back too, and accepts a plan written as JSON text', async () => {
    const model = flowModel({
      planner: [
        call('create_plan', { goal: 'Tidy the config', thought: '', steps: [{ title: 'Read', description: 'x', role: 'designer' }] }),
        { text: 'Here is the plan:\n```json\n' + JSON.stringify(GOOD_PLAN) + '\n```' },
      ],
      ...rest(),
    });
    const h = harness(model, { task: 'Tidy config.json', planMode: 'always', files: { 'config.json': '{}' } });
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'finished', result.reason);
    const feedback = requestsOf(model, 'planner')[1]!.messages.at(-1)!;
    assert.match(feedback.content, /Invalid arguments for `create_plan`: `steps.0.role`/);
    assert.deepEqual(result.plan?.steps.map((s) => s.title), ['Read the config', 'Fix the config']);
  });

  it('falls back to a single agent after three invalid plans, and says so', async () => {
    const model = flowModel({
      planner: [{ text: 'Plan: first read, then fix.' }, call('create_plan', '{not json'), call('create_plan', { goal: 'x', steps: [] })],
      direct: [finish('Sorted config.json directly.')],
    });
    const h = harness(model, { task: 'Tidy config.json', planMode: 'always' });
    const result = await runTask(h.options);

    assert.equal(requestsOf(model, 'planner').length, 3);
    assert.equal(result.route, 'direct');
    assert.equal(result.outcome, 'finished');
    assert.equal(result.summary, 'Sorted config.json directly.');
    const notices = h.of('notice').filter((n) => /single agent/.test(n.message));
    assert.equal(notices.length, 1);
    assert.match(notices[0]!.message, /^Planning failed after 3 attempts \(Invalid arguments for `create_plan`.*\); running the task as a single agent instead\.$/);
    assert.equal(notices[0]!.level, 'warning');
    assert.deepEqual(h.of('plan_created'), []);
    assert.equal(requestsOf(model, 'direct').length, 1);
  });

  it('cuts a plan longer than maxPlanSteps and says so', async () => {
    const steps = ['A', 'B', 'C', 'D'].map((t) => ({ title: t, description: `Do ${t}.`, role: 'researcher' }));
    const model = flowModel({
      planner: [call('create_plan', { goal: 'Letters', thought: '', steps })],
      'step:A': [finish('A done.')],
      'step:B': [finish('B done.')],
      updater: () => call('keep_plan', {}),
      report: [call('write_report', { summary: 'Done.', findings: [], verification: '', left: [] })],
    });
    const h = harness(model, { task: 'Do the letters', planMode: 'always', limits: { maxPlanSteps: 2 } });
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'finished');
    assert.deepEqual(h.of('plan_created')[0]!.steps.map((s) => s.title), ['A', 'B']);
    assert.ok(h.of('notice').some((n) => n.message === 'The plan had 4 steps; kept the first 2 (the step limit).'));
    assert.match(requestsOf(model, 'planner')[0]!.messages[0]!.content, /at most 2\./);
  });

  it('looks first with read-only tools and gives the planner what it found', async () => {
    const model = flowModel({
      lookFirst: [call('list_files', { path: '.' }), finish('The config lives in config.json; there are no tests.')],
      planner: [call('create_plan', GOOD_PLAN)],
      ...rest(),
    });
    const h = harness(model, { task: 'Tidy config.json', planMode: 'always', lookFirst: true, files: { 'config.json': '{}' } });
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'finished', result.reason);
    const look = requestsOf(model, 'lookFirst');
    assert.equal(look.length, 2);
    assert.deepEqual(toolNames(look[0]!), ['finish', 'list_files', 'read_file', 'read_output', 'search_files']);
    assert.match(requestText(requestsOf(model, 'planner')[0]!), /What a first look at the workspace found\nThe config lives in config\.json; there are no tests\./);
    assert.equal(result.state?.research, 'The config lives in config.json; there are no tests.');
  });

  it('uses the reasoning tier for planning and updating, basic for routing and the report', async () => {
    const basic = flowModel({
      coordinator: [call('route', { mode: 'plan', reason: 'two parts' })],
      report: [call('write_report', { summary: 'Sorted.', findings: [], verification: '', left: [] })],
      'step:Read the config': [finish('Read it.')],
    }, 'basic');
    const reasoning = flowModel({ planner: [call('create_plan', GOOD_PLAN)], updater: () => call('keep_plan', {}) }, 'reasoning');
    const fallback = flowModel({ 'step:Fix the config': [finish('Fixed.')] }, 'default');
    const h = harness(fallback, { task: 'Tidy config.json', files: { 'config.json': '{}' } });
    h.options.models = { default: fallback, basic, reasoning };
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'finished', result.reason);
    assert.equal(requestsOf(reasoning, 'planner').length, 1);
    assert.equal(requestsOf(reasoning, 'updater').length, 2);
    assert.equal(reasoning.calls, 3);
    assert.deepEqual(
      [requestsOf(basic, 'coordinator').length, requestsOf(basic, 'report').length, requestsOf(basic, 'step:Read the config').length],
      [1, 1, 1],
    );
    assert.equal(basic.calls, 3);
    assert.equal(fallback.calls, 1, 'the coder runs on the default model');
  });
});
