import type { ApprovalCategory } from '../shared/events';
import type { SandboxMode } from '../shared/sandboxModes';
import type { ShellDialect, ShellInfo } from './shellInfo';

/** A file or folder as the workspace reports it; paths are workspace-relative with `/` separators. */
export interface FileEntry {
  path: string;
  kind: 'file' | 'dir';
}

/** Result of `Workspace.stat`; `other` is anything that is neither a regular file nor a folder (FIFO, socket, device). */
export interface FileStat {
  kind: 'file' | 'dir' | 'other';
  size: number;
  mtimeMs: number;
  /** No write bit in its mode (e.g. `0444`): tools refuse to change it, even where the OS would let them (root). */
  readonly?: boolean;
}

/** A regex search over the workspace's non-ignored files. */
export interface SearchQuery {
  pattern: string;
  /** Folder or file to search, workspace-relative; default the root. */
  path?: string;
  /** Glob on file paths, e.g. `*.ts` or `src/**\/*.tsx`. */
  glob?: string;
  contextLines: number;
  maxMatches: number;
}

/** One match with its surrounding lines (1-based line numbers). */
export interface SearchMatch {
  path: string;
  line: number;
  text: string;
  before: string[];
  after: string[];
}

/** A file a search did not look into, and why. */
export interface SkippedFile {
  path: string;
  reason: 'size' | 'binary' | 'special';
  size: number;
}

/** Matches found, and whether the search stopped at `maxMatches`. */
export interface SearchResult {
  matches: SearchMatch[];
  truncated: boolean;
  engine: 'ripgrep' | 'js';
  /** Files left out (too big, binary, not regular), at most a few dozen listed; `skippedCount` has them all. */
  skipped?: SkippedFile[];
  skippedCount?: number;
}

/** Bytes of one file read by `Workspace.readRange`. */
export interface FileRange {
  /** At most the length asked for; fewer at the end of the file. */
  bytes: Uint8Array;
  /** The file's size when it was read. */
  size: number;
  /** Modification time when it was read (0 when unknown: nothing may be cached on it). */
  mtimeMs: number;
  /** The file's identity (inode) when known: a file replaced by another of the same size and time differs here. */
  ino?: number;
}

/**
 * The files the agent may touch. Every method confines paths to the workspace and throws
 * `PathOutsideWorkspaceError` (nothing read or written) for `..`, outside absolute paths and
 * symlinks that resolve outside; missing files throw `FileNotFoundError`.
 */
export interface Workspace {
  /** Absolute path of the workspace folder (the cwd for commands). */
  readonly root: string;
  /** Normalises a path given by the model to a workspace-relative POSIX path, or throws. */
  resolve(path: string): Promise<string>;
  /** `undefined` when nothing exists at the path. */
  stat(path: string): Promise<FileStat | undefined>;
  /** The whole file; `ToolError` for anything but a regular file (FIFO, socket, device), before any read. */
  readFile(path: string, signal?: AbortSignal): Promise<Uint8Array>;
  /**
   * `length` bytes from `offset` (fewer at the end), reading only those: any file size. Same
   * refusals as `readFile`. Hosts may answer from an unsaved editor buffer.
   */
  readRange(path: string, range: { offset: number; length: number }, signal?: AbortSignal): Promise<FileRange>;
  /**
   * Optional: the file from `offset` to its end as consecutive chunks read through one open file
   * (big sequential reads the OS reads ahead of), each with the file's size and time as of the
   * open. A chunk's bytes may be reused once the chunk after the next is asked for: count, do not
   * keep. For whole-file scans (the line index); without it callers loop over `readRange`.
   */
  readChunks?(path: string, offset: number, signal?: AbortSignal): AsyncIterable<FileRange>;
  /** Atomic: the file is either the old content or the new, never half-written; creates folders. */
  writeFile(path: string, content: string, signal?: AbortSignal): Promise<void>;
  /** Lists entries, respecting `.gitignore` and `.stepwiseignore`, at most `limit`. */
  listFiles(
    path: string,
    options: { recursive: boolean; limit: number; signal?: AbortSignal },
  ): Promise<{ entries: FileEntry[]; truncated: boolean }>;
  /** Regex search over non-ignored text files. Throws `InvalidPatternError` for a bad regex. */
  searchFiles(query: SearchQuery, signal?: AbortSignal): Promise<SearchResult>;
}

/** A shell command to run in the workspace. */
export interface CommandRequest {
  command: string;
  cwd: string;
  timeoutMs: number;
  /** Cap on the output kept (head + tail); memory stays bounded whatever the command prints. */
  maxOutputChars: number;
  signal: AbortSignal;
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
  /** Names the command for a `CommandControl` (the tool call id): the user may stop it alone or send it to the background. */
  id?: string;
  /** Told once when the command, after it went to the background, exits or is stopped (its tree is gone by then). */
  onBackgroundEnd?: (ending: BackgroundEnding) => void;
  /** Run outside the sandbox (only after a person approved the escalation). */
  outsideSandbox?: boolean;
  /** Written to the command's stdin, then closed (hooks read their event here); without it stdin is empty. */
  input?: string;
  /** Variables set for this command on top of the one child environment (hooks: the project folder). */
  env?: Record<string, string>;
}

