import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { EventStream } from '../../../src/agent/events/eventStream';
import { createFlowContext } from '../../../src/agent/flow/flowContext';
import { resumeTask } from '../../../src/agent/flow/resumeTask';
import { runTask } from '../../../src/agent/flow/runTask';
import { isPromptGuarded, promptGuarded, promptGuardedTiers } from '../../../src/agent/model/promptBoundary';
import { Redactor, redactEnvLines } from '../../../src/agent/secrets/redactor';
import type { AgentEvent } from '../../../src/shared/events';
import { ScriptedModel } from '../../support/scriptedModel';
import { call, finish, fixedClock, flowModel, harness, requestText } from '../flow/flowHarness';

const SECRET = 'sk-test-PROMPTBOUNDARY-1234567890';
const REGISTERED = 'reg1stered-Value-42';

describe('Redactor: .env-style lines', () => {
  // [input, expected]: the value of a secret-looking NAME goes, the name and other lines stay.
  const rows: Array<[string, string]> = [
    ['DB_PASSWORD=hunter22', 'DB_PASSWORD=[redacted]'],
    ['export GITHUB_TOKEN=ghp_abcdef123', 'export GITHUB_TOKEN=[redacted]'],
    ['MY_SECRET="two words here"', 'MY_SECRET="[redacted]"'],
    ["AWS_SECRET_ACCESS_KEY='abc/def+ghi'", "AWS_SECRET_ACCESS_KEY='[redacted]'"],
    ['A=1\nSTRIPE_API_KEY=rk_live_abcdef\nB=2', 'A=1\nSTRIPE_API_KEY=[redacted]\nB=2'],
    ['PORT=8080\nDEBUG=true', 'PORT=8080\nDEBUG=true'],
    ['SHORT_TOKEN=abc', 'SHORT_TOKEN=abc'],
    ['API_KEY=${OTHER_VAR}', 'API_KEY=${OTHER_VAR}'],
    ['const token = getToken();', 'const token = getToken();'],
    ['CLIENT_SECRET=abcdefgh\r\nX=y', 'CLIENT_SECRET=[redacted]\r\nX=y'],
    [' 2| DB_PASSWORD=p4ssw0rd-xyz', ' 2| DB_PASSWORD=[redacted]'],
    ['     7\tAPI_TOKEN=abcdefgh', '     7\tAPI_TOKEN=[redacted]'],
    ['\tAPI_TOKEN=abcdefgh', '\tAPI_TOKEN=[redacted]'],
    ['10\tAPI_TOKEN=abcdefgh', '10\tAPI_TOKEN=[redacted]'],
    ['.env:3:SECRET_KEY=abcdefgh', '.env:3:SECRET_KEY=[redacted]'],
    ['- DATABASE_PASSWORD=abcdefgh', '- DATABASE_PASSWORD=[redacted]'],
    ['# old: `API_KEY=abcdefgh`', '# old: `API_KEY=abcdefgh`'],
    ['# API_KEY=abcdefgh', '# API_KEY=[redacted]'],
    ['`STRIPE_SECRET=abcdefgh`', '`STRIPE_SECRET=[redacted]`'],
  ];
  for (const [input, expected] of rows) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(redactEnvLines(input), expected);
      // Events are redacted in their JSON form: the same lines inside a JSON string.
      const json = JSON.stringify({ text: input });
      assert.deepEqual(JSON.parse(new Redactor().redact(json)), { text: expected });
    });
  }
});

