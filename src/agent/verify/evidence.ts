import type { AgentEvent } from '../../shared/events';
import type { ShellSyntax } from '../policy/shellSyntax';
import { runsCheck } from './checkRunners';

/** A check that ran in the task, in order with the task's tool results. */
export interface CheckRun {
  command: string;
  /** `null` when it timed out or was killed. */
  exitCode: number | null;
  /** Position among the task's tool results (and Stepwise's own check runs). */
  index: number;
  /** Run by Stepwise at `finish` (a configured check), not by the agent. */
  byStepwise?: boolean;
}

const FILE_TOOLS = new Set(['write_file', 'edit_file']);

/**
 * What a task did that a claim of "done and checked" must rest on: when files last changed (file
 * tools, and any tool call whose next checkpoint shows different files) and which checks ran, with
 * their exit codes: the configured checks, the workspace's detected one, and the test, build,
 * type-check and lint runners the agent ran itself (`checkRunners.ts`, through the shell parser, so
 * `cd web && npm test` counts). A command sent to the background counts once its ending is known.
 * A check's own side effects (coverage files, caches) do not count as changes.
 */
export class Evidence {
  private index = 0;
  private lastChange = -1;
  private readonly calls = new Map<string, { name: string; command?: string; index?: number }>();
  private readonly runs: CheckRun[] = [];
  private prevTree: string | undefined;
  private prevCallId: string | undefined;
  private syntax: ShellSyntax | undefined;

  /** `checks`: the configured checks and the workspace's detected one (matched as a part of a command line). */
  constructor(private readonly checks: readonly string[]) {}

  /** Reads command lines with the core's shell parser from now on (loaded by the task's start). */
  useSyntax(syntax: ShellSyntax): void {
    this.syntax = syntax;
  }

  /** True when `command` runs a check (a known runner, or a configured or detected check). */
  isCheck(command: string): boolean {
    return runsCheck(command, this.checks, this.syntax);
  }

  /** Feeds one event of the task's stream. */
  observe(event: AgentEvent): void {
    if (event.type === 'tool_call') {
      const args = event.args as { command?: unknown } | undefined;
      this.calls.set(event.callId, { name: event.name, ...(typeof args?.command === 'string' ? { command: args.command } : {}) });
      return;
    }
    if (event.type === 'command_ended') {
      // A background command ended: it ran on the files as they were when it started.
      const call = this.calls.get(event.callId);
      if (call?.command !== undefined && call.index !== undefined && !event.stopped && this.isCheck(call.command)) {
        this.runs.push({ command: call.command, exitCode: event.exitCode, index: call.index });
      }
      return;
    }
    if (event.type !== 'tool_result') return;
    const call = this.calls.get(event.callId);
    const index = ++this.index;
    if (call) call.index = index;
    if (!event.isError && FILE_TOOLS.has(event.name)) this.lastChange = index;
    if (call?.command === undefined || event.stopped || event.background || !this.isCheck(call.command)) return;
    const code = event.exitCode !== undefined ? event.exitCode : exitCodeInText(event.content);
    if (code !== undefined) this.runs.push({ command: call.command, exitCode: code, index });
  }

  /** Feeds the tree of a checkpoint taken before `callId` (or at a step or the end): a different tree means the previous call changed files. */
  observeTree(tree: string, callId?: string): void {
    if (this.prevTree !== undefined && tree !== this.prevTree) {
      const culprit = this.prevCallId ? this.calls.get(this.prevCallId) : undefined;
      const isCheck = culprit?.command !== undefined && this.isCheck(culprit.command);
      if (!isCheck) this.lastChange = Math.max(this.lastChange, culprit?.index ?? this.index);
    }
    this.prevTree = tree;
    this.prevCallId = callId;
  }

  /** Records a check Stepwise ran itself. */
  recordCheck(command: string, exitCode: number | null): CheckRun {
    const run = { command, exitCode, index: ++this.index, byStepwise: true };
    this.runs.push(run);
    return run;
  }

  /** True once the task changed a file. */
  get changedFiles(): boolean {
    return this.lastChange >= 0;
  }

  /** Checks that ran after the last change, in order. */
  checksAfterLastChange(): CheckRun[] {
    return this.runs.filter((r) => r.index > this.lastChange);
  }

  /** True when `command` ran after the last change and exited 0. */
  passedAfterLastChange(command?: string): boolean {
    return this.checksAfterLastChange().some((r) => r.exitCode === 0 && (command === undefined || r.command.trim() === command.trim()));
  }
}

/** A command result's exit code from its text (`exit code 1`), `null` when it timed out or was killed; `undefined` when it says neither. */
function exitCodeInText(content: string): number | null | undefined {
  const code = /^exit code (-?\d+)/.exec(content);
  if (code) return Number(code[1]);
  return /^timed out|^killed/.test(content) ? null : undefined;
}
