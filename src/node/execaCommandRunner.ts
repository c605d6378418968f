import { stat } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import type { BackgroundCommand, BackgroundEnding, CommandControl, CommandRequest, CommandResult, CommandRunner, Logger } from '../agent/ports';
import { silentLogger } from '../agent/ports';
import type { EnvironmentRules } from '../agent/secrets/secretEnv';
import type { ShellInfo } from '../agent/shellInfo';
import { spawnGroupLeader, type GroupChild } from './groupSpawn';
import { BoundedOutput } from './boundedOutput';
import { pickShell } from './shell/pickShell';
import { processTree } from './shell/processTree';
import { shellInvocation, type ShellChoice, type ShellPreference } from './shell/shellChoice';
import { endTagged, killTaggedSync, nextTag, TAG_VAR } from './processTag';
import { ensureWatchdog } from './watchdog';
import { stopTrigger, within } from './commandTimers';
import type { SandboxMode } from '../shared/sandboxModes';
import { CommandSandbox, type WrappedSpawn } from './sandbox/commandSandbox';
import type { SandboxSource } from './sandbox/sandboxSource';

/** Options of `ExecaCommandRunner`. */
export interface ExecaCommandRunnerOptions {
  /** A POSIX shell run as `<shell> -c <command>`, overriding `shellPreference`. */
  shell?: string;
  /** Which shell to pick (`pickShell`), read at each command: default `auto` (bash or /bin/sh; on Windows pwsh, PowerShell 5.1, cmd.exe). */
  shellPreference?: () => ShellPreference;
  /** Time between SIGTERM and SIGKILL to the process group (default 2000 ms). */
  killGraceMs?: number;
  /** After the shell exits, how long its leftovers may keep the output open (default 250 ms). */
  drainMs?: number;
  /** Variables added to the inherited environment (after the non-interactive defaults). */
  env?: Record<string, string>;
  /** The secret rules, read at each command (default: the shell's, `setChildEnvironmentRules`). */
  environment?: () => EnvironmentRules;
  logger?: Logger;
  /** Start the watchdog that ends our commands if this process is killed (see `ensureWatchdog`). */
  watchdog?: boolean;
  /** The sandbox commands run in, asked at each command (the mode may change between tasks); `undefined`: none. */
  sandbox?: SandboxSource;
}

/** Keeps commands from waiting on a pager or a credential prompt nobody can answer. */
const NON_INTERACTIVE_ENV: Record<string, string> = {
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
  NO_COLOR: '1',
};

/** How long after SIGKILL (or after the tree is gone) the pipes may stay open before we close them. */
const FINAL_WAIT_MS = 1000;
/** Output kept of a background command after it left the tool call (head and tail). */
const BACKGROUND_OUTPUT_CHARS = 64_000;

/** What the user asked of a running command. */
type UserIntent = 'stop' | 'background';

/** One command the user can reach by id: its process group and how to tell it what they want. */
interface Controlled {
  command: string;
  pgid: number;
  tell(intent: UserIntent): void;
  /** `CommandRequest.onBackgroundEnd`. */
  onBackgroundEnd?: (ending: BackgroundEnding) => void;
  /** Set once it went to the background. */
  background?: { startedAt: number; kept: boolean; output: BoundedOutput; settled: Promise<void> };
}

/** The spawned shell and the promises its ending is followed by. */
interface Spawned {
  child: GroupChild;
  pgid: number;
  tag: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  pipesClosed: Promise<unknown>;
  /** Ran in the sandbox: everything it started lives in the sandbox's process namespace, which the kernel ends with it. */
  confined: boolean;
}

/**
 * Runs shell commands with execa, each as the leader of its own process group, so that timeout,
 * cancellation and leftovers end the whole tree: SIGTERM to the group, SIGKILL after a grace
 * delay. (execa's own `timeout`/`cancelSignal` kill only the shell; its background children would
 * keep the pipes open and the call would never end.) Once the shell exits, anything it left
 * running is stopped too, so a `sleep 300 &` cannot hang the call. Output streams to `onOutput`
 * and is kept in a `BoundedOutput`. Never rejects: failures to start come back as output.
 */
export class ExecaCommandRunner implements CommandRunner, CommandControl {
  private picked: { preference: ShellPreference; choice: Promise<ShellChoice> } | undefined;
  private readonly running = new Set<number>();
  /** Commands the user can stop or send to the background, by `CommandRequest.id`. */
  private readonly controlled = new Map<string, Controlled>();
  private readonly killGraceMs: number;
  private readonly drainMs: number;
  private readonly logger: Logger;
  /** Parent of this runner's command tags (see `processTag`). */
  private readonly tag = nextTag();

