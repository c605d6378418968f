import { z } from 'zod';
import { EventEnvelope, RunOutcome } from './events';
import { Plan, StepRole } from './plan';
import { MAX_TASK_IMAGES, TaskImage } from './taskImages';
import { PlanMode } from './vocabulary';
import { PermissionMode } from './sandboxModes';
import { SetupDraft, SetupModelsMessage, SetupState, SetupTestMessage } from './setupProtocol';

/** Which webview sent a message: the sidebar chat or the plan panel. */
export const WebviewKind = z.enum(['sidebar', 'panel']);
export type WebviewKind = z.infer<typeof WebviewKind>;


/** A step as the user edited it in plan review; `id` is absent for a step the user added. */
export const PlanStepDraft = z.object({
  id: z.string().min(1).optional(),
  title: z.string().trim().min(1).max(500),
  description: z.string().max(10_000),
  role: StepRole,
});
export type PlanStepDraft = z.infer<typeof PlanStepDraft>;

const id = z.string().min(1).max(200);
const text = z.string().max(100_000);

/**
 * Webview -> host: intents only. None of them writes a file or runs a command by itself; the host
 * decides what each one means (and re-checks trust, approvals and paths).
 */
export const WebviewIntent = z.discriminatedUnion('type', [
  /** The webview (re)loaded: replay events of `runId` after `lastSeq` (-1 = everything). */
  z.object({ type: z.literal('ready'), view: WebviewKind, lastSeq: z.number().int().min(-1), runId: id.optional() }),
  /** `images`: pasted or dropped into the chat box; the core re-checks their bytes and sends them to the vision model. */
  z.object({ type: z.literal('submitTask'), text: text.trim().min(1), planMode: PlanMode, images: z.array(TaskImage).max(MAX_TASK_IMAGES).optional() }),
  z.object({ type: z.literal('cancel') }),
  /** A message for the running task, delivered at its next turn boundary (or to its plan updater). */
  z.object({ type: z.literal('sendMessage'), text: text.trim().min(1) }),
  /** `always`: approve this call and every later one of the same category. */
  z.object({ type: z.literal('approve'), callId: id, always: z.boolean().optional() }),
  z.object({ type: z.literal('reject'), callId: id, reason: z.string().max(2_000).optional() }),
  z.object({ type: z.literal('answer'), callId: id, answer: text }),
  /** A workspace-relative (or absolute) path the model mentioned; the host resolves and confines it. */
  z.object({ type: z.literal('openFile'), path: z.string().min(1).max(4_096), line: z.number().int().positive().optional() }),
  z.object({ type: z.literal('setApiKey') }),
  z.object({ type: z.literal('openSettings') }),
  /** Opens the model set-up form (the fix for an endpoint, key or model error). */
  z.object({ type: z.literal('openSetup') }),
  z.object({ type: z.literal('setWebSearchKey') }),
  z.object({ type: z.literal('showLog') }),
  /** The user typed `@query` in the chat box: the host answers with `mentionSuggestions`. */
  z.object({ type: z.literal('suggestMentions'), query: z.string().max(200) }),
  /** Files or folders dropped on the chat box (`text/uri-list`); the host answers `mentionPaths` with those inside the workspace. */
  z.object({ type: z.literal('mentionUris'), uris: z.array(z.string().min(1).max(4_096)).min(1).max(50) }),
  z.object({ type: z.literal('showPanel') }),
  /** Bring the diff editor of a pending edit's review to the front (it holds the edit's Keep / Undo). */
  z.object({ type: z.literal('revealReview'), callId: id }),
  z.object({ type: z.literal('openRun'), runId: id }),
  z.object({ type: z.literal('resumeRun'), runId: id, text: text.trim().min(1) }),
  z.object({ type: z.literal('retryStep'), stepId: id }),
  z.object({ type: z.literal('runPlan'), steps: z.array(PlanStepDraft).min(1).max(100) }),
  z.object({ type: z.literal('undoTaskEdits'), runId: id }),
  /** A multi-file diff of what changed after a checkpoint (a step's or a tool call's changes). */
  z.object({ type: z.literal('showChanges'), runId: id, checkpointId: id }),
  /** Restore files and/or conversation to a checkpoint; the host asks how and confirms. */
  z.object({ type: z.literal('restoreCheckpoint'), runId: id, checkpointId: id }),
  z.object({ type: z.literal('newTask') }),
  /** Restart one MCP server now (also one that gave up or is disabled); the host decides. */
  z.object({ type: z.literal('mcpRestart'), name: id }),
  /** Turn one MCP server on or off; the host decides (and refuses in Restricted Mode). */
  z.object({ type: z.literal('mcpSetEnabled'), name: id, enabled: z.boolean() }),
  /** Summarize the running task's older turns now. */
  z.object({ type: z.literal('compactContext') }),
  /** Bring back the history a compaction replaced (the last one when `id` is absent). */
  z.object({ type: z.literal('undoCompaction'), id: id.optional() }),
  /** Pin (or unpin) a tool result so it survives eliding and compaction. */
  z.object({ type: z.literal('pinContext'), callId: id, pinned: z.boolean() }),
  /** Set-up view: list the models of the draft's endpoint (answered by `setupModels` with the same `requestId`). */
  z.object({ type: z.literal('setupListModels'), requestId: z.number().int(), draft: SetupDraft }),
  /** Set-up view: send one tiny real request with the draft (answered by `setupTestResult`). */
  z.object({ type: z.literal('setupTest'), requestId: z.number().int(), draft: SetupDraft }),
  /** Set-up view: write the settings and store the typed key (SecretStorage, per endpoint origin). */
  z.object({ type: z.literal('setupSave'), draft: SetupDraft }),
  /** Search the task history (task, outcome, plan, summaries, report); answered by `historySearch`. */
  z.object({ type: z.literal('searchHistory'), query: z.string().max(200) }),
  /** Delete a stored run; the host confirms first and refuses the running one. */
  z.object({ type: z.literal('deleteRun'), runId: id }),
  /** Export a stored run; the host asks for the format when it is absent, then where to save it. */
  z.object({ type: z.literal('exportRun'), runId: id, format: z.enum(['markdown', 'json']).optional() }),
  /** Stop one running command (its process tree); the task goes on. */
  z.object({ type: z.literal('stopCommand'), callId: id }),
  /** Let a running command go on in the background; the tool call returns now. */
  z.object({ type: z.literal('backgroundCommand'), callId: id }),
  /** The chat box's permission switch: the mode for the tasks from now on (saved as the user's setting). */
  z.object({ type: z.literal('setPermissionMode'), mode: PermissionMode }),
]);
export type WebviewIntent = z.infer<typeof WebviewIntent>;

