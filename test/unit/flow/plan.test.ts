import assert from 'node:assert/strict';
import { runTask } from '../../../src/agent/flow/runTask';
import { call, finish, flowModel, harness, requestsOf, toolNames } from './flowHarness';

const TASK = 'Add input validation to parse() in src/app.ts, document it in docs/validation.md and report what changed.';
const APP = 'export function parse(input: string): unknown {\n  return JSON.parse(input);\n}\n';

const PLAN = {
  goal: 'Validate the input of parse() and document it',
  thought: 'Look at the parser first, then change it, then write the document.',
  steps: [
    { title: 'Inspect the parser', description: 'Read src/app.ts and describe what parse() does with its input.', role: 'researcher' },
    { title: 'Add validation', description: 'Make parse() reject empty input through a new src/validate.ts; run npm test.', role: 'coder' },
    { title: 'Document validation', description: 'Write docs/validation.md describing the new check.', role: 'reporter' },
  ],
};

function script() {
  return flowModel({
    coordinator: [call('route', { mode: 'plan', reason: 'a change, a document and a report' })],
    planner: [call('create_plan', PLAN)],
    updater: (_request, n) =>
      n === 0
        ? call('update_plan', {
            reason: 'parse() may have callers that rely on empty input; look for them first',
            steps: [
              { title: 'Find the callers', description: 'Search for calls of parse( and note how they pass input.', role: 'researcher' },
              { id: '2', ...PLAN.steps[1] },
              { id: '3', ...PLAN.steps[2] },
            ],
          })
        : call('keep_plan', { reason: 'still fits' }),
    'step:Inspect the parser': [call('read_file', { path: 'src/app.ts' }), finish('parse() in src/app.ts passes its input straight to JSON.parse with no checks.')],
    'step:Find the callers': [call('search_files', { pattern: 'parse\\(' }), finish('parse() is only defined in src/app.ts; no caller passes empty input.')],
    'step:Add validation': [
      call('write_file', { path: 'src/validate.ts', content: "export function assertNonEmpty(input: string): void {\n  if (!input.trim()) throw new Error('empty input');\n}\n" }),
      call('edit_file', {
        path: 'src/app.ts',
        edits: [{ search: '  return JSON.parse(input);', replace: '  assertNonEmpty(input);\n  return JSON.parse(input);' }],
      }),
      call('run_command', { command: 'npm test' }),
      finish('Added assertNonEmpty in src/validate.ts and call it in parse(); npm test passes (3 passing).'),
    ],
    'step:Document validation': [
      call('write_file', { path: 'docs/validation.md', content: '# Validation\n\nparse() rejects empty input.\n' }),
      finish('Wrote docs/validation.md.'),
    ],
    report: [
      call('write_report', {
        summary: 'parse() now rejects empty input, and the check is documented.',
        findings: ['parse() passed input to JSON.parse unchecked', 'No caller relies on empty input'],
        verification: 'npm test passed (3 passing).',
        left: [],
      }),
    ],
  });
}

/** The complex task's harness: the app file and a passing `npm test`. */
function complexTask(model: Parameters<typeof harness>[0]) {
  return harness(model, {
    task: TASK,
    files: { 'src/app.ts': APP },
    commands: [{ match: 'npm test', output: [{ stream: 'stdout', chunk: '3 passing\n' }], exitCode: 0 }],
  });
}

