import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEventOf } from '../../../src/shared/events';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn, type RecordedRequest } from '../../support/fakeOpenAIServer';
import { isRunning } from '../../support/processes';
import { call, finish, flowScript, offeredTools, requestsOf, requestText, systemPrompt, type FlowScript } from '../flow/flowFake';
import { startCli, type CliRun } from './cliProcess';

// Issue 26, acceptance items 1 and 4 through the built CLI (`node dist/cli.js`) against the fake
// model server: skills are offered by name and description and opened on demand; a custom role is
// offered to the planner and its step gets exactly its tools; `/name args` runs a prompt file.

/** Answers in order, whatever the conversation holds. */
function seq(...turns: FakeTurn[]): () => FakeTurn {
  let n = 0;
  return () => turns[Math.min(n++, turns.length - 1)]!;
}

const REPORT = call('write_report', { summary: 'Reviewed.', findings: [], verification: '', left: [] });

/** The description the fake sent with one offered tool. */
function toolDescription(request: RecordedRequest, name: string): string {
  const tool = (request.body?.tools ?? []).find((t) => t.function.name === name) as { function: { description?: string } } | undefined;
  return tool?.function.description ?? '';
}

/** Everything a request carries: messages, tool calls and the tools' descriptions. */
function everything(request: RecordedRequest): string {
  return `${requestText(request)}\n${JSON.stringify(request.body?.tools ?? [])}`;
}

async function put(root: string, file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), text);
}

