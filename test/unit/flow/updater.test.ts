import assert from 'node:assert/strict';
import { applyRemaining } from '../../../src/agent/flow/planUpdater';
import { runTask } from '../../../src/agent/flow/runTask';
import type { Plan } from '../../../src/shared/plan';
import { call, finish, flowModel, harness, requestsOf, requestText } from './flowHarness';

const PLAN = {
  goal: 'Make the build pass',
  thought: 'Find the error, fix it, confirm.',
  steps: [
    { title: 'Find the error', description: 'Run npm run build and read the error.', role: 'coder' },
    { title: 'Fix the import', description: 'Fix the broken import in src/index.ts with a sed command.', role: 'coder' },
    { title: 'Write notes', description: 'Write NOTES.md about the fix.', role: 'reporter' },
  ],
};

// The first draft claims a pass no check backs: the reporter is asked once to correct itself.
const REPORT = [
  call('write_report', { summary: 'The build passes.', findings: [], verification: 'npm run build', left: [] }),
  call('write_report', { summary: 'Fixed the import; no check ran after the last change.', findings: [], verification: '', left: [] }),
];

describe('planning flow: the plan updater', () => {
  it('re-plans a failed step: the updater retries it differently and the task finishes', async () => {
    const model = flowModel({
      planner: [call('create_plan', PLAN)],
      'step:Find the error': [call('run_command', { command: 'npm run build' }), finish("Build fails: cannot find module './util' in src/index.ts.")],
      // The first attempt never finishes: it hits the step's turn limit.
      'step:Fix the import': [call('read_file', { path: 'src/index.ts' }), call('read_file', { path: 'src/index.ts' })],
      'step:Fix the import with edit_file': [
        call('edit_file', { path: 'src/index.ts', edits: [{ search: "'./util'", replace: "'./utils'" }] }),
        finish("Changed the import to './utils'; npm run build passes."),
      ],
      'step:Write notes': [call('write_file', { path: 'NOTES.md', content: 'Fixed the import.\n' }), finish('Wrote NOTES.md.')],
      updater: (request) => {
        if (/failed/.test(request.messages.at(-1)!.content)) {
          return call('retry_step', {
            reason: 'the sed approach hit the turn limit; edit the file directly',
            title: 'Fix the import with edit_file',
            description: "Use edit_file to change './util' to './utils' in src/index.ts.",
          });
        }
        return call('keep_plan', {});
      },
      report: REPORT,
    });
    const h = harness(model, {
      task: 'Make npm run build pass',
      planMode: 'always',
      limits: { maxTurnsPerStep: 2 },
      files: { 'src/index.ts': "import { x } from './util';\n", 'src/utils.ts': 'export const x = 1;\n' },
      commands: [{ match: 'npm run build', output: [{ stream: 'stderr', chunk: "Cannot find module './util'\n" }], exitCode: 1 }],
    });
    const result = await runTask(h.options);

    assert.equal(result.outcome, 'finished', result.reason);
    const finished = h.of('step_finished');
    assert.deepEqual(finished.map((e) => [e.stepId, e.status]), [['1', 'completed'], ['2', 'failed'], ['2', 'completed'], ['3', 'completed']]);
    assert.match(finished[1]!.summary, /^Failed \(step_limit\)/);
    // The updater saw why the step failed, and its decision is shown with its reason.
    const failureRequest = requestsOf(model, 'updater').find((r) => /failed/.test(r.messages.at(-1)!.content))!;
    assert.match(requestText(failureRequest), /Step 2 "Fix the import" failed\n.*\nWhat happened: Failed \(step_limit\)/);
    assert.deepEqual(failureRequest.tools.map((t) => t.name), ['retry_step', 'skip_step', 'stop_task']);
    const update = h.of('plan_updated').find((e) => e.reason.includes('retry'))!;
    assert.equal(update.reason, 'plan updated: retry "Fix the import with edit_file" differently: the sed approach hit the turn limit; edit the file directly');
    assert.equal(update.steps[1]!.status, 'pending');
    assert.equal(update.steps[1]!.description, "Use edit_file to change './util' to './utils' in src/index.ts.");
    assert.equal(h.workspace.text('src/index.ts'), "import { x } from './utils';\n");
    assert.equal(result.state?.replans, 1);
  });

  it('stops the task when the updater says stop, and still writes the report', async () => {
    const model = flowModel({
      planner: [call('create_plan', PLAN)],
      'step:Find the error': [call('read_file', { path: 'missing.txt' }), call('read_file', { path: 'missing.txt' })],
      updater: [call('stop_task', { reason: 'there is no build to fix' })],
      report: [call('write_report', { summary: 'Nothing could be built.', findings: [], verification: '', left: ['Add a build script'] })],
    });
    const h = harness(model, { task: 'Make npm run build pass', planMode: 'always', limits: { maxTurnsPerStep: 2 } });
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'failed');
    assert.equal(result.reason, 'Stopped after step "Find the error" failed: there is no build to fix');
    assert.deepEqual(result.plan?.steps.map((s) => s.status), ['failed', 'pending', 'pending']);
    const report = h.workspace.text(result.reportPath!)!;
    assert.match(report, /^> failed: Stopped after step "Find the error" failed/m);
    assert.match(report, /## What is left\n\n- Add a build script/);
    assert.equal(h.of('run_finished')[0]!.outcome, 'failed');
  });

  it('cannot change completed steps or the goal, whatever the model sends', async () => {
    const model = flowModel({
      planner: [call('create_plan', PLAN)],
      'step:Find the error': [finish('The import in src/index.ts is wrong.')],
      'step:Fix it properly': [finish('Fixed.')],
      updater: (_r, n) =>
        n === 0
          ? call('update_plan', {
              reason: 'merge the fix and the notes',
              goal: 'Rewrite the project in Rust',
              steps: [
                { id: '1', title: 'Found nothing', description: 'Pretend step 1 found nothing.', role: 'researcher', status: 'pending' },
                { id: '2', title: 'Fix it properly', description: 'Fix the import and write NOTES.md.', role: 'coder' },
              ],
            })
          : call('keep_plan', {}),
      report: REPORT,
    });
    const h = harness(model, { task: 'Make npm run build pass', planMode: 'always' });
    const result = await runTask(h.options);

    assert.equal(result.outcome, 'finished', result.reason);
    assert.equal(result.plan?.goal, 'Make the build pass');
    assert.deepEqual(
      result.plan?.steps.map((s) => [s.id, s.title, s.role, s.status]),
      [
        ['1', 'Find the error', 'coder', 'completed'],
        ['2', 'Fix it properly', 'coder', 'completed'],
      ],
    );
    assert.equal(result.state?.notes['1'], 'The import in src/index.ts is wrong.');
    assert.ok(h.of('notice').some((n) => /tried to change completed step "Find the error"/.test(n.message)));
    assert.equal(h.of('plan_updated')[0]!.reason, 'plan updated: merge the fix and the notes');
  });

  it('stops asking the updater once the re-plan limit is reached', async () => {
    const model = flowModel({
      planner: [call('create_plan', PLAN)],
      'step:Find the error': [finish('Found it.')],
      'step:Step 2b': [finish('Done 2b.')],
      'step:Write notes': [finish('Wrote notes.')],
      updater: [
        call('update_plan', {
          reason: 'rename step 2',
          steps: [
            { id: '2', title: 'Step 2b', description: 'Fix it.', role: 'coder' },
            { id: '3', ...PLAN.steps[2] },
          ],
        }),
      ],
      report: REPORT,
    });
    const h = harness(model, { task: 'Make npm run build pass', planMode: 'always', limits: { maxReplans: 1 } });
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'finished', result.reason);
    assert.equal(requestsOf(model, 'updater').length, 1);
  });
});

