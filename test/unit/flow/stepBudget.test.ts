import assert from 'node:assert/strict';
import { runTask } from '../../../src/agent/flow/runTask';
import { parseEstimate, stepTokenBudget } from '../../../src/agent/flow/stepBudget';
import { TaskBudget } from '../../../src/agent/flow/taskBudget';
import type { ModelRequest } from '../../../src/agent/model/types';
import { call, finish, flowModel, type FlowScript, harness, requestsOf, requestText } from './flowHarness';

const usage = (totalTokens: number) => ({ promptTokens: totalTokens - 10, completionTokens: 10, totalTokens });
const NOTE = 'Note from Stepwise: this step has used about 80% of its token budget';

function plan(estimate?: unknown) {
  return {
    goal: 'Describe the project',
    thought: 'Survey it, then write notes.',
    steps: [
      { title: 'Survey', description: 'List the files and say what each is for.', role: 'researcher', ...(estimate === undefined ? {} : { estimate }) },
      { title: 'Write notes', description: 'Write NOTES.md from the survey.', role: 'reporter' },
    ],
  };
}

const NOTES: FlowScript = {
  'step:Write notes': [call('write_file', { path: 'NOTES.md', content: 'Notes.\n' }), finish('Wrote NOTES.md.')],
  report: [call('write_report', { summary: 'Described the project.', findings: [], verification: '', left: [] })],
};

/** How many times the wrap-up note reached the model (counted once per tool message it is in). */
function notesSeen(requests: ModelRequest[]): number {
  const last = requests.at(-1);
  return last ? last.messages.filter((m) => m.role === 'tool' && m.content.includes(NOTE)).length : 0;
}