/** Narrows the intent union to one type. */
export type WebviewIntentOf<T extends WebviewIntent['type']> = Extract<WebviewIntent, { type: T }>;

/** One finished or running task in the history list. */
export const HistoryEntry = z.object({
  runId: id,
  task: z.string(),
  ts: z.number(),
  outcome: RunOutcome.optional(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/** One entry of the chat box's `@` list: what it shows and what it inserts after the `@`. */
export const MentionSuggestion = z.object({
  label: z.string().max(1_000),
  insert: z.string().min(1).max(4_096),
  /** `command`: a prompt file, inserted as `/name` at the start of the box. */
  kind: z.enum(['file', 'folder', 'problems', 'selection', 'terminal', 'changes', 'command']),
});
export type MentionSuggestion = z.infer<typeof MentionSuggestion>;

/** What the webviews need to know about the extension besides the event stream. */
export const HostStatus = z.object({
  /** A model is usable (API key or base URL set); otherwise the sidebar shows its empty state. */
  configured: z.boolean(),
  /** Workspace trust; untrusted = read-only agent. */
  trusted: z.boolean(),
  running: z.boolean(),
  /** The running run, when `running`. */
  runId: id.optional(),
  model: z.string().optional(),
  history: z.array(HistoryEntry),
  /**
   * The first workspace folder as a webview URI (`webview.asWebviewUri`), without a trailing
   * slash; images a report links to are loaded from under it. Set per webview by the views.
   */
  workspaceUri: z.string().max(8_192).optional(),
  /**
   * Which webview shows the approvals and questions the run waits for: the one the user is looking
   * at (the panel while it is visible, else the sidebar), so each prompt is answerable in exactly
   * one place. Set per status by the host; absent = the sidebar.
   */
  promptsIn: WebviewKind.optional(),
  /** The plan mode of the settings: the chat box returns to it after each task. */
  planMode: PlanMode.optional(),
  /** A web search provider is configured (`web_search` is offered); `false` lets the sidebar say how to add one. */
  webSearch: z.boolean().optional(),
  /** The provider in use, as the model switcher shows it (e.g. `Ollama`). */
  provider: z.string().max(100).optional(),
  /** The endpoint in use (base URL; absent for VS Code's language models). */
  endpoint: z.string().max(2_000).optional(),
  /** A configured model reads images; `false` lets the chat box say so when an image is attached, before sending. */
  readsImages: z.boolean().optional(),
  /** The permission mode commands and edits follow now (the chat box's switch shows it). */
  permissionMode: PermissionMode.optional(),
  /** Why the mode's sandbox cannot run here (Windows, macOS, no bubblewrap); commands then ask to run outside it. */
  sandboxUnavailable: z.string().max(500).optional(),
});
export type HostStatus = z.infer<typeof HostStatus>;

/** Lifecycle of one configured MCP server, as the sidebar shows it. */
export const McpServerStatus = z.enum(['connecting', 'connected', 'error', 'disabled', 'restarting']);
export type McpServerStatus = z.infer<typeof McpServerStatus>;

/** One configured MCP server: its state, its tools (model-facing names) and its last failure. */
export const McpServerInfo = z.object({
  name: id,
  status: McpServerStatus,
  tools: z.array(z.string().max(1_000)).max(10_000),
  lastError: z.string().max(20_000).optional(),
  /** `stdio`, `streamable-http` or `sse` once connected. */
  transport: z.string().max(100).optional(),
  /** Where the configuration came from, e.g. `.vscode/mcp.json`. */
  source: z.string().max(4_096).optional(),
});
export type McpServerInfo = z.infer<typeof McpServerInfo>;

/** Host -> webview messages. Events come as incremental batches; never a whole-state snapshot. */
export const HostMessage = z.discriminatedUnion('type', [
  /** New envelopes of `runId`, in `seq` order; a view ignores envelopes it has already seen. */
  z.object({ type: z.literal('events'), runId: id, envelopes: z.array(EventEnvelope) }),
  /** Show a different run from scratch (events follow); without `runId`: show no run (new task). */
  z.object({ type: z.literal('reset'), runId: id.optional(), task: z.string().optional() }),
  z.object({ type: z.literal('status'), status: HostStatus }),
  /** Overrides of the webview's string table, and the UI language (e.g. `en`, `zh-cn`). */
  z.object({ type: z.literal('l10n'), strings: z.record(z.string(), z.string()), lang: z.string() }),
  /** A plan awaits the user's review; `plan: null` ends review mode. */
  z.object({ type: z.literal('planReview'), runId: id.optional(), plan: Plan.nullable() }),
  /** Every configured MCP server (the whole list each time: it is short); `[]` = none configured. */
  z.object({ type: z.literal('mcpServers'), servers: z.array(McpServerInfo).max(1_000) }),
  /** Workspace files and folders matching what the user typed after `@` (`query` as asked). */
  z.object({ type: z.literal('mentionSuggestions'), query: z.string().max(200), items: z.array(MentionSuggestion).max(50) }),
  /** The model set-up (presets, current values, VS Code's models) for the set-up view and the switcher. */
  z.object({ type: z.literal('setup'), state: SetupState }),
  SetupModelsMessage,
  SetupTestMessage,
  /** Open the set-up view (the "Set Up Model" command, the walkthrough). */
  z.object({ type: z.literal('showSetup') }),
  /** Workspace-relative paths of files dropped on the chat box, to insert as `@mentions` (`refused`: how many were outside it). */
  z.object({ type: z.literal('mentionPaths'), paths: z.array(z.string().min(1).max(4_096)).max(50), refused: z.number().int().nonnegative() }),
  /** Put the caret in the chat box ("Stepwise: New Task", "Focus on Chat View"). */
  z.object({ type: z.literal('focusInput') }),
  /** The history entries matching `query` (as asked by `searchHistory`), most recent first. */
  z.object({ type: z.literal('historySearch'), query: z.string().max(200), entries: z.array(HistoryEntry).max(200) }),
]);
export type HostMessage = z.infer<typeof HostMessage>;

/** Narrows the host message union to one type. */
export type HostMessageOf<T extends HostMessage['type']> = Extract<HostMessage, { type: T }>;

/** Parses an untrusted message from a webview; `ok: false` with the zod error when it is not an intent. */
export function parseIntent(message: unknown): { ok: true; intent: WebviewIntent } | { ok: false; error: string } {
  const result = WebviewIntent.safeParse(message);
  return result.success ? { ok: true, intent: result.data } : { ok: false, error: z.prettifyError(result.error) };
}

/** Parses a message from the host inside a webview; `ok: false` with the zod error when it does not parse. */
export function parseHostMessage(message: unknown): { ok: true; message: HostMessage } | { ok: false; error: string } {
  const result = HostMessage.safeParse(message);
  return result.success ? { ok: true, message: result.data } : { ok: false, error: z.prettifyError(result.error) };
}
