import { systemClock } from '../src/agent/clock';
import { countMessageTokens, countToolTokens, o200kCounter } from '../src/agent/context/tokenCounter';
import { EventStream } from '../src/agent/events/eventStream';
import type { FlowState } from '../src/agent/flow/flowState';
import { stepContext, stepTask } from '../src/agent/flow/planContext';
import { rolePrompt, toolsForRole } from '../src/agent/flow/roles';
import { runTask } from '../src/agent/flow/runTask';
import { runAgent } from '../src/agent/loop/runAgent';
import { DEFAULT_LIMITS } from '../src/agent/loop/runTypes';
import type { ChatMessage, ModelRequest } from '../src/agent/model/types';
import { silentLogger } from '../src/agent/ports';
import { builtinTools } from '../src/agent/tools/builtins';
import { ToolRegistry } from '../src/agent/tools/toolRegistry';
import type { StepRole } from '../src/shared/plan';
import { FakeCommandRunner, type ScriptedCommand } from '../test/support/fakeCommandRunner';
import { MemoryWorkspace } from '../test/support/memoryWorkspace';
import { ScriptedModel, type ScriptedResponse } from '../test/support/scriptedModel';
import { recordingApprover, scriptedAsker } from '../test/support/stubPorts';

const TASK =
  'Orders can be paid twice when the payment callback is retried. Find why, fix it in src/orders.ts, ' +
  'make inventory release stock on cancelled orders, and write docs/changes.md for the release notes.';

/** A source file of about `lines` lines, realistic enough for the tokenizer. */
function sourceFile(name: string, lines: number): string {
  const out = [`// ${name}: part of the shop backend`, "import { db } from './db';", "import { log } from './log';", ''];
  for (let i = 0; out.length < lines; i++) {
    out.push(
      `/** Handles ${name} case ${i}: validates the request, updates the record and logs the change. */`,
      `export async function ${name}Handler${i}(id: string, amount: number): Promise<void> {`,
      `  const record = await db.${name}.find({ id, version: ${i} });`,
      `  if (!record) throw new Error(\`${name} \${id} not found (case ${i})\`);`,
      `  if (amount <= 0 || amount > record.limit) log.warn('rejected ${name} amount', { id, amount });`,
      `  await db.${name}.update({ id }, { amount: record.amount + amount, updatedAt: Date.now() });`,
      '}',
      '',
    );
  }
  return `${out.join('\n')}\n`;
}

/** Test-runner output of about `tests` lines. */
function testOutput(tests: number): string {
  const lines = ['> shop@1.4.0 test', '> mocha "test/**/*.test.ts"', ''];
  for (let i = 0; i < tests; i++) lines.push(`  ✔ orders: handles case ${i} with a retried callback and a stale version (${3 + (i % 7)}ms)`);
  lines.push('', `  ${tests} passing (1s)`, '');
  return lines.join('\n');
}

interface BenchStep {
  title: string;
  description: string;
  role: StepRole;
  turns: ScriptedResponse[];
}