/** How a background command ended: it exited (`exitCode`, null for a signal) or was stopped. */
export interface BackgroundEnding {
  exitCode: number | null;
  stopped: boolean;
}

/** How a command ended. The whole process tree is gone when this resolves. */
export interface CommandResult {
  exitCode: number | null;
  /** Signal that ended the process, if any. */
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  /** Interleaved stdout+stderr, head and tail kept when over the cap. */
  output: string;
  /** Characters dropped from the middle of the output. */
  omittedChars: number;
  durationMs: number;
  /** The user stopped this command alone (`CommandControl.stop`); its process tree is gone, the task goes on. */
  stoppedByUser?: boolean;
  /** The user let it run in the background: `output` is what it printed so far and it is still running. */
  background?: { pid: number };
  /** Set when the command ran (or was to run) in the sandbox: its mode and what the sandbox blocked or cleaned up. */
  sandbox?: { mode: SandboxMode; notes: string[] };
}

/** A command the user sent to the background, as the shells list it. */
export interface BackgroundCommand {
  id: string;
  command: string;
  pid: number;
  startedAt: number;
  /** The user chose to keep it past the end of its task. */
  kept: boolean;
  /** What it printed after it went to the background (head and tail kept). */
  output: string;
}

/**
 * The user's hold on running commands (by `CommandRequest.id`), beside a `CommandRunner`: stop one
 * command, or let it run in the background, tracked until it is stopped or exits.
 */
export interface CommandControl {
  /** Stops a running or background command's process tree; false when no such command runs. */
  stop(id: string): boolean;
  /** Makes the running command's `run` resolve now (with `background`) while it goes on; false when none runs. */
  toBackground(id: string): boolean;
  /** The background commands still running. */
  backgroundCommands(): BackgroundCommand[];
  /** Stops the given background commands (all when omitted) and resolves once their trees are gone. */
  stopBackground(ids?: readonly string[]): Promise<void>;
  /** Marks background commands as kept past the end of their task (they are not offered again). */
  keep(ids: readonly string[]): void;
}

/** Runs shell commands; timeout and cancellation kill the whole process tree. */
export interface CommandRunner {
  run(request: CommandRequest): Promise<CommandResult>;
  /** The sandbox commands run in now (`off`: none). Required, so a wrapper around a runner cannot forget to pass it on. */
  sandboxMode(): SandboxMode;
  /** The shell commands run through, picked once (the system prompt names it; the policy parses its syntax). */
  shell?(): Promise<ShellInfo>;
}

/** What the agent wants to do, for the user to approve. */
export interface ApprovalRequest {
  callId: string;
  tool: string;
  category: ApprovalCategory;
  /** One line: "Edit src/a.ts", "Run `npm test`". */
  title: string;
  /** Details: the command, a unified diff, the arguments. */
  detail: string;
  diff?: { path: string; before: string; after: string };
  /** The command line itself, for `command` requests: the policy parses this, never the display text. */
  command?: { text: string; cwd: string; shell?: ShellDialect };
  /** Workspace-relative paths an `edit` request writes (protected paths always ask). */
  paths?: string[];
  /**
   * For `mcp` requests: the server and tool, whether the server's own `autoApprove` (user or trusted
   * config) lists it, and `sampling` for a server asking to use the model (always asked of a person).
   */
  mcp?: { server: string; tool: string; autoApproved: boolean; sampling?: boolean };
  /** Why the policy asks although the category is auto-approved (a protected path, a hidden command). */
  askReason?: string;
  /** For `command` requests: the sandbox it would run in, or why it asks to leave it (always asked of a person). */
  sandbox?: { mode: SandboxMode; leaveReason?: string };
  /**
   * Called by the approver just before it asks a person (idempotent): only then is the request
   * shown as waiting. A decision made without a person is recorded after it, so an auto-approved
   * call never flashes approve buttons.
   */
  announce?: () => void;
}

/** The user's answer; a rejection may carry the reason, which the model sees. */
export type ApprovalDecision = { approved: true } | { approved: false; reason?: string; /** Refused by the approval policy (deny list), not by a person. */ byPolicy?: boolean };

/** Asks the user before edits, writes, commands and MCP calls. */
export interface Approver {
  approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}

/** A question from the agent to the user. */
export interface Question {
  callId: string;
  question: string;
  options?: string[];
}

/** Asks the user a question; `undefined` when nobody can answer (headless, no TTY). */
export interface Asker {
  ask(question: Question, signal: AbortSignal): Promise<string | undefined>;
}

/** Keeps images tools produce (screenshots, MCP images) in the task's storage. */
export interface ImageStore {
  /** Saves base64 `data` under `name`; resolves with the path to show (workspace-relative when inside it). */
  save(image: { mimeType: string; data: string }, name: string, signal?: AbortSignal): Promise<string>;
}

/** Diagnostics sink; never shown to the model. */
export interface Logger {
  debug(message: string, ...details: unknown[]): void;
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

/** Time source, injectable so tests and benches control it. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A logger that drops everything. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
