import assert from 'node:assert/strict';
import { runTask } from '../../../src/agent/flow/runTask';
import { MessageInbox } from '../../../src/agent/loop/messageInbox';
import { conversationFromEvents } from '../../../src/agent/context/conversationFromEvents';
import { call, finish, flowModel, harness, requestsOf, requestText } from './flowHarness';

// The task's inbox in the core: a planned task's messages go to the updater after the running step
// (never to the step agents), a direct run's at its next turn; a message after the last turn is said.

const PLAN = { goal: 'g', thought: 't', steps: [{ title: 'One', description: 'Do one.', role: 'coder' }, { title: 'Two', description: 'Do two.', role: 'coder' }] };
const REPORT = call('write_report', { summary: 'Done.', findings: [], verification: '', left: [] });

describe('messages while a task runs (core)', () => {
  it('planned: a message sent during step 1 reaches the updater after it, whose change quotes it; step agents never see it', async () => {
    const inbox = new MessageInbox();
    const model = flowModel({
      planner: [call('create_plan', PLAN)],
      'step:One': (_r, n) => {
        if (n === 0) inbox.push('skip step two');
        return finish('one done');
      },
      'step:Two': [finish('two done')],
      updater: (request) => (requestText(request).includes('skip step two') ? call('update_plan', { reason: 'dropped step two', steps: [] }) : call('keep_plan', {})),
      report: [REPORT],
    });
    const h = harness(model, { task: 'Do one and two', planMode: 'always', inbox });
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'finished', result.reason);
    assert.deepEqual(h.of('user_message'), [{ type: 'user_message', text: 'skip step two', delivered: 'plan' }]);
    assert.equal(h.of('plan_updated')[0]!.reason, 'plan updated: you asked: "skip step two" — dropped step two');
    assert.deepEqual(result.plan?.steps.map((s) => s.title), ['One']);
    assert.equal(requestsOf(model, 'step:Two').length, 0);
    assert.ok(!requestsOf(model, 'step:One').some((r) => requestText(r).includes('skip step two')));
  });

  it('a message that arrives after the task\'s last turn is said in a notice, not dropped silently', async () => {
    const inbox = new MessageInbox();
    const model = flowModel({
      planner: [call('create_plan', { ...PLAN, steps: PLAN.steps.slice(0, 1) })],
      'step:One': [finish('one done')],
      updater: () => call('keep_plan', {}),
      report: () => {
        inbox.push('too late');
        return REPORT;
      },
    });
    const h = harness(model, { task: 'Do one', planMode: 'always', inbox });
    assert.equal((await runTask(h.options)).outcome, 'finished');
    assert.ok(h.of('notice').some((n) => /"too late" arrived after the task's last turn and was not delivered/.test(n.message)));
    assert.equal(inbox.size, 0);
  });

  it('a resumed conversation keeps the messages delivered at a turn (not those the plan updater took)', () => {
    const messages = conversationFromEvents([
      { type: 'run_started', task: 'Fix the typo', workspace: '/w', model: 'm' },
      { type: 'assistant_message', text: '', toolCalls: [{ id: 'c1', name: 'list_files', arguments: '{}' }] },
      { type: 'tool_result', callId: 'c1', name: 'list_files', isError: false, content: 'README.md', durationMs: 1 },
      { type: 'user_message', text: 'and the changelog', delivered: 'turn' },
      { type: 'user_message', text: 'for the updater', delivered: 'plan' },
    ]);
    assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'tool', 'user']);
    assert.match(messages[3]!.content, /while you were working[\s\S]*and the changelog$/);
  });

  it('Stop hooks are the main agent\'s: a planned task\'s steps never run them, a direct run does (with its stdin)', async () => {
    const hooks = [{ source: 'user', config: { Stop: [{ hooks: [{ type: 'command' as const, command: 'stop-check' }] }] } }];
    const planned = flowModel({ planner: [call('create_plan', { ...PLAN, steps: PLAN.steps.slice(0, 1) })], 'step:One': [finish('one done')], updater: () => call('keep_plan', {}), report: [REPORT] });
    const h = harness(planned, { task: 'Do one', planMode: 'always', hooks, commands: [{ match: 'stop-check', exitCode: 0 }] });
    assert.equal((await runTask(h.options)).outcome, 'finished');
    assert.equal(h.commands.requests.filter((r) => r.command === 'stop-check').length, 0);

    const direct = flowModel({ direct: [finish('done')] });
    const d = harness(direct, { task: 'Do it', planMode: 'never', hooks, commands: [{ match: 'stop-check', exitCode: 0 }] });
    assert.equal((await runTask(d.options)).outcome, 'finished');
    const ran = d.commands.requests.filter((r) => r.command === 'stop-check');
    assert.equal(ran.length, 1);
    assert.deepEqual(JSON.parse(ran[0]!.input!), { session_id: 'run-1', cwd: d.workspace.root, workspace: d.workspace.root, hook_event_name: 'Stop', stop_hook_active: false });
  });

  it('direct: a message waiting when the agent finishes sends it back to work, and the next request carries it', async () => {
    const inbox = new MessageInbox();
    const model = flowModel({
      direct: (request, n) => {
        if (n === 0) {
          inbox.push('and the changelog');
          return finish('typo fixed');
        }
        return requestText(request).includes('and the changelog') ? finish('typo fixed, changelog updated') : finish('no');
      },
    });
    const h = harness(model, { task: 'Fix the typo', planMode: 'never', inbox });
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'finished', result.reason);
    assert.equal(result.summary, 'typo fixed, changelog updated');
    assert.deepEqual(h.of('user_message').map((e) => e.delivered), ['turn']);
  });
});