describe('planning flow: a complex task', () => {
  it('plans 3 steps over 2+ roles, inserts a step after step 1, runs them in order and saves a linked report', async () => {
    const model = script();
    const h = complexTask(model);
    const result = await runTask(h.options);

    assert.equal(result.outcome, 'finished', result.reason);
    assert.equal(result.route, 'plan');
    const [created] = h.of('plan_created');
    assert.ok(created);
    assert.equal(created.steps.length, 3);
    assert.ok(new Set(created.steps.map((s) => s.role)).size >= 2);

    const updates = h.of('plan_updated');
    assert.equal(updates.length, 1);
    assert.match(updates[0]!.reason, /^plan updated: parse\(\) may have callers/);
    assert.deepEqual(
      updates[0]!.steps.map((s) => [s.title, s.status]),
      [
        ['Inspect the parser', 'completed'],
        ['Find the callers', 'pending'],
        ['Add validation', 'pending'],
        ['Document validation', 'pending'],
      ],
    );
    const titleOf = new Map(updates[0]!.steps.map((s) => [s.id, s.title]));
    assert.deepEqual(
      h.of('step_started').map((e) => titleOf.get(e.stepId)),
      ['Inspect the parser', 'Find the callers', 'Add validation', 'Document validation'],
    );
    assert.deepEqual(h.of('step_finished').map((e) => e.status), ['completed', 'completed', 'completed', 'completed']);
    assert.deepEqual(result.plan?.steps.map((s) => s.status), ['completed', 'completed', 'completed', 'completed']);

    // The work itself happened.
    assert.match(h.workspace.text('src/app.ts') ?? '', /assertNonEmpty\(input\);/);
    assert.ok(h.workspace.text('src/validate.ts'));
    assert.ok(h.workspace.text('docs/validation.md'));

    // One run story for the whole task.
    assert.equal(h.of('run_started').length, 1);
    assert.equal(h.of('run_finished').length, 1);
    assert.equal(h.events.at(-1)?.type, 'run_finished');
    assert.equal(h.of('run_finished')[0]!.outcome, 'finished');

    // The report: saved, emitted, linked.
    assert.ok(result.reportPath?.startsWith('.stepwise/reports/20250102-030405-'), result.reportPath);
    assert.ok(result.reportPath?.endsWith('.md'));
    const report = h.workspace.text(result.reportPath!);
    assert.ok(report, 'report file exists');
    assert.deepEqual(h.of('report'), [{ type: 'report', markdown: report, path: result.reportPath }]);
    assert.match(report, /^# Report: Validate the input of parse\(\) and document it/);
    for (const file of ['src/validate.ts', 'src/app.ts', 'docs/validation.md']) {
      assert.ok(report.includes(`- [${file}](../../${file})`), `report links ${file}:\n${report}`);
    }
    // npm test passed in step 3, but step 4 changed files after it: the evidence says not verified.
    // The step's words are kept as written; a note beside them says what the evidence shows.
    assert.match(report, /## How it was verified\n\nNot verified\./);
    assert.ok(report.includes('npm test passes (3 passing).\n4. **Document validation**'), report);
    assert.ok(report.includes('\n\n> Note: the text above says the tests or checks pass; no check ran after the last change.\n'), report);
    assert.match(report, /## What is left\n\nNothing\./);
    assert.equal(result.summary, 'parse() now rejects empty input, and the check is documented.');
  });

  it('gives each role its own prompt and tools', async () => {
    const model = script();
    const h = complexTask(model);
    await runTask(h.options);
    const researcher = requestsOf(model, 'step:Inspect the parser')[0]!;
    const coder = requestsOf(model, 'step:Add validation')[0]!;
    const reporter = requestsOf(model, 'step:Document validation')[0]!;
    assert.deepEqual(toolNames(researcher), ['ask_user', 'finish', 'list_files', 'read_file', 'read_output', 'search_files']);
    assert.deepEqual(toolNames(reporter), ['finish', 'list_files', 'read_file', 'read_output', 'search_files', 'write_file']);
    assert.deepEqual(toolNames(coder), ['ask_user', 'edit_file', 'finish', 'list_files', 'read_file', 'read_output', 'run_command', 'search_files', 'write_file']);
    assert.match(researcher.messages[0]!.content, /^You are the researcher/);
    assert.match(coder.messages[0]!.content, /^You are the coder/);
    assert.match(reporter.messages[0]!.content, /^You are the reporter/);
    for (const request of [researcher, coder, reporter]) {
      assert.equal(request.toolChoice, 'required');
      assert.ok(request.messages[0]!.content.length < 1200, 'role prompts stay short');
    }
    // The coordinator and planner are single structured calls with their own tools.
    assert.deepEqual(toolNames(requestsOf(model, 'coordinator')[0]!), ['route']);
    assert.deepEqual(toolNames(requestsOf(model, 'planner')[0]!), ['ask_user', 'create_plan']);
    assert.deepEqual(toolNames(requestsOf(model, 'updater')[0]!), ['keep_plan', 'update_plan']);
  });

  it('reports usage with the running total of the whole task', async () => {
    const model = script();
    const h = complexTask(model);
    const result = await runTask(h.options);
    const usage = h.of('usage');
    assert.equal(usage.length, model.calls, 'one usage event per model call');
    let sum = 0;
    for (const event of usage) {
      sum += event.usage.totalTokens;
      assert.equal(event.total.totalTokens, sum);
    }
    assert.equal(result.usage.totalTokens, sum);
  });
});