describe('planning flow: per-step token budgets', () => {
  const rows: { value: unknown; tokens: number | undefined }[] = [
    { value: 'small', tokens: 40_000 },
    { value: ' Medium ', tokens: 120_000 },
    { value: 'LARGE', tokens: 300_000 },
    { value: 50_000, tokens: 50_000 },
    { value: '25000', tokens: 25_000 },
    { value: 1234.6, tokens: 1235 },
    { value: undefined, tokens: undefined },
    { value: null, tokens: undefined },
    { value: 'huge', tokens: undefined },
    { value: '', tokens: undefined },
    { value: 3, tokens: undefined },
    { value: -50_000, tokens: undefined },
    { value: Number.NaN, tokens: undefined },
    { value: Number.POSITIVE_INFINITY, tokens: undefined },
    { value: { tokens: 5000 }, tokens: undefined },
    { value: ['small'], tokens: undefined },
    { value: 'toString', tokens: undefined },
  ];
  for (const row of rows) {
    const shown = typeof row.value === 'number' ? String(row.value) : (JSON.stringify(row.value) ?? 'undefined');
    it(`reads the estimate ${shown} as ${row.tokens ?? 'no budget'}`, () => {
      assert.equal(parseEstimate(row.value), row.tokens);
    });
  }

  it('caps a step budget by what remains of the task budget', () => {
    const task = new TaskBudget(20_000);
    task.add({ promptTokens: 15_000, completionTokens: 0, totalTokens: 15_000, cachedTokens: 10_000 });
    // 5,000 uncached + 0.1 x 10,000 cached = 6,000 effective tokens spent; 14,000 left.
    assert.equal(stepTokenBudget(50_000, task), 14_000);
    assert.equal(stepTokenBudget(8_000, task), 8_000);
    assert.equal(stepTokenBudget(undefined, task), undefined);
    assert.equal(stepTokenBudget(8_000, new TaskBudget(undefined)), 8_000);
  });

  it('keeps planning whatever the estimates are: usable ones become budgets, the rest are dropped', async () => {
    const estimates: unknown[] = ['small', 'enormous', 7, { n: 1 }];
    const draft = {
      goal: 'Describe the project',
      thought: 'Four looks.',
      steps: estimates.map((estimate, i) => ({ title: `Look ${i + 1}`, description: `Look at part ${i + 1}.`, role: 'researcher', estimate })),
    };
    const model = flowModel({
      planner: [call('create_plan', draft)],
      'step:Look 1': [finish('Part 1 read.')],
      'step:Look 2': [finish('Part 2 read.')],
      'step:Look 3': [finish('Part 3 read.')],
      'step:Look 4': [finish('Part 4 read.')],
      updater: () => call('keep_plan', {}),
      report: NOTES.report,
    });
    const h = harness(model, { task: 'Describe the project', planMode: 'always' });
    const result = await runTask(h.options);
    assert.equal(requestsOf(model, 'planner').length, 1, 'no estimate makes the planner retry');
    assert.deepEqual(h.of('plan_created')[0]!.steps.map((s) => s.title), ['Look 1', 'Look 2', 'Look 3', 'Look 4']);
    assert.deepEqual(result.plan?.steps.map((s) => s.estimate), [40_000, undefined, undefined, undefined]);
    assert.match(requestText(requestsOf(model, 'planner')[0]!), /`estimate` of its size: small, medium or large/);
  });

  it('tells the agent once, at 80% of its step budget, to wrap up; the step still completes', async () => {
    const model = flowModel({
      planner: [call('create_plan', plan(10_000))],
      // 3,000 effective tokens a call: 30%, 60%, 90% (the note is due), then more calls after it.
      'step:Survey': [
        call('list_files', { path: '.' }, usage(3000)),
        call('list_files', { path: '.' }, usage(3000)),
        call('list_files', { path: '.' }, usage(3000)),
        call('read_file', { path: 'a.ts' }, usage(300)),
        finish('a.ts is the entry point.', usage(300)),
      ],
      updater: () => call('keep_plan', {}),
      ...NOTES,
    });
    const h = harness(model, { task: 'Describe the project', planMode: 'always', files: { 'a.ts': 'export {};\n' } });
    const result = await runTask(h.options);

    assert.equal(result.outcome, 'finished', result.reason);
    const survey = requestsOf(model, 'step:Survey');
    assert.deepEqual(survey.map((r) => notesSeen([r])), [0, 0, 0, 1, 1], 'the note arrives with the third call\'s result, once');
    assert.equal(h.of('step_finished')[0]!.status, 'completed');
    const wrapUps = h.of('notice').filter((n) => /asked to wrap up/.test(n.message));
    assert.deepEqual(wrapUps.map((n) => [n.level, n.message]), [['info', 'The step used 9000 of its 10000 tokens; the agent was asked to wrap up.']]);
    assert.equal(notesSeen(requestsOf(model, 'step:Write notes')), 0, 'a step without an estimate gets no note');
  });

  it('ends a step past its budget as failed (not completed) and lets the updater split the work it left', async () => {
    const model = flowModel({
      planner: [call('create_plan', plan('12000'))],
      // 5,000 a call: 5,000, 10,000 (wrap-up note), 15,000 (over): the third call ends the step.
      'step:Survey': [
        call('list_files', { path: '.' }, usage(5000)),
        call('list_files', { path: '.' }, usage(5000)),
        call('list_files', { path: '.' }, usage(5000)),
        finish('never reached'),
      ],
      'step:Survey src': [finish('src/ holds the code.')],
      'step:Survey test': [finish('test/ holds the tests.')],
      updater: (request) => {
        if (!/failed/.test(request.messages.at(-1)!.content)) return call('keep_plan', {});
        return call('split_step', {
          reason: 'the survey was too big for one step',
          steps: [
            { title: 'Survey src', description: 'List src/ and say what each file is for.', role: 'researcher', estimate: 'small' },
            { title: 'Survey test', description: 'List test/ and say what each file is for.', role: 'researcher', estimate: 'gigantic' },
          ],
        });
      },
      ...NOTES,
    });
    const h = harness(model, { task: 'Describe the project', planMode: 'always' });
    const result = await runTask(h.options);

    assert.equal(result.outcome, 'finished', result.reason);
    assert.equal(requestsOf(model, 'step:Survey').length, 3, 'no call after the budget ran out');
    const finished = h.of('step_finished');
    assert.deepEqual(finished.map((e) => [e.stepId, e.status]), [['1', 'failed'], ['3', 'completed'], ['4', 'completed'], ['2', 'completed']]);
    assert.match(finished[0]!.summary, /^Failed: step budget reached: the step used 15000 of its 12000 tokens before finishing\./);
    const stopped = h.of('notice').filter((n) => n.code === 'step_limit');
    assert.deepEqual(stopped.map((n) => n.level), ['warning']);
    assert.match(stopped[0]!.message, /^Stopped the step: step budget reached/);
    // The call the stop caught is answered with the stop's words, never "cancelled by the user".
    const caught = h.of('tool_result').filter((r) => r.name === 'list_files')[2]!;
    assert.match(caught.content, /^stopped: step budget reached: the step used 15000 of its 12000 tokens/);
    assert.equal(caught.stopped, true);

    const failure = requestsOf(model, 'updater').find((r) => /failed/.test(r.messages.at(-1)!.content))!;
    assert.deepEqual(failure.tools.map((t) => t.name), ['retry_step', 'skip_step', 'stop_task', 'split_step']);
    assert.match(requestText(failure), /What happened: Failed: step budget reached/);
    const split = h.of('plan_updated').find((e) => e.reason.includes('split'))!;
    assert.equal(split.reason, 'plan updated: split "Survey" (step budget reached): the survey was too big for one step');
    assert.deepEqual(
      result.plan?.steps.map((s) => [s.id, s.title, s.status, s.estimate]),
      [
        ['1', 'Survey', 'skipped', 12_000],
        ['3', 'Survey src', 'completed', 40_000],
        ['4', 'Survey test', 'completed', undefined],
        ['2', 'Write notes', 'completed', undefined],
      ],
    );
    assert.equal(result.state?.replans, 1);
  });

  it('keeps a step\'s budget through a plan review whose view does not carry estimates', async () => {
    const model = flowModel({
      planner: [call('create_plan', plan('large'))],
      'step:Survey': [finish('Nothing much here.')],
      updater: () => call('keep_plan', {}),
      ...NOTES,
    });
    const h = harness(model, {
      task: 'Describe the project',
      planMode: 'always',
      review: 'ask',
      // The view sends back the steps as it shows them, without `estimate`.
      reviewPlan: async (shown) => ({ ...shown, steps: shown.steps.map(({ estimate: _dropped, ...step }) => step) }),
    });
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'finished', result.reason);
    assert.deepEqual(result.plan?.steps.map((s) => s.estimate), [300_000, undefined]);
  });

  it('runs a step without an estimate as before: no note, no step stop, however much it uses', async () => {
    const model = flowModel({
      planner: [call('create_plan', plan())],
      'step:Survey': [
        call('list_files', { path: '.' }, usage(50_000)),
        call('list_files', { path: '.' }, usage(50_000)),
        call('list_files', { path: '.' }, usage(50_000)),
        finish('Nothing much here.', usage(50_000)),
      ],
      updater: () => call('keep_plan', {}),
      ...NOTES,
    });
    const h = harness(model, { task: 'Describe the project', planMode: 'always' });
    const result = await runTask(h.options);

    assert.equal(result.outcome, 'finished', result.reason);
    assert.equal(h.of('step_finished')[0]!.status, 'completed');
    assert.equal(notesSeen(requestsOf(model, 'step:Survey')), 0);
    assert.deepEqual(h.of('notice').filter((n) => n.code === 'step_limit' || /wrap up/.test(n.message)), []);
    assert.equal(result.plan?.steps[0]!.estimate, undefined);
  });
});
