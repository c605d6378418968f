import { isRunning } from '../../support/processes';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { systemClock } from '../../../src/agent/clock';
import { EventStream } from '../../../src/agent/events/eventStream';
import { runAgent } from '../../../src/agent/loop/runAgent';
import { createToolContext } from '../../../src/agent/loop/toolContext';
import { DEFAULT_LIMITS, type AgentRunResult } from '../../../src/agent/loop/runTypes';
import { silentLogger, type ApprovalDecision, type ApprovalRequest, type Asker } from '../../../src/agent/ports';
import type { ToolContext } from '../../../src/agent/tools/tool';
import { ToolRegistry } from '../../../src/agent/tools/toolRegistry';
import { McpHub, type McpHubOptions, type McpServerConfig, type McpServerState } from '../../../src/mcp';
import type { AgentEvent, AgentEventOf } from '../../../src/shared/events';
import { ScriptedModel, type ScriptStep } from '../../support/scriptedModel';
import { PolicyApprover } from '../../../src/agent/policy/policyApprover';
import { nodeShellSyntax } from '../../../src/node/shellWasm';
import type { ApprovalCategory } from '../../../src/shared/events';
import { recordingApprover, scriptedAsker, stubCommandRunner, stubWorkspace } from '../../support/stubPorts';

const modules = resolve(__dirname, '../../../node_modules/@modelcontextprotocol');
/** Entry points of the reference servers installed as dev dependencies. */
export const EVERYTHING_SCRIPT = join(modules, 'server-everything/dist/index.js');
export const FILESYSTEM_SCRIPT = join(modules, 'server-filesystem/dist/index.js');
export const MEMORY_SCRIPT = join(modules, 'server-memory/dist/index.js');

/** A stdio server entry as the config loader would produce it. */
export function stdioServer(name: string, args: string[], extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return { name, source: 'test', enabled: true, autoApprove: [], kind: 'stdio', command: 'node', args, env: {}, ...extra } as McpServerConfig;
}

/** server-everything over stdio. */
export function everythingStdio(name = 'everything', extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return stdioServer(name, [EVERYTHING_SCRIPT, 'stdio'], extra);
}

/** A hub on a fresh registry that records every state; `nodeExecPath` is this Node. */
export function makeHub(options: Partial<McpHubOptions> = {}) {
  const registry = options.registry ?? new ToolRegistry();
  const states: McpServerState[] = [];
  const waiters = new Set<() => void>();
  const hub = new McpHub({
    registry,
    nodeExecPath: process.execPath,
    ...options,
    onStateChange: (state) => {
      states.push(state);
      options.onStateChange?.(state);
      for (const wake of [...waiters]) wake();
    },
  });
  /** Resolves when `predicate` holds for the hub's current state (checked on every change). */
  const waitFor = (predicate: () => boolean, what: string, timeoutMs = 20_000): Promise<void> =>
    new Promise((resolvePromise, reject) => {
      const check = () => {
        if (!predicate()) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolvePromise();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}; states: ${JSON.stringify(hub.states())}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return { hub, registry, states, waitFor };
}

/**
 * The shells' approval setup: the core's policy (with `autoApprove` categories) around a recording
 * "person" that answers by `decide`; `requests` are the ones that reached the person.
 */
export function policyApprover(decide?: (request: ApprovalRequest) => ApprovalDecision, autoApprove: ApprovalCategory[] = []) {
  const person = recordingApprover(decide);
  const policy = new PolicyApprover(() => ({ autoApprove, commandsAllow: [], commandsDeny: [] }), person, nodeShellSyntax);
  return Object.assign(policy, { requests: person.requests });
}

/** A tool context for calling registry tools directly; approvals through the policy, answered by `decide`, events recorded. */
export function directContext(
  options: { signal?: AbortSignal; decide?: (request: ApprovalRequest) => ApprovalDecision; asker?: Asker; callId?: string } = {},
) {
  const events: AgentEvent[] = [];
  const approver = policyApprover(options.decide);
  const context: ToolContext = createToolContext(
    {
      workspace: stubWorkspace(),
      commands: stubCommandRunner(),
      approver,
      asker: options.asker ?? scriptedAsker(),
      logger: silentLogger,
      signal: options.signal ?? new AbortController().signal,
      emit: (event) => events.push(event),
    },
    options.callId ?? 'call_direct',
    'direct',
  );
  return { context, events, approver };
}

/** Parses and executes one call the way the loop does. */
export async function callTool(registry: ToolRegistry, name: string, args: unknown, context: ToolContext) {
  const parsed = registry.parseArguments(name, JSON.stringify(args));
  if (!parsed.ok) return { content: parsed.message, isError: true as const };
  return registry.execute(name, parsed.args, context);
}

/** Runs the real agent loop on a scripted model over `registry`. */
export async function runScripted(
  registry: ToolRegistry,
  script: ScriptStep[],
  options: {
    decide?: (request: ApprovalRequest) => ApprovalDecision;
    signal?: AbortSignal;
    task?: string;
    /** Sees each event as it is emitted (e.g. to cancel or kill at a chosen moment). */
    onEvent?: (event: AgentEvent) => void;
    /** The scripted model reads images. */
    vision?: boolean;
  } = {},
): Promise<{ result: AgentRunResult; events: AgentEvent[]; model: ScriptedModel; approvals: ApprovalRequest[] }> {
  const model = new ScriptedModel(script);
  if (options.vision) Object.defineProperty(model, 'vision', { value: true });
  const events: AgentEvent[] = [];
  const stream = new EventStream('mcp-test');
  stream.subscribe((envelope) => {
    events.push(envelope.event);
    options.onEvent?.(envelope.event);
  });
  const approver = policyApprover(options.decide);
  const result = await runAgent({
    task: options.task ?? 'Use the MCP tools.',
    model,
    tools: registry,
    workspace: stubWorkspace(),
    commands: stubCommandRunner(),
    approver,
    asker: scriptedAsker(),
    logger: silentLogger,
    clock: systemClock,
    events: stream,
    signal: options.signal ?? new AbortController().signal,
    limits: { ...DEFAULT_LIMITS, maxTurns: 10 },
  });
  return { result, events, model, approvals: approver.requests };
}

/** Events of one type. */
export function ofType<T extends AgentEvent['type']>(events: AgentEvent[], type: T): AgentEventOf<T>[] {
  return events.filter((event): event is AgentEventOf<T> => event.type === type);
}

/** True when no live process has this PID (a zombie counts as gone: PID 1 here does not reap). */
export function processGone(pid: number): boolean {
  return !isRunning(pid);
}

/** PIDs of live processes whose command line contains `marker`. */
export function livePidsWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker) && !processGone(Number(entry))) pids.push(Number(entry));
    } catch {}
  }
  return pids;
}

/** A temp folder removed by the returned function. */
export async function tempDir(prefix: string): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** The server's words inside a tool result's untrusted-content frame (the frame itself is checked in test/unit/web/untrustedText.test.ts). */
export function unframed(content: string): string {
  const match = /^<<<UNTRUSTED CONTENT \(MCP tool result\)[^\n]*\nSource: [^\n]*\n---\n([\s\S]*)\nEND OF UNTRUSTED CONTENT>>>$/.exec(content);
  return match ? match[1]! : content;
}
