import assert from 'node:assert/strict';
import { runTask } from '../../../src/agent/flow/runTask';
import { call, finish, flowModel, harness, requestsOf, requestText } from './flowHarness';

const MARKER = 'ZEBRA-7731-TRANSCRIPT-MARKER';
const TASK = 'Summarise the error codes in src/errors.ts into docs/errors.md and add a missing code.';

describe('planning flow: what a step sees', () => {
  it('a step carries the task, the plan with statuses, finished steps’ summaries and its own step, not other transcripts', async () => {
    const model = flowModel({
      planner: [
        call('create_plan', {
          goal: 'Document the error codes',
          thought: 'Read, change, write.',
          steps: [
            { title: 'Read the codes', description: 'Read src/errors.ts and list every code.', role: 'researcher' },
            { title: 'Add E404', description: 'Add the missing E404 code to src/errors.ts.', role: 'coder' },
            { title: 'Write the doc', description: 'Write docs/errors.md with one line per code.', role: 'reporter' },
          ],
        }),
      ],
      'step:Read the codes': [call('read_file', { path: 'src/errors.ts' }), finish('src/errors.ts defines E100 and E200; E404 is missing.')],
      'step:Add E404': [
        call('edit_file', { path: 'src/errors.ts', edits: [{ search: "E200 = 'E200',", replace: "E200 = 'E200',\n  E404 = 'E404'," }] }),
        call('run_command', { command: 'npm test' }),
        finish('Added E404 to src/errors.ts; tests pass.'),
      ],
      'step:Write the doc': [call('write_file', { path: 'docs/errors.md', content: '- E100\n- E200\n- E404\n' }), finish('Wrote docs/errors.md.')],
      updater: () => call('keep_plan', {}),
      report: [call('write_report', { summary: 'Documented 3 codes.', findings: [], verification: 'npm test', left: [] })],
    });
    const h = harness(model, {
      task: TASK,
      planMode: 'always',
      files: { 'src/errors.ts': `// ${MARKER}\nexport enum Code {\n  E100 = 'E100',\n  E200 = 'E200',\n}\n` },
      commands: [{ match: 'npm test', output: [{ stream: 'stdout', chunk: 'STEP2-COMMAND-OUTPUT 12 passing\n' }], exitCode: 0 }],
    });
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'finished', result.reason);

    // Step 1 really saw the marker (so its absence later means something).
    const step1 = requestsOf(model, 'step:Read the codes');
    assert.ok(requestText(step1.at(-1)!).includes(MARKER));

    const step3 = requestsOf(model, 'step:Write the doc');
    assert.equal(step3.length, 2);
    for (const request of step3) {
      const text = requestText(request);
      assert.ok(text.includes(TASK), 'the task');
      assert.match(text, /1\. \[completed\] \(researcher\) Read the codes/);
      assert.match(text, /2\. \[completed\] \(coder\) Add E404/);
      assert.match(text, /3\. \[in_progress\] \(reporter\) Write the doc \{id: 3\} {2}<- current step/);
      assert.ok(text.includes('Summary: src/errors.ts defines E100 and E200; E404 is missing.'));
      assert.ok(text.includes('Summary: Added E404 to src/errors.ts; tests pass.'));
      assert.ok(text.includes('# Your step (3 of 3): Write the doc\nWrite docs/errors.md with one line per code.'));
      // Not the other steps' transcripts: no tool output, no tool calls of steps 1 and 2.
      assert.ok(!text.includes(MARKER), 'step 1 tool output leaked into step 3');
      assert.ok(!text.includes('STEP2-COMMAND-OUTPUT'), 'step 2 command output leaked into step 3');
      assert.ok(!text.includes("E404 = 'E404'"), 'step 2 edit arguments leaked into step 3');
      assert.ok(!text.includes('Read src/errors.ts and list every code.'), 'other steps appear by title only');
    }
    // The first request of step 3 is exactly: system, pinned context, the step.
    assert.deepEqual(step3[0]!.messages.map((m) => m.role), ['system', 'user', 'user']);

    // The updater and the report also work from summaries only.
    for (const request of [...requestsOf(model, 'updater'), ...requestsOf(model, 'report')]) {
      assert.ok(!requestText(request).includes(MARKER));
      assert.ok(!requestText(request).includes('STEP2-COMMAND-OUTPUT'));
    }
  });
});