describe('skills, custom roles and prompt files (built CLI)', function () {
  this.timeout(60_000);
  let ws: string;
  let home: string;
  let fake: FakeOpenAIServer | undefined;
  const pids: number[] = [];

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-ext-'));
    home = await mkdtemp(path.join(tmpdir(), 'stepwise-ext-home-'));
    await writeFile(path.join(ws, 'README.md'), '# demo\n');
  });
  afterEach(async () => {
    for (const pid of pids.splice(0)) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    await fake?.close();
    fake = undefined;
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  async function run(args: string[], script: FlowScript): Promise<CliRun> {
    fake = await startFakeOpenAI(flowScript(script));
    const cli = startCli([...args, '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url, '--json', '--auto-approve', 'read'], { HOME: home });
    pids.push(cli.child.pid!);
    return cli.done;
  }

  it('a skill is offered by name and description in the first request; its body only after the model opens it', async () => {
    await put(ws, '.stepwise/skills/release-notes/SKILL.md', '---\nname: release-notes\ndescription: Writes release notes DESC-MARKER-A\n---\nBODY-MARKER-A: run scripts/collect.sh first.\n');
    await put(ws, '.stepwise/skills/release-notes/scripts/collect.sh', 'echo collected\n');
    await put(ws, '.claude/skills/lint-fix/SKILL.md', '---\nname: lint-fix\ndescription: "Fixes lint DESC-MARKER-B"\n---\nBODY-MARKER-B\n');
    await put(home, '.stepwise/skills/mine/SKILL.md', '---\nname: mine\ndescription: The user skill DESC-MARKER-U\n---\nBODY-MARKER-U\n');
    await put(ws, '.agents/skills/broken/SKILL.md', '---\nname: [unclosed\n---\nbody\n');
    const r = await run(['run', 'Write the release notes', '--no-plan'], { direct: [call('skill', { name: 'release-notes' }), finish('done')] });
    assert.equal(r.code, 0, r.stderr);
    const [first, second] = requestsOf(fake!.requests, 'direct');
    assert.ok(first && second, 'two requests to the model');
    assert.ok(offeredTools(first).includes('skill'));
    const offered = toolDescription(first, 'skill');
    for (const marker of ['release-notes', 'DESC-MARKER-A', 'lint-fix', 'DESC-MARKER-B', 'mine', 'DESC-MARKER-U']) assert.ok(offered.includes(marker), `${marker} offered`);
    for (const marker of ['BODY-MARKER-A', 'BODY-MARKER-B', 'BODY-MARKER-U']) assert.ok(!everything(first).includes(marker), `${marker} not in the first request`);
    const opened = (second.body?.messages ?? []).find((m) => m.role === 'tool');
    assert.match(String(opened?.content), /BODY-MARKER-A: run scripts\/collect\.sh first\./);
    assert.match(String(opened?.content), /folder \.stepwise\/skills\/release-notes/);
    assert.match(String(opened?.content), /scripts\//);
    assert.ok(!everything(second).includes('BODY-MARKER-B'), 'a skill not opened stays closed');
    assert.match(r.stderr, /skipped \.agents\/skills\/broken\/SKILL\.md: the front matter is not valid YAML/);
  });

  it('--no-extensions offers no skill; the context gauge counts the offered skills with the tools', async () => {
    await put(ws, '.stepwise/skills/release-notes/SKILL.md', `---\nname: release-notes\ndescription: ${'Writes release notes from the merged pull requests. '.repeat(8)}\n---\nBody\n`);
    const gauge = (r: CliRun) => r.events.find((e): e is AgentEventOf<'context'> => e.type === 'context')!.parts.systemAndTools;
    const off = await run(['run', 'Do it', '--no-plan', '--no-extensions'], { direct: [finish('done')] });
    assert.equal(off.code, 0, off.stderr);
    assert.ok(!offeredTools(requestsOf(fake!.requests, 'direct')[0]!).includes('skill'));
    await fake!.close();
    const on = await run(['run', 'Do it', '--no-plan'], { direct: [finish('done')] });
    assert.equal(on.code, 0, on.stderr);
    assert.ok(gauge(on) - gauge(off) > 80, `the skill's line is counted (${gauge(off)} -> ${gauge(on)} tokens)`);
  });

  it('a custom role is offered to the planner with its description; its step runs with exactly its tools and its prompt', async () => {
    await put(ws, '.stepwise/agents/reviewer.md', '---\nname: reviewer\ndescription: Reviews changes DESC-MARKER-R\ntools: Read, Grep\nmodel: inherit\n---\nROLE-PROMPT-MARKER: you review, you never edit.\n');
    await put(ws, '.github/agents/docs.agent.md', '---\ndescription: Writes docs DESC-MARKER-D\ntools: [read_file, write_file]\n---\nDocs prompt\n');
    const plan = { goal: 'Review', thought: 'One review.', steps: [{ title: 'Review it', description: 'Review the README.', role: 'reviewer' }] };
    const r = await run(['run', 'Review the README', '--plan'], {
      planner: [call('create_plan', plan)],
      'step:Review it': seq(call('search_files', { pattern: 'demo' }), finish('Looks fine.')),
      updater: seq(call('keep_plan', {})),
      report: seq(REPORT),
    });
    assert.equal(r.code, 0, r.stderr);
    const planner = systemPrompt(requestsOf(fake!.requests, 'planner')[0]!);
    assert.match(planner, /- reviewer: Reviews changes DESC-MARKER-R/);
    assert.match(planner, /- docs: Writes docs DESC-MARKER-D/);
    const created = r.events.find((e): e is AgentEventOf<'plan_created'> => e.type === 'plan_created');
    assert.equal(created?.steps[0]?.agent, 'reviewer');
    const steps = requestsOf(fake!.requests, 'step:Review it');
    assert.ok(steps.length >= 1);
    for (const request of steps) {
      assert.deepEqual(offeredTools(request).sort(), ['finish', 'read_file', 'search_files']);
      assert.match(systemPrompt(request), /ROLE-PROMPT-MARKER: you review, you never edit\./);
    }
  });

  it('a planner that names an unknown role is told so and asked again', async () => {
    const bad = { goal: 'Review', thought: 'x', steps: [{ title: 'Review it', description: 'Review.', role: 'nobody' }] };
    await put(ws, '.stepwise/agents/reviewer.md', '---\nname: reviewer\ndescription: Reviews\ntools: Read\n---\nReview.\n');
    const good = { ...bad, steps: [{ ...bad.steps[0], role: 'reviewer' }] };
    let n = 0;
    const r = await run(['run', 'Review', '--plan'], {
      planner: () => call('create_plan', n++ === 0 ? bad : good),
      'step:Review it': seq(finish('ok')),
      updater: seq(call('keep_plan', {})),
      report: seq(REPORT),
    });
    assert.equal(r.code, 0, r.stderr);
    const retry = requestsOf(fake!.requests, 'planner')[1];
    assert.ok(retry, 'the planner was asked again');
    const told = (retry.body?.messages ?? []).filter((m) => m.role === 'tool' || m.role === 'user').map((m) => String(m.content)).pop();
    assert.match(String(told), /role/);
    assert.match(String(told), /reviewer/, 'the correction names the roles there are');
  });

  it('`stepwise run "/name args"` runs the prompt file with its arguments (.stepwise/prompts and .github/prompts)', async () => {
    await put(ws, '.stepwise/prompts/changelog.md', '---\ndescription: Update the changelog\nargument-hint: VERSION\n---\nAdd a CHANGELOG entry for version $ARGUMENTS. PROMPT-MARKER-S\n');
    await put(ws, '.github/prompts/explain.prompt.md', '---\ndescription: Explain\n---\nExplain ${input:topic} simply. PROMPT-MARKER-G\n');
    const r = await run(['run', '/changelog 2.1.0', '--no-plan'], { direct: [finish('done')] });
    assert.equal(r.code, 0, r.stderr);
    const sent = requestText(requestsOf(fake!.requests, 'direct')[0]!);
    assert.match(sent, /Add a CHANGELOG entry for version 2\.1\.0\. PROMPT-MARKER-S/);
    await fake!.close();
    const g = await run(['run', '/explain the event stream', '--no-plan'], { direct: [finish('done')] });
    assert.equal(g.code, 0, g.stderr);
    assert.match(requestText(requestsOf(fake!.requests, 'direct')[0]!), /Explain the event stream simply\. PROMPT-MARKER-G/);
  });

  it('an unknown /name is a usage error naming the prompt files there are; no model call is made', async () => {
    await put(ws, '.stepwise/prompts/changelog.md', 'Update the changelog.\n');
    const r = await run(['run', '/nosuch x', '--no-plan'], { direct: [finish('done')] });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no prompt file named \/nosuch; the prompt files here are: \/changelog/);
    assert.equal(fake!.chatRequests().length, 0);
  });

  it('a direct run delegates a sub-task to a role: fresh context, exactly its tools, its summary back; the sub-run is nested in the events', async () => {
    await put(ws, '.stepwise/agents/reviewer.md', '---\nname: reviewer\ndescription: Reviews changes\ntools: Read, Grep\n---\nREVIEWER-PROMPT\n');
    const isSub = (request: RecordedRequest) => systemPrompt(request).includes('Another agent handed you ONE sub-task');
    const outer = seq(call('delegate', { role: 'reviewer', task: 'Check README.md for typos SUBTASK-MARKER' }), finish('Reviewed through the reviewer.'));
    const inner = seq(call('read_file', { path: 'README.md' }), finish('No typos found SUB-SUMMARY'));
    fake = await startFakeOpenAI((request) => (isSub(request) ? inner() : outer()));
    const cli = startCli(['run', 'Review the README OUTER-TASK-MARKER', '--no-plan', '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url, '--json', '--auto-approve', 'read'], { HOME: home });
    pids.push(cli.child.pid!);
    const r = await cli.done;
    assert.equal(r.code, 0, r.stderr);
    const chats = fake.chatRequests();
    const outerFirst = chats.find((c) => !isSub(c))!;
    assert.ok(offeredTools(outerFirst).includes('delegate'));
    assert.match(toolDescription(outerFirst, 'delegate'), /- reviewer: Reviews changes/);
    const subs = chats.filter(isSub);
    assert.equal(subs.length, 2);
    for (const sub of subs) {
      assert.deepEqual(offeredTools(sub).sort(), ['finish', 'read_file', 'search_files']);
      assert.match(systemPrompt(sub), /REVIEWER-PROMPT/);
      assert.doesNotMatch(requestText(sub), /OUTER-TASK-MARKER/, 'a fresh context: not the outer task');
      assert.match(requestText(sub), /SUBTASK-MARKER/);
    }
    const outerLast = chats.filter((c) => !isSub(c)).at(-1)!;
    const handedBack = (outerLast.body?.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content)).join('\n');
    assert.match(handedBack, /reviewer finished: No typos found SUB-SUMMARY/);
    assert.doesNotMatch(requestText(outerLast), /REVIEWER-PROMPT/, 'the sub-run\'s messages stay out of the outer conversation');
    const types = r.events.map((e) => (e.type === 'tool_call' || e.type === 'tool_result' ? `${e.type}:${e.name}` : e.type));
    const at = (t: string) => types.indexOf(t);
    assert.ok(at('tool_call:delegate') < at('delegate_started'));
    assert.ok(at('delegate_started') < at('tool_call:read_file') && at('tool_result:read_file') < at('delegate_finished'));
    assert.ok(at('delegate_finished') < at('tool_result:delegate'));
    const ended = r.events.find((e): e is AgentEventOf<'delegate_finished'> => e.type === 'delegate_finished');
    assert.equal(ended?.outcome, 'finished');
    assert.equal(ended?.role, 'reviewer');
  });

  it('without custom roles a direct run is offered no delegate tool', async () => {
    const r = await run(['run', 'Do it', '--no-plan'], { direct: [finish('done')] });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!offeredTools(requestsOf(fake!.requests, 'direct')[0]!).includes('delegate'));
  });

  it('a skill\'s script runs through run_command with the usual approval: refused without it, run with it', async () => {
    await put(ws, '.stepwise/skills/stamp/SKILL.md', '---\nname: stamp\ndescription: Stamps the build\n---\nRun `sh .stepwise/skills/stamp/stamp.sh`.\n');
    await put(ws, '.stepwise/skills/stamp/stamp.sh', 'echo stamped > stamped.txt\n');
    const turns = () => [call('skill', { name: 'stamp' }), call('run_command', { command: 'sh .stepwise/skills/stamp/stamp.sh' }), finish('done')];
    const refused = await run(['run', 'Stamp the build', '--no-plan'], { direct: turns() });
    const answered = refused.events.find((e): e is AgentEventOf<'approval_answered'> => e.type === 'approval_answered');
    assert.equal(answered?.approved, false, 'no one approved the command (no terminal, command not auto-approved)');
    await assert.rejects(readFile(path.join(ws, 'stamped.txt'), 'utf8'));
    await fake!.close();
    fake = await startFakeOpenAI(flowScript({ direct: turns() }));
    const cli = startCli(['run', 'Stamp the build', '--no-plan', '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url, '--json', '--auto-approve', 'read,command'], { HOME: home });
    pids.push(cli.child.pid!);
    const ran = await cli.done;
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal((await readFile(path.join(ws, 'stamped.txt'), 'utf8')).trim(), 'stamped');
  });

  it('a follow-up (`stepwise resume <id> "/name args"`) runs the prompt file too', async () => {
    await put(ws, '.stepwise/prompts/changelog.md', 'Add a CHANGELOG entry for version $ARGUMENTS. FOLLOWUP-MARKER\n');
    const first = await run(['run', 'Look at the README', '--no-plan'], { direct: [finish('Looked.')] });
    assert.equal(first.code, 0, first.stderr);
    await fake!.close();
    const id = first.envelopes[0]!.runId;
    const r = await run(['resume', id, '/changelog 3.0.0'], { direct: () => finish('Added.') });
    assert.equal(r.code, 0, r.stderr);
    const last = fake!.chatRequests().at(-1)!;
    const users = (last.body?.messages ?? []).filter((m) => m.role === 'user').map((m) => String(m.content));
    assert.match(users.at(-1) ?? '', /^Add a CHANGELOG entry for version 3\.0\.0\. FOLLOWUP-MARKER/);
    assert.match(users[0] ?? '', /Look at the README/, 'the same conversation goes on');
  });
});