function steps(): BenchStep[] {
  const id = (step: number, n: number) => `s${step}_${n}`;
  const tool = (step: number, n: number, name: string, args: Record<string, unknown>): ScriptedResponse => ({
    text: n === 1 ? 'Let me look at the code first.' : '',
    toolCalls: [{ id: id(step, n), name, arguments: args }],
  });
  const done = (step: number, n: number, summary: string) => tool(step, n, 'finish', { summary });
  return [
    {
      title: 'Find the double payment',
      description: 'Read src/orders.ts and find how a retried payment callback can pay an order twice.',
      role: 'researcher',
      turns: [
        tool(1, 1, 'read_file', { path: 'src/orders.ts' }),
        tool(1, 2, 'search_files', { pattern: 'markPaid|callback' }),
        done(1, 3, 'ordersHandler3 marks an order paid without checking its status, so a retried callback pays twice; the fix is an idempotency check on order status in src/orders.ts.'),
      ],
    },
    {
      title: 'Check the payment flow',
      description: 'Read src/payments.ts and note how callbacks are retried and which ids they carry.',
      role: 'researcher',
      turns: [
        tool(2, 1, 'read_file', { path: 'src/payments.ts' }),
        done(2, 2, 'Callbacks are retried up to 5 times with the same payment id; paymentsHandler7 passes the order id through unchanged.'),
      ],
    },
    {
      title: 'Fix the double payment',
      description: 'Make the paid transition in src/orders.ts idempotent and run npm test.',
      role: 'coder',
      turns: [
        tool(3, 1, 'read_file', { path: 'src/orders.ts', start_line: 1, end_line: 80 }),
        tool(3, 2, 'edit_file', {
          path: 'src/orders.ts',
          edits: [{ search: "  const record = await db.orders.find({ id, version: 3 });", replace: "  const record = await db.orders.find({ id, version: 3 });\n  if (record?.status === 'paid') return;" }],
        }),
        tool(3, 3, 'run_command', { command: 'npm test' }),
        done(3, 4, 'ordersHandler3 now returns early for paid orders; npm test passes (60 tests).'),
      ],
    },
    {
      title: 'Release stock on cancel',
      description: 'Rewrite src/inventory.ts so cancelled orders release their reserved stock; run npm test.',
      role: 'coder',
      turns: [
        tool(4, 1, 'read_file', { path: 'src/inventory.ts' }),
        tool(4, 2, 'write_file', { path: 'src/inventory.ts', content: sourceFile('inventory', 110) }),
        tool(4, 3, 'run_command', { command: 'npm test' }),
        done(4, 4, 'src/inventory.ts releases reserved stock when an order is cancelled; npm test passes.'),
      ],
    },
    {
      title: 'Write the release notes',
      description: 'Write docs/changes.md describing both fixes for the release notes.',
      role: 'reporter',
      turns: [
        tool(5, 1, 'read_file', { path: 'docs/README.md' }),
        tool(5, 2, 'write_file', { path: 'docs/changes.md', content: `# Changes\n\n${'- Orders are paid at most once, even when the payment callback is retried.\n'.repeat(20)}` }),
        done(5, 3, 'Wrote docs/changes.md with both fixes.'),
      ],
    },
  ];
}

function files(): Record<string, string> {
  return {
    'src/orders.ts': sourceFile('orders', 110),
    'src/payments.ts': sourceFile('payments', 100),
    'src/inventory.ts': sourceFile('inventory', 90),
    'docs/README.md': `# Shop backend\n\n${'The backend keeps orders, payments and inventory in one database and exposes them over HTTP.\n'.repeat(25)}`,
  };
}

function commands(): ScriptedCommand[] {
  return [1, 2].map(() => ({ match: 'npm test', output: [{ stream: 'stdout' as const, chunk: testOutput(60) }], exitCode: 0 }));
}

/** Prompt tokens of a request as sent: messages plus tool schemas (o200k). */
function promptTokens(request: ModelRequest): number {
  return request.messages.reduce((sum, m) => sum + countMessageTokens(o200kCounter, m), 0) + countToolTokens(o200kCounter, request.tools);
}

function stepTitleOf(request: ModelRequest): string | undefined {
  const task = request.messages.find((m) => m.role === 'user' && m.content.startsWith('# Your step'));
  return /^# Your step \(\d+ of \d+\): (.*)$/m.exec(task?.content ?? '')?.[1];
}

function ports(workspace: MemoryWorkspace) {
  return {
    tools: new ToolRegistry(builtinTools()),
    workspace,
    commands: new FakeCommandRunner(commands()),
    approver: recordingApprover(),
    asker: scriptedAsker(),
    logger: silentLogger,
    clock: systemClock,
    events: new EventStream('bench'),
    signal: new AbortController().signal,
  };
}

/**
 * Runs a scripted 5-step task through the planning flow (scripted model, in-memory workspace, tool
 * outputs of a few KB) and compares the prompt tokens of its step calls with the same steps run as
 * one growing conversation (every earlier step's transcript carried along, the same role prompts,
 * tools and plan context). `ratio` = flow / full transcript: below 1 is what the flow saves.
 */
