import assert from 'node:assert/strict';
import { runTask } from '../../../src/agent/flow/runTask';
import type { Clock } from '../../../src/agent/ports';
import { call, finish, flowModel, harness } from '../flow/flowHarness';

// Durations tell running and waiting for the user apart: a command that waited 97 s for its
// approval and ran 1.3 s shows 1.3 s run and 97 s waited, on its tool result and on the task.
describe('durations: running time apart from the time waiting for the user', () => {
  it('a command approved after 97 s that runs 1.3 s', async () => {
    let now = 1_000_000;
    const clock: Clock = { now: () => now, sleep: async () => undefined };
    const model = flowModel({ direct: [call('run_command', { command: 'npm test' }), finish('Ran the tests.')] });
    const h = harness(model, {
      task: 'run the tests', planMode: 'never', clock, verify: { mode: 'off', commands: [] },
      approver: { approve: async () => ((now += 97_000), { approved: true }) },
      commands: [{ match: 'npm test', output: [{ stream: 'stdout', chunk: 'ok\n' }], exitCode: 0 }],
    });
    // The scripted command takes 1.3 s of the task's clock.
    const run = h.commands.run.bind(h.commands);
    h.commands.run = async (request) => {
      const result = await run(request);
      now += 1_300;
      return result;
    };
    await runTask(h.options);
    const result = h.of('tool_result').find((e) => e.name === 'run_command')!;
    assert.equal(result.durationMs, 1_300);
    assert.equal(result.waitedMs, 97_000);
    const end = h.of('run_finished').at(-1)!;
    assert.equal(end.runningMs, 1_300);
    assert.equal(end.waitingMs, 97_000);
  });
});
