import type { AgentEvent, ApprovalCategory } from '../../shared/events';
import type { CheckpointSetup } from '../checkpoints/checkpointTypes';
import { TaskCheckpoints } from '../checkpoints/taskCheckpoints';
import { trackWrites } from '../checkpoints/trackWrites';
import { isCancellation } from '../errors';
import type { EventStream } from '../events/eventStream';
import { noHooks, type HookSource } from '../hooks/hookConfig';
import type { ModelToolCall } from '../model/types';
import type { Clock, CommandControl, CommandRunner, Logger, Workspace } from '../ports';
import type { ShellSyntax } from '../policy/shellSyntax';
import { detectCheck } from '../verify/detectCheck';
import { Evidence } from '../verify/evidence';
import { Verifier, type FinishVerdict, type VerifySettings } from '../verify/verifier';

/** What the guards need from the task. */
export interface TaskGuardPorts {
  workspace: Workspace;
  commands: CommandRunner;
  events: EventStream;
  logger: Logger;
  clock: Clock;
  checkpoints?: CheckpointSetup;
  verify?: VerifySettings;
  /** The shell parser, so a check inside a command line counts (`cd web && npm test`); plain splitting without it. */
  shellSyntax?: () => Promise<ShellSyntax>;
  /** The task's hooks: commands that may change any file around any call. */
  hooks?: readonly HookSource[];
}

/**
 * The tools that change files only through `Workspace.writeFile` (and so only through the
 * guards' tracked workspace): after one of them, the next checkpoint looks at the paths it wrote
 * alone. Any other tool that may change the workspace makes the next checkpoint look at everything.
 */
export const WORKSPACE_WRITERS: ReadonlySet<string> = new Set(['write_file', 'edit_file']);

/** The default when a shell passes no settings: ask for the detected check, run none. */
export const DEFAULT_VERIFY: VerifySettings = { mode: 'auto', commands: [] };

/**
 * A task's checkpoints and evidence, with the hooks the inner agent runs call: a checkpoint before
 * every tool call that may change the workspace (edits, commands, MCP tools) and the judgement of
 * `finish`. One per `runTask` / `retryStep` call; `start` before the body, `stop` after.
 */
export class TaskGuards {
  readonly checkpoints: TaskCheckpoints;
  /** The workspace the task's agents use: its writes are reported to the checkpoints. */
  readonly workspace: Workspace;
  readonly evidence: Evidence;
  private verifier: Verifier | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly ports: TaskGuardPorts) {
    this.checkpoints = new TaskCheckpoints(ports.checkpoints ?? {}, ports.events, ports.logger, ports.clock);
    this.workspace = trackWrites(ports.workspace, (rel) => this.checkpoints.wrote(rel));
    const settings = ports.verify ?? DEFAULT_VERIFY;
    this.evidence = new Evidence(settings.commands);
    this.checkpoints.onTree((tree, callId) => this.evidence.observeTree(tree, callId));
  }

  /** Detects the workspace's check, follows the task's events, starts the start checkpoint (in the background). */
  async start(signal: AbortSignal): Promise<void> {
    const settings = this.ports.verify ?? DEFAULT_VERIFY;
    const detected = settings.mode === 'off' || settings.commands.length ? undefined : await detectCheck(this.ports.workspace);
    this.verifier = new Verifier(settings, this.evidence, { commands: this.ports.commands, root: this.ports.workspace.root, events: this.ports.events }, detected);
    const syntax = await this.ports.shellSyntax?.().catch((error: unknown) => this.ports.logger.warn('shell parser unavailable for checks', error));
    if (syntax) this.evidence.useSyntax(syntax);
    this.unsubscribe = this.ports.events.subscribe((envelope) => {
      this.evidence.observe(envelope.event);
      this.observeResult(envelope.event);
    });
    // The first snapshot of a big tree takes seconds: it runs while the model thinks; every later
    // checkpoint (the first call that may write included) waits for it (TaskCheckpoints queues them).
    this.checkpoints.take('task_start', {}, signal).catch((error: unknown) => {
      if (!isCancellation(error)) this.ports.logger.error('start checkpoint failed', error);
    });
  }

  /** Takes the end checkpoint (whatever the outcome) and stops following events. */
  async stop(): Promise<void> {
    try {
      await this.checkpoints.take('task_end');
    } finally {
      this.unsubscribe?.();
    }
  }

  /** The note naming the check for the agents' context. */
  contextNote(): string | undefined {
    return this.verifier?.contextNote();
  }

  /** Hook: before a tool call runs; checkpoints calls that may change the workspace. */
  readonly beforeTool = async (call: ModelToolCall, category: ApprovalCategory | 'meta' | undefined, signal: AbortSignal): Promise<void> => {
    if (category === 'read' || category === 'meta' || category === undefined) return;
    // A command still running in the background may have written since the last snapshot, and may
    // write (or end, having written) before the next one.
    const background = this.backgroundRunning();
    if (background) this.checkpoints.willChange();
    await this.checkpoints.take('tool', { callId: call.id, tool: call.name }, signal);
    // Hooks run commands around calls (reads included), so with any hook nothing is vouched for.
    if (category === 'edit' && WORKSPACE_WRITERS.has(call.name) && !background && noHooks(this.ports.hooks ?? [])) this.checkpoints.willWrite();
    else this.checkpoints.willChange();
    this.writer = { callId: call.id, category };
  };

  /** The last call that may write, and its category: an edit that failed wrote nothing (edits are all or nothing). */
  private writer: { callId: string; category: ApprovalCategory } | undefined;

  /** Follows tool results: a failed or refused edit leaves the latest snapshot standing. */
  private observeResult(event: AgentEvent): void {
    if (event.type !== 'tool_result' || event.callId !== this.writer?.callId) return;
    if (event.isError && this.writer.category === 'edit') this.checkpoints.changedNothing();
    this.writer = undefined;
  }

  private backgroundRunning(): boolean {
    const commands = this.ports.commands as Partial<CommandControl>;
    return typeof commands.backgroundCommands === 'function' && commands.backgroundCommands().length > 0;
  }

  /** Hook: judges a `finish` call (a checkpoint first, so a command's last changes count). */
  readonly judgeFinish = async (signal: AbortSignal): Promise<FinishVerdict> => {
    try {
      await this.checkpoints.take('finish', {}, signal);
      // The checks it may run write too (build output, caches): the next call's checkpoint looks again.
      this.checkpoints.willChange();
      return this.verifier ? await this.verifier.judge(signal) : { accept: true };
    } catch (error) {
      if (isCancellation(error)) throw error;
      this.ports.logger.error('finish check failed', error);
      return { accept: true };
    }
  };
}