describe('applyRemaining', () => {
  const plan: Plan = {
    goal: 'G',
    thought: 'T',
    steps: [
      { id: '1', title: 'one', description: 'd1', role: 'coder', status: 'completed' },
      { id: '2', title: 'two', description: 'd2', role: 'coder', status: 'skipped' },
      { id: '3', title: 'three', description: 'd3', role: 'researcher', status: 'pending' },
      { id: '4', title: 'four', description: 'd4', role: 'reporter', status: 'pending' },
    ],
  };

  it('keeps finished steps, rewords, removes, blocks and adds remaining ones with fresh ids', () => {
    const { plan: next, notices } = applyRemaining(
      plan,
      [
        { id: '4', title: 'four, reworded', description: 'd4b', role: 'reporter' },
        { title: 'new', description: 'dn', role: 'coder', status: 'blocked' },
        { id: '4', title: 'duplicate id', description: 'dd', role: 'coder' },
      ],
      10,
    );
    assert.deepEqual(notices, []);
    assert.deepEqual(
      next.steps.map((s) => [s.id, s.title, s.status]),
      [
        ['1', 'one', 'completed'],
        ['2', 'two', 'skipped'],
        ['4', 'four, reworded', 'pending'],
        ['5', 'new', 'blocked'],
        ['6', 'duplicate id', 'pending'],
      ],
    );
    assert.equal(next.goal, 'G');
  });

  it('drops changes to finished steps and cuts to the step limit, with notices', () => {
    const { plan: next, notices } = applyRemaining(
      plan,
      [
        { id: '1', title: 'one?', description: 'd1', role: 'coder' },
        { id: '3', title: 'three', description: 'd3', role: 'researcher' },
        { title: 'extra', description: 'x', role: 'coder' },
      ],
      3,
    );
    assert.deepEqual(next.steps.map((s) => s.title), ['one', 'two', 'three']);
    assert.equal(notices.length, 2);
    assert.match(notices[0]!, /completed step "one"/);
    assert.match(notices[1]!, /kept 3 \(the step limit\)/);
  });
});