describe('the prompt boundary', () => {
  it('redacts every message, reasoning, tool-call argument and tool description before the adapter sees it', async () => {
    const raw = new ScriptedModel([{ text: 'ok' }]);
    const redactor = new Redactor();
    redactor.add(REGISTERED);
    const model = promptGuarded(raw, (t) => redactor.redact(t));
    assert.ok(isPromptGuarded(model));
    assert.equal(promptGuarded(model), model, 'wrapping twice is one wrapper');
    assert.equal(isPromptGuarded(raw), false);
    await model.complete({
      messages: [
        { role: 'system', content: `rules: ${REGISTERED}` },
        { role: 'user', content: `key ${SECRET}` },
        { role: 'assistant', content: '', reasoning: `thinking ${REGISTERED}`, toolCalls: [{ id: 'c', name: 'x', arguments: JSON.stringify({ v: REGISTERED }) }] },
        { role: 'tool', toolCallId: 'c', name: 'x', content: 'OPENAI_API_KEY=abcdefghijkl' },
      ],
      tools: [{ name: 'mcp__t', description: `uses ${REGISTERED}`, parameters: {} }],
      toolChoice: 'auto',
      signal: new AbortController().signal,
    });
    const sent = JSON.stringify(raw.requests[0]);
    for (const leak of [REGISTERED, SECRET, 'abcdefghijkl']) assert.ok(!sent.includes(leak), `${leak} left the boundary`);
    assert.match(sent, /OPENAI_API_KEY=\[redacted\]/);
  });

  it('guards every tier of a run in createFlowContext, with a fallback redactor when the stream has none', () => {
    const tiers = { default: new ScriptedModel([]), basic: new ScriptedModel([]), reasoning: new ScriptedModel([]), vision: new ScriptedModel([]) };
    const h = harness(tiers.default, { task: 't', models: tiers });
    const ctx = createFlowContext(h.options, 'en');
    for (const tier of ['default', 'basic', 'reasoning', 'vision'] as const) assert.ok(isPromptGuarded(ctx.options.models[tier]!), tier);
    const shared = promptGuardedTiers({ default: tiers.default, basic: tiers.default });
    assert.equal(shared.default, shared.basic, 'one wrapper per distinct model');
  });

  it('a task never sends a registered secret, an .env line or a key shape: task text, rules file, tool result', async () => {
    const redactor = new Redactor();
    redactor.add(REGISTERED);
    const events: AgentEvent[] = [];
    const stream = new EventStream('run-b', fixedClock.now, undefined, (t) => redactor.redact(t));
    stream.subscribe((e) => events.push(e.event));
    const model = flowModel({ direct: [call('read_file', { path: '.env' }), finish('done')] });
    const h = harness(model, {
      task: `Use ${REGISTERED} and ${SECRET}`,
      planMode: 'never',
      events: stream,
      files: { 'AGENTS.md': `Deploy with ${REGISTERED}\n`, '.env': `OPENAI_API_KEY=${SECRET}\nDB_PASSWORD=p4ssw0rd-xyz\n` },
    });
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'finished');
    assert.equal(model.calls, 2);
    for (const request of model.requests) {
      const text = requestText(request);
      for (const leak of [REGISTERED, SECRET, 'p4ssw0rd-xyz']) assert.ok(!text.includes(leak), `${leak} reached the model`);
    }
    assert.match(requestText(model.requests[1]!), /DB_PASSWORD=\[redacted\]/, 'the tool result reached the model, redacted');
    assert.ok(!JSON.stringify(events).includes(REGISTERED));

    // A follow-up (resumeTask) goes through the same boundary.
    const again = flowModel({ direct: [finish('again')] });
    const stream2 = new EventStream('run-c', fixedClock.now, undefined, (t) => redactor.redact(t));
    const h2 = harness(again, { task: 'x', events: stream2 });
    await resumeTask({ ...h2.options, history: events, resumedFrom: 'run-b', instruction: `now ${REGISTERED}` });
    assert.equal(again.calls, 1);
    assert.ok(!requestText(again.requests[0]!).includes(REGISTERED));
  });

  it('guard: every model adapter built in src is built behind promptGuarded (connection tests excepted)', () => {
    // The set-up connection test sends one fixed "ping" of its own, never task content.
    const exempt = new Set(['src/host/common/setup/setupService.ts', 'src/host/vscode/setup/setupController.ts']);
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (name.endsWith('.ts')) {
          const rel = path.relative(process.cwd(), full).split(path.sep).join('/');
          const text = readFileSync(full, 'utf8');
          for (const match of text.matchAll(/new (OpenAICompatibleModel|AnthropicModel|LmChatModel)\(/g)) {
            const before = text.slice(Math.max(0, match.index - 20), match.index);
            if (!exempt.has(rel) && !/promptGuarded\(\s*$/.test(before)) offenders.push(`${rel}: ${match[0]}`);
          }
        }
      }
    };
    walk(path.resolve('src'));
    assert.deepEqual(offenders, []);
  });
});