  constructor(private readonly options: ExecaCommandRunnerOptions = {}) {
    this.killGraceMs = options.killGraceMs ?? 2000;
    this.drainMs = options.drainMs ?? 250;
    this.logger = options.logger ?? silentLogger;
  }

  /** Runs `request.command` through the shell in `request.cwd`; resolves when the whole tree is gone. */
// eslint-disable-next-line max-lines-per-function -- one process lifecycle (spawn, stream, timeout, process-group kill, settle) whose steps share its local state
  async run(request: CommandRequest): Promise<CommandResult> {
    const started = performance.now();
    const output = new BoundedOutput(request.maxOutputChars);
    // The sandbox is the one way a command runs while a sandbox mode is on; leaving it needs `outsideSandbox` (a person approved it).
    const box = request.outsideSandbox ? undefined : await this.options.sandbox?.current();
    const sandboxed = box && !('unavailable' in box) ? box : undefined;
    const done = (ending: Partial<CommandResult>): CommandResult => ({
      ...(box ? { sandbox: { mode: box.mode, notes: sandboxed ? sandboxed.notes(output.toString(), request.command) : [] } } : {}),
      exitCode: null,
      signal: null,
      timedOut: false,
      cancelled: false,
      ...ending,
      output: output.toString(),
      omittedChars: output.omittedChars,
      durationMs: Math.round(performance.now() - started),
    });
    if (request.signal.aborted) return done({ cancelled: true });
    const cwdProblem = await checkFolder(request.cwd);
    if (cwdProblem) {
      output.append(cwdProblem);
      return done({});
    }
    const shell = await this.resolveShell();
    // In a sandbox (Linux) the POSIX shell runs inside bubblewrap; else the shell port's own argv.
    const spawn: (WrappedSpawn & { windowsVerbatimArguments?: boolean }) | string = box
      ? await CommandSandbox.commandSpawn(box, shell.file, request.command, request.cwd)
      : { ...shellInvocation(shell, request.command), env: {} };
    if (typeof spawn === 'string') {
      output.append(spawn);
      return done({});
    }
    if (this.options.watchdog) ensureWatchdog();
    // Inherited by everything the command starts, even what leaves the group or session (setsid).
    const tag = nextTag(this.tag);
    let child: GroupChild;
    try {
      // Secrets stay out of commands: the inherited environment is cleaned by the one builder, not
      // extended; the tag marks every process of this command (and what it starts) for the /proc sweep.
      // The sandbox (when on) already wrapped the shell into `spawn`.
      ({ child } = await spawnGroupLeader(spawn.file, spawn.args, {
        cwd: request.cwd,
        explicit: { ...NON_INTERACTIVE_ENV, ...this.options.env, ...request.env, ...spawn.env, [TAG_VAR]: tag },
        rules: this.options.environment?.(),
        stdin: 'ignore',
        ...(request.input !== undefined ? { input: request.input } : {}),
        ...(spawn.windowsVerbatimArguments ? { windowsVerbatimArguments: true } : {}),
      }));
    } catch (error) {
      output.append(`Could not start ${shell.file}: ${error instanceof Error ? error.message : String(error)}`);
      return done({});
    }
    const pgid = child.pid;
    if (pgid === undefined) {
      const failure = await child;
      output.append(`Could not start ${shell.file}: ${failure.shortMessage ?? failure.message}`);
      return done({});
    }
    this.running.add(pgid);
    processTree.started(pgid);
    let sentToBackground = false;
    let intent: (what: UserIntent) => void = () => undefined;
    const asked = new Promise<UserIntent>((resolve) => (intent = resolve));
    const id = request.id;
    const controlled: Controlled = { command: request.command, pgid, tell: (what) => intent(what), onBackgroundEnd: request.onBackgroundEnd };
    if (id !== undefined) this.controlled.set(id, controlled);
    try {
      // Where output goes: the call's output and listener, or once in the background its own buffer.
      let sink = (text: string, stream: 'stdout' | 'stderr') => {
        output.append(text);
        try {
          request.onOutput?.(text, stream);
        } catch (error) {
          this.logger.warn('onOutput listener threw', error);
        }
      };
      const emit = (text: string, stream: 'stdout' | 'stderr') => {
        if (text !== '') sink(text, stream);
      };
      const pipesClosed = Promise.all([pump(child.stdout, 'stdout', emit), pump(child.stderr, 'stderr', emit)]);
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
        child.once('exit', (code, signal) => resolve({ code, signal }));
      });
      const spawned: Spawned = { child, pgid, tag, exited, pipesClosed, confined: sandboxed !== undefined };
      const stop = stopTrigger(request.timeoutMs, request.signal);
      let first: 'exit' | 'timeout' | 'cancel' | UserIntent;
      try {
        first = await Promise.race([exited.then(() => 'exit' as const), stop.reason, asked]);
      } finally {
        stop.dispose();
      }
      if (first === 'background' && id !== undefined) {
        // The call returns now; the command goes on, its later output kept apart and bounded.
        sentToBackground = true;
        const kept = new BoundedOutput(BACKGROUND_OUTPUT_CHARS);
        sink = (text) => kept.append(text);
        const settled = this.followInBackground(id, controlled, spawned);
        controlled.background = { startedAt: Date.now(), kept: false, output: kept, settled };
        this.logger.info(`Command ${id} (pid ${pgid}) goes on in the background`);
        return done({ background: { pid: pgid } });
      }
      if (first === 'timeout') this.logger.info(`Command timed out after ${request.timeoutMs} ms; stopping its process group`);
      if (first === 'stop') this.logger.info(`The user stopped command ${id ?? ''} (pid ${pgid})`);
      const ending = await this.windDown(spawned, first === 'exit');
      return done({
        exitCode: ending?.code ?? null,
        signal: ending?.signal ?? null,
        timedOut: first === 'timeout',
        cancelled: first === 'cancel',
        ...(first === 'stop' ? { stoppedByUser: true } : {}),
      });
    } finally {
      if (!sentToBackground) {
        this.running.delete(pgid);
        processTree.ended(pgid);
        if (id !== undefined && this.controlled.get(id) === controlled) this.controlled.delete(id);
        void child.catch(() => undefined);
      }
    }
  }

  /** The sandbox commands run in now (`off` when none is set). */
  sandboxMode(): SandboxMode {
    return this.options.sandbox?.mode() ?? 'off';
  }

  /** Stops a running or background command by id (its whole tree); false when none has that id. */
  stop(id: string): boolean {
    const entry = this.controlled.get(id);
    if (!entry) return false;
    entry.tell('stop');
    return true;
  }

  /** Lets a running command go on in the background: its `run` resolves now. False when none runs (or it already is). */
  toBackground(id: string): boolean {
    const entry = this.controlled.get(id);
    if (!entry || entry.background) return false;
    entry.tell('background');
    return true;
  }

  /** The background commands still running, oldest first. */
  backgroundCommands(): BackgroundCommand[] {
    const out: BackgroundCommand[] = [];
    for (const [id, entry] of this.controlled) {
      if (!entry.background) continue;
      out.push({ id, command: entry.command, pid: entry.pgid, startedAt: entry.background.startedAt, kept: entry.background.kept, output: entry.background.output.toString() });
    }
    return out;
  }

  /** Stops background commands (all when `ids` is omitted); resolves once their trees are gone. */
  async stopBackground(ids?: readonly string[]): Promise<void> {
    const settling: Promise<void>[] = [];
    for (const [id, entry] of this.controlled) {
      if (!entry.background || (ids && !ids.includes(id))) continue;
      entry.tell('stop');
      settling.push(entry.background.settled);
    }
    await Promise.all(settling);
  }

  /** Marks background commands as kept past their task's end. */
  keep(ids: readonly string[]): void {
    for (const id of ids) {
      const background = this.controlled.get(id)?.background;
      if (background) background.kept = true;
    }
  }

  /** Follows a background command until it exits or is stopped, then forgets it. */
  private async followInBackground(id: string, entry: Controlled, spawned: Spawned): Promise<void> {
    let intent: (what: UserIntent) => void = () => undefined;
    const asked = new Promise<UserIntent>((resolve) => (intent = resolve));
    entry.tell = intent;
    try {
      const first = await Promise.race([spawned.exited.then(() => 'exit' as const), asked]);
      const ending = await this.windDown(spawned, first === 'exit');
      this.logger.info(`Background command ${id} ended (${first === 'exit' ? `exit code ${ending?.code ?? '?'}` : 'stopped'})`);
      this.tellEnding(id, entry, first === 'exit' ? { exitCode: ending ? ending.code : null, stopped: false } : { exitCode: null, stopped: true });
    } catch (error) {
      this.logger.warn(`Following background command ${id} failed`, error);
    } finally {
      this.running.delete(spawned.pgid);
      processTree.ended(spawned.pgid);
      if (this.controlled.get(id) === entry) this.controlled.delete(id);
      void spawned.child.catch(() => undefined);
    }
  }

  /** Tells the command's owner how it ended; a throwing listener is logged, never breaks the runner. */
  private tellEnding(id: string, entry: Controlled, ending: BackgroundEnding): void {
    try { entry.onBackgroundEnd?.(ending); } catch (error) { this.logger.warn(`onBackgroundEnd listener of ${id} threw`, error); }
  }

  /**
   * Ends what is left of a command: after the shell exited, its leftovers once the pipes had a moment
   * to drain; otherwise (timeout, stop) the whole group. Then the tagged strays, and the pipes.
   */
  private async windDown(spawned: Spawned, shellExited: boolean): Promise<{ code: number | null; signal: NodeJS.Signals | null } | undefined> {
    const { child, pgid, tag, exited, pipesClosed, confined } = spawned;
    if (shellExited) {
      const drained = await within(pipesClosed, this.drainMs);
      // Sandboxed, nothing can be left: the shell's exit ended the process namespace (only bwrap's zombie may linger in the group).
      if (!drained || (!confined && (await processTree.hasMembers(pgid)))) await this.terminate(pgid);
    } else {
      await this.terminate(pgid);
    }
    // What left the group (setsid daemons) still carries the tag: end it too. Nothing leaves a sandbox's namespace.
    const swept = confined ? [] : await endTagged(tag, { graceMs: this.killGraceMs });
    if (swept.length > 0) this.logger.info(`Ended ${swept.length} process(es) the command left outside its process group`);
    const exit = await within(exited, FINAL_WAIT_MS);
    if (!(await within(pipesClosed, FINAL_WAIT_MS))) {
      // Someone outside the group (e.g. a `setsid` daemon) holds the pipes: stop listening.
      child.stdout?.destroy();
      child.stderr?.destroy();
      await pipesClosed;
    }
    return exit === false ? undefined : exit;
  }

  /** Kills (SIGKILL) every process group still running and every tagged process; for shutting down the host. */
  dispose(): void {
    for (const pgid of this.running) processTree.killSync(pgid);
    this.running.clear();
    this.controlled.clear();
    killTaggedSync(this.tag);
  }

  /** Ends the command's tree (`processTree.end`: the group on POSIX, the parent chain on Windows). */
  private async terminate(pgid: number): Promise<void> {
    const forced = await processTree.end(pgid, this.killGraceMs);
    if (forced) this.logger.info(forced);
  }

  /** The shell commands run through (picked at the first call: `pickShell`). */
  async shell(): Promise<ShellInfo> {
    const { dialect, name } = await this.resolveShell();
    return { dialect, name };
  }

  private resolveShell(): Promise<ShellChoice> {
    const fixed = this.options.shell;
    const preference = this.options.shellPreference?.() ?? 'auto';
    // Picked once per preference: a changed setting applies to the next command.
    if (this.picked?.preference !== preference) {
      this.picked = { preference, choice: fixed ? Promise.resolve<ShellChoice>({ dialect: 'posix', name: fixed, file: fixed }) : pickShell(preference) };
    }
    return this.picked.choice;
  }
}

/** Reads a pipe to its end, decoding UTF-8 without splitting characters across chunks. */
function pump(
  stream: Readable | null | undefined,
  name: 'stdout' | 'stderr',
  emit: (text: string, stream: 'stdout' | 'stderr') => void,
): Promise<void> {
  return new Promise((resolve) => {
    if (!stream) return resolve();
    const decoder = new StringDecoder('utf8');
    stream.on('data', (chunk: Buffer | string) => emit(typeof chunk === 'string' ? chunk : decoder.write(chunk), name));
    stream.on('error', () => undefined);
    stream.once('close', () => {
      emit(decoder.end(), name);
      resolve();
    });
  });
}

async function checkFolder(cwd: string): Promise<string | undefined> {
  try {
    if ((await stat(cwd)).isDirectory()) return undefined;
    return `Cannot run the command: ${cwd} is not a folder.`;
  } catch {
    return `Cannot run the command: the folder ${cwd} does not exist.`;
  }
}