export async function benchFlowTokens(): Promise<{
  planningPromptTokens: number;
  meanStepPromptTokens: number;
  fullTranscriptMeanStepPromptTokens: number;
  ratio: number;
}> {
  const script = steps();
  const byTitle = new Map(script.map((s) => [s.title, s]));
  const turnIndex = new Map<string, number>();
  const nextTurn = (title: string) => {
    const n = turnIndex.get(title) ?? 0;
    turnIndex.set(title, n + 1);
    return byTitle.get(title)!.turns[n] ?? new Error(`bench: step "${title}" ran out of turns`);
  };
  const plan = {
    goal: 'Stop double payments, release stock on cancel, document both',
    thought: 'Understand the payment path before changing it; document at the end.',
    steps: script.map(({ title, description, role }) => ({ title, description, role })),
  };
  const model = new ScriptedModel((request) => {
    const system = request.messages[0]?.content ?? '';
    const title = stepTitleOf(request);
    if (title) return nextTurn(title);
    if (system.startsWith('You are the planner')) return { toolCalls: [{ name: 'create_plan', arguments: plan }] };
    if (system.startsWith("You keep a team's plan")) return { toolCalls: [{ name: 'keep_plan', arguments: { reason: 'fits' } }] };
    if (system.startsWith('Write the final report')) {
      return { toolCalls: [{ name: 'write_report', arguments: { summary: 'Fixed.', findings: [], verification: 'npm test', left: [] } }] };
    }
    return new Error('bench: unexpected request');
  });
  const flowWorkspace = new MemoryWorkspace(files());
  const result = await runTask({
    ...ports(flowWorkspace),
    task: TASK,
    models: { default: model },
    planMode: 'always',
    review: 'auto',
    limits: { maxPlanSteps: 8, maxReplans: 3, maxTurnsPerStep: 10 },
  });
  if (result.outcome !== 'finished') throw new Error(`bench: the flow ended ${result.outcome}: ${result.reason}`);
  const planner = model.requests.find((r) => r.messages[0]?.content.startsWith('You are the planner'))!;
  const stepRequests = model.requests.filter((r) => stepTitleOf(r) !== undefined);
  const flowMean = mean(stepRequests.map(promptTokens));

  // The same steps as one conversation: each step starts from every earlier step's transcript.
  const finalState = result.state!;
  const fullWorkspace = new MemoryWorkspace(files());
  const fullPorts = ports(fullWorkspace);
  const fullRequests: ModelRequest[] = [];
  let history: ChatMessage[] = [];
  for (const [index, step] of finalState.plan.steps.entries()) {
    const bench = script[index]!;
    const stepModel = new ScriptedModel(bench.turns);
    // The plan context as the flow showed it when this step started (same statuses and summaries).
    const stateAtStep: FlowState = {
      ...finalState,
      plan: { ...finalState.plan, steps: finalState.plan.steps.map((s, i) => ({ ...s, status: i < index ? 'completed' : i === index ? 'in_progress' : 'pending' })) },
      notes: Object.fromEntries(finalState.plan.steps.slice(0, index).map((s) => [s.id, finalState.notes[s.id] ?? ''])),
    };
    const current = stateAtStep.plan.steps[index]!;
    const run = await runAgent({
      ...fullPorts,
      task: stepTask(stateAtStep, current),
      model: stepModel,
      tools: toolsForRole(fullPorts.tools, step.role),
      limits: { ...DEFAULT_LIMITS, maxTurns: 10 },
      systemPrompt: rolePrompt(step.role, 'en'),
      toolChoice: 'required',
      history,
      pinned: stepContext(stateAtStep, current),
    });
    if (run.outcome !== 'finished') throw new Error(`bench: full-transcript step ${index + 1} ended ${run.outcome}`);
    fullRequests.push(...stepModel.requests);
    // Carry the transcript, not the previous step's plan context (this step brings its own).
    history = run.messages.filter((m) => m.role !== 'system' && !(m.role === 'user' && m.content.startsWith("# The user's task")));
  }
  const fullMean = mean(fullRequests.map(promptTokens));
  return {
    planningPromptTokens: promptTokens(planner),
    meanStepPromptTokens: Math.round(flowMean),
    fullTranscriptMeanStepPromptTokens: Math.round(fullMean),
    ratio: Math.round((flowMean / fullMean) * 1000) / 1000,
  };
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
}
