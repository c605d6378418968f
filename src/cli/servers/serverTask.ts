import path from 'node:path';
import { stat } from 'node:fs/promises';
import type { Approver, Asker } from '../../agent/ports';
import type { AgentEventOf, EventEnvelope } from '../../shared/events';
import type { ApprovalCategory } from '../../shared/events';
import type { PlanMode } from '../../shared/vocabulary';
import { parseCliArgs, UsageError } from '../cliArgs';
import { cliRules, readCliConfig } from '../cliConfig';
import { runCli } from '../runCli';

/**
 * What a server shell (`stepwise mcp | serve | acp`) was started with: the `run` flags every task
 * it starts gets (model, endpoint, command lists, budgets…), checked once at start by the CLI's own
 * parser, and the categories those flags auto-approve (a task may ask for fewer, never more).
 */
export interface ServerStart {
  args: string[];
  autoApprove: ApprovalCategory[];
  workspace: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  stderr: (text: string) => void;
}

/** One task a server starts: the text, where, how; `resume` continues a stored task (a follow-up). */
export interface ServerTaskSpec {
  task: string;
  workspace?: string;
  planMode?: PlanMode;
  /** Asked-for auto-approve categories; cut to the server's own (`allowedCategories`). */
  autoApprove?: readonly ApprovalCategory[];
  resume?: string;
  mcpConfig?: string;
}

/** The person-side hooks of a task: who answers approvals and questions, who hears the events. */
export interface ServerTaskHooks {
  onEnvelope: (envelope: EventEnvelope) => void;
  approver?: Approver;
  asker?: Asker;
  signal: AbortSignal;
}

/** How a server task ended: the CLI's exit code, the last event, the task's id, what went wrong before it started. */
export interface ServerTaskResult {
  code: number;
  runId?: string;
  finished?: AgentEventOf<'run_finished'>;
  /** Why no run started (a usage error), in the CLI's words. */
  problem?: string;
}

const SHELL_FLAGS = new Set(['--json', '--workspace', '--review']);
const PLAN_FLAGS = new Set(['--plan', '--no-plan']);

/** Checks a server's start flags with the CLI's `run` parser; throws `UsageError` as `run` would. */
export async function parseServerStart(args: string[], io: { env: NodeJS.ProcessEnv; cwd: string; stderr: (text: string) => void }): Promise<ServerStart> {
  const options = parseCliArgs(['run', 'probe', ...args], io.env, io.cwd);
  if (!options) throw new UsageError('help');
  if (!options.model) throw new UsageError('No model: pass --model or set STEPWISE_MODEL');
  const info = await stat(options.workspace).catch(() => undefined);
  if (!info?.isDirectory()) throw new UsageError(`--workspace is not a folder: ${options.workspace}`);
  const file = options.config ? await readCliConfig(path.resolve(io.cwd, options.config)) : {};
  return { args: withoutShellFlags(args), autoApprove: [...cliRules(options, file).autoApprove], workspace: options.workspace, ...io };
}

/** The start flags a server decides per task itself (output format, folder, plan mode) are taken out. */
function withoutShellFlags(args: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const name = arg.split('=')[0]!;
    if (!SHELL_FLAGS.has(name)) kept.push(arg);
    else if (!arg.includes('=') && (name === '--workspace' || name === '--review')) i++;
  }
  return kept;
}

/** The categories a task may auto-approve: what it asks for, limited to what the server was started with. */
export function allowedCategories(server: readonly ApprovalCategory[], asked: readonly ApprovalCategory[] | undefined): ApprovalCategory[] {
  return asked === undefined ? [...server] : server.filter((c) => asked.includes(c));
}

/** The `stepwise run` (or `resume`) command line of one server task. */
export function serverTaskArgv(start: ServerStart, spec: ServerTaskSpec): string[] {
  const head = spec.resume ? ['resume', spec.resume, ...(spec.task.trim() ? [spec.task] : [])] : ['run', spec.task];
  const plan = spec.planMode === 'always' ? ['--plan'] : spec.planMode === 'never' ? ['--no-plan'] : [];
  return [
    ...head,
    // A task's own plan mode replaces the server's --plan / --no-plan.
    ...(spec.planMode ? start.args.filter((a) => !PLAN_FLAGS.has(a)) : start.args),
    '--workspace', spec.workspace ?? start.workspace,
    ...plan,
    '--auto-approve', allowedCategories(start.autoApprove, spec.autoApprove).join(','),
    ...(spec.mcpConfig ? ['--mcp-config', spec.mcpConfig] : []),
    '--json',
  ];
}

/**
 * Runs one task through `runCli` itself — the same parser, settings, approval policy, history and
 * ending as `stepwise run` — with the server's hooks in place of the terminal. Never throws for a
 * user error: a task that could not start says why in `problem`.
 */
export async function runServerTask(start: ServerStart, spec: ServerTaskSpec, hooks: ServerTaskHooks): Promise<ServerTaskResult> {
  let runId: string | undefined;
  let finished: AgentEventOf<'run_finished'> | undefined;
  let said = '';
  const code = await runCli({
    argv: serverTaskArgv(start, spec),
    env: start.env,
    cwd: start.cwd,
    // With `onEnvelope` the run prints nothing on stdout; a server's stdout may be its protocol.
    stdout: start.stderr,
    stderr: (text) => {
      said += text;
      start.stderr(text);
    },
    color: false,
    signal: hooks.signal,
    approver: hooks.approver,
    asker: hooks.asker,
    onEnvelope: (envelope) => {
      runId ??= envelope.runId;
      if (envelope.event.type === 'run_finished') finished = envelope.event;
      hooks.onEnvelope(envelope);
    },
  });
  return { code, runId, finished, ...(finished ? {} : { problem: lastWord(said) || `the task ended with exit code ${code}` }) };
}

/** The CLI's own last word on why (its `stepwise: …` lines; the usage text after it is left out). */
function lastWord(text: string): string {
  const said = text.split('\n').filter((l) => l.startsWith('stepwise: '));
  return said.at(-1)?.slice('stepwise: '.length).trim() ?? '';
}
