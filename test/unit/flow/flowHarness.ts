import type { ModelRequest } from '../../../src/agent/model/types';
import { EventStream } from '../../../src/agent/events/eventStream';
import { silentLogger, type Clock } from '../../../src/agent/ports';
import { systemClock } from '../../../src/agent/clock';
import { builtinTools } from '../../../src/agent/tools/builtins';
import { ToolRegistry } from '../../../src/agent/tools/toolRegistry';
import { COORDINATOR_PROMPT } from '../../../src/agent/flow/coordinator';
import type { RunTaskOptions } from '../../../src/agent/flow/taskTypes';
import type { AgentEvent, AgentEventOf, Usage } from '../../../src/shared/events';
import { ScriptedModel, type ScriptedResponse, type ScriptStep } from '../../support/scriptedModel';
import { MemoryWorkspace } from '../../support/memoryWorkspace';
import { FakeCommandRunner, type ScriptedCommand } from '../../support/fakeCommandRunner';
import { recordingApprover, scriptedAsker } from '../../support/stubPorts';

/** Who sent a request, told from its system prompt (and, for steps, the step title in the task). */
export type Caller = 'coordinator' | 'planner' | 'updater' | 'report' | 'lookFirst' | 'direct' | `step:${string}`;

/** The caller of a recorded request. */
export function callerOf(request: ModelRequest): Caller {
  const system = request.messages[0]?.role === 'system' ? request.messages[0].content : '';
  if (system === COORDINATOR_PROMPT) return 'coordinator';
  if (system.startsWith('You are the planner')) return 'planner';
  if (system.startsWith("You keep a team's plan")) return 'updater';
  if (system.startsWith('Write the final report')) return 'report';
  if (system.startsWith('Before a plan is made')) return 'lookFirst';
  if (/^You are the (coder|researcher|reporter) /.test(system)) {
    const task = request.messages.find((m) => m.role === 'user' && m.content.startsWith('# Your step'));
    const title = /^# Your step \(\d+ of \d+\): (.*)$/m.exec(task?.content ?? '')?.[1];
    return `step:${title ?? '?'}`;
  }
  return 'direct';
}

/** Answers per caller; a list is consumed in order over that caller's calls (a step's key is its title). */
export type FlowScript = Partial<Record<Caller, ScriptStep[] | ((request: ModelRequest, n: number) => ScriptStep)>>;

/** A scripted model that answers each part of the flow from its own script. */
export function flowModel(script: FlowScript, id = 'scripted-model'): ScriptedModel {
  const counts = new Map<Caller, number>();
  return new ScriptedModel((request) => {
    const caller = callerOf(request);
    const n = counts.get(caller) ?? 0;
    counts.set(caller, n + 1);
    const entry = script[caller];
    if (entry === undefined) return new Error(`flowModel: nothing scripted for ${caller}`);
    const step = typeof entry === 'function' ? entry(request, n) : entry[n];
    return step ?? new Error(`flowModel: ${caller} has no answer for call ${n + 1}`);
  }, id);
}

/** A response that calls one tool. */
export function call(name: string, args: Record<string, unknown> | string, usage?: Usage): ScriptedResponse {
  return { toolCalls: [{ name, arguments: args }], ...(usage ? { usage } : {}) };
}

/** A response that calls `finish`. */
export function finish(summary: string, usage?: Usage): ScriptedResponse {
  return call('finish', { summary }, usage);
}

/** A fixed time: reports get predictable names. */
export const fixedClock: Clock = { now: () => Date.UTC(2025, 0, 2, 3, 4, 5), sleep: systemClock.sleep };

/** A test's world: the options for runTask and what to look at afterwards. */
export interface Harness {
  options: RunTaskOptions;
  events: AgentEvent[];
  workspace: MemoryWorkspace;
  commands: FakeCommandRunner;
  controller: AbortController;
  of<T extends AgentEvent['type']>(type: T): AgentEventOf<T>[];
}

/** Options for `runTask` over an in-memory workspace with the built-in tools. */
export function harness(
  model: ScriptedModel,
  setup: { task: string; files?: Record<string, string>; commands?: ScriptedCommand[] } & Omit<Partial<RunTaskOptions>, 'commands'>,
): Harness {
  const { files, commands: scriptedCommands, ...rest } = setup;
  const events: AgentEvent[] = [];
  const stream = new EventStream('run-1', fixedClock.now);
  stream.subscribe((envelope) => events.push(envelope.event));
  const workspace = new MemoryWorkspace(files ?? {});
  const commands = new FakeCommandRunner(scriptedCommands ?? []);
  const controller = new AbortController();
  const options: RunTaskOptions = {
    models: { default: model },
    tools: new ToolRegistry(builtinTools()),
    workspace,
    commands,
    approver: recordingApprover(),
    asker: scriptedAsker(),
    logger: silentLogger,
    clock: fixedClock,
    events: stream,
    signal: controller.signal,
    planMode: 'auto',
    review: 'auto',
    ...rest,
  };
  return {
    options,
    events,
    workspace,
    commands,
    controller,
    of: <T extends AgentEvent['type']>(type: T) => events.filter((e): e is AgentEventOf<T> => e.type === type),
  };
}

/** Requests of one caller, in order. */
export function requestsOf(model: ScriptedModel, caller: Caller): ModelRequest[] {
  return model.requests.filter((r) => callerOf(r) === caller);
}

/** Everything a request shows the model, as one string (to search for leaks). */
export function requestText(request: ModelRequest): string {
  return request.messages
    .map((m) => (m.role === 'assistant' ? `${m.content}${JSON.stringify(m.toolCalls ?? [])}` : m.content))
    .join('\n');
}

/** The tool names a request offered. */
export function toolNames(request: ModelRequest): string[] {
  return request.tools.map((t) => t.name).sort();
}
