import { registerCheckpointCommands, type CheckpointCommandDeps } from '../checkpoints/checkpointCommands';
import { undoTaskCommand } from './undoTaskCommand';
import * as vscode from 'vscode';
import type { ContextRequest } from '../../../agent/context/contextControl';
import type { WebviewIntent } from '../../../shared/webviewProtocol';
import { DiffReview } from '../editor/diffReview';
import type { HistoryStore } from '../../../node/historyStore';
import type { OutputChannelLogger } from '../log/outputChannelLogger';
import { restartMcpServerCommand, runMcpPromptCommand } from '../mcp/mcpCommands';
import type { McpHost } from '../../common/mcp/mcpHost';
import { endpointOrigin } from '../../common/model/endpointOrigin';
import type { McpConfigReview } from '../mcp/mcpConfigReview';
import { manageMcpTrustCommand } from '../mcp/mcpTrustCommands';
import type { McpTrustStore } from '../mcp/mcpTrustStore';
import type { ApiKeyStore } from '../secrets/apiKeyStore';
import type { WebKeyStore } from '../secrets/webKeyStore';
import { setWebSearchKey } from '../web/webSearchKeyCommand';
import type { TaskController } from '../task/taskController';
import { selectionTask } from './commandText';
import { handleControlIntent, type ControlIntentDeps } from './controlIntents';
import { taskTitle } from '../../../shared/taskTitle';

/** Every command the extension contributes (package.json `contributes.commands`). */
export const COMMAND_IDS = [
  'stepwise.newTask',
  'stepwise.runOnSelection',
  'stepwise.stop',
  'stepwise.showPanel',
  'stepwise.history',
  'stepwise.setApiKey',
  'stepwise.clearApiKey',
  'stepwise.setWebSearchKey',
  'stepwise.openSettings',
  'stepwise.showLog',
  'stepwise.undoTaskEdits',
  'stepwise.acceptEdit',
  'stepwise.rejectEdit',
  'stepwise.keepEdit',
  'stepwise.undoEdit',
  'stepwise.restartMcpServer',
  'stepwise.runMcpPrompt',
  'stepwise.reviewMcpConfig',
  'stepwise.manageMcpTrust',
  'stepwise.compactContext',
  'stepwise.undoCompaction',
] as const;

/** What the commands act on. */
export interface CommandDeps {
  controller: TaskController;
  keys: ApiKeyStore;
  history: HistoryStore;
  logger: OutputChannelLogger;
  diffReview: DiffReview;
  /** Opens the task panel; `focus` moves the keyboard focus into it (its pending prompt takes it). */
  showPanel: (focus?: boolean) => void;
  mcp: McpHost;
  mcpTrust: McpTrustStore;
  mcpReview: McpConfigReview;
  /** The base URL of the endpoint in use: "Set API Key" stores the key for its origin only. */
  endpoint: () => string;
  /** Leaves plan review mode in the webviews. */
  endPlanReview: () => void;
  /** Opens a file the model mentioned, confined to the workspace. */
  openFile: (path: string, line?: number) => Promise<void>;
  /** Called after the key changed (refreshes the webview status). */
  onKeyChanged: () => void;
  /** Checkpoint store and history for "Show changes" / "Restore". */
  checkpoints: CheckpointCommandDeps;
  /** Answers the chat box's `@query` in the webviews. */
  suggestMentions: (query: string) => Promise<void>;
  /** The sidebar's chat box: the caret into its input; dropped files back to it as mention paths. */
  chatBox: { focusInput(options: { newTask: boolean }): Promise<void>; mentionUris(uris: readonly string[]): Promise<void> };
  /** Tavily / Brave Search keys for web_search. */
  webKeys: WebKeyStore;
  /** Stop / background a running command; search the history (`controlIntents.ts`). */
  controls?: ControlIntentDeps;
}

/** Asks for a task in an input box; `undefined` when dismissed. */
async function askTask(prompt: string): Promise<string | undefined> {
  const text = await vscode.window.showInputBox({ title: vscode.l10n.t('Stepwise: New Task'), prompt, ignoreFocusOut: true });
  return text?.trim() ? text.trim() : undefined;
}

/** The review a diff-editor action targets: its URI argument (title bar), else the active tab. */
function reviewCallId(diffReview: DiffReview, arg: unknown): string | undefined {
  return (arg instanceof vscode.Uri ? DiffReview.callIdOf(arg) : undefined) ?? diffReview.activeCallId();
}

/**
 * Registers the contributed commands. Commands that take text (new task, API key) accept it as an
 * argument too, so other extensions, keybindings and tests can run them without an input box.
 */
type Register = (id: (typeof COMMAND_IDS)[number], run: (...args: unknown[]) => unknown) => vscode.Disposable;

export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const { logger } = deps;
  const register: Register = (id, run) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await run(...args);
      } catch (error) {
        logger.error(`command ${id} failed`, error);
        void vscode.window.showErrorMessage(vscode.l10n.t('Stepwise: {0}', error instanceof Error ? error.message : String(error)));
        return undefined;
      }
    });
  return [...taskCommands(deps, register), ...keyCommands(deps, register), ...editCommands(deps, register)];
}

/** Starting, stopping, showing and reopening tasks. */
function taskCommands(deps: CommandDeps, register: Register): vscode.Disposable[] {
  const { controller } = deps;
  return [
    // With a task (from a script or a keybinding's args) it starts at once; otherwise the sidebar
    // shows a new task with the caret in its input, where @-mentions, images and the plan mode are.
    register('stepwise.newTask', async (arg) => {
      if (typeof arg === 'string' && arg.trim()) return controller.start(arg.trim(), { fromPalette: true });
      // While a task runs the sidebar keeps showing it: the input then takes a follow-up.
      if (!controller.isRunning) controller.clearShown();
      await deps.chatBox.focusInput({ newTask: !controller.isRunning });
      return undefined;
    }),
    register('stepwise.runOnSelection', (arg) => runOnSelection(controller, arg)),
    register('stepwise.stop', () => controller.stop()),
    // From the palette or a keybinding the user wants to act in the panel: it takes the focus.
    register('stepwise.showPanel', () => deps.showPanel(true)),
    register('stepwise.history', () => pickFromHistory(deps)),
    register('stepwise.restartMcpServer', (arg) => restartMcpServerCommand(deps.mcp, arg)),
    register('stepwise.runMcpPrompt', () => runMcpPromptCommand(deps.mcp, controller)),
    register('stepwise.reviewMcpConfig', () => deps.mcpReview.review()),
    register('stepwise.manageMcpTrust', () => manageMcpTrustCommand(deps.mcp, deps.mcpTrust, deps.mcpReview)),
  ];
}

async function runOnSelection(controller: TaskController, arg: unknown): Promise<string | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Select some text in an editor first.'));
    return undefined;
  }
  const instruction = typeof arg === 'string' && arg.trim() ? arg.trim() : await askTask(vscode.l10n.t('What should Stepwise do with the selection?'));
  if (!instruction) return undefined;
  const { document, selection } = editor;
  const task = selectionTask(instruction, {
    path: vscode.workspace.asRelativePath(document.uri, false),
    languageId: document.languageId,
    startLine: selection.start.line + 1,
    endLine: selection.end.line + 1,
    text: document.getText(selection),
  });
  return controller.start(task, { fromPalette: true });
}

async function pickFromHistory(deps: CommandDeps): Promise<boolean | undefined> {
  const entries = await deps.history.list(50, { threads: true });
  if (!entries.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No Stepwise tasks yet.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    entries.map((entry) => ({
      label: taskTitle(entry.task, 120) || vscode.l10n.t('Untitled'),
      description: entry.outcome ?? vscode.l10n.t('running or interrupted'),
      detail: new Date(entry.ts).toLocaleString(),
      runId: entry.runId,
    })),
    { title: vscode.l10n.t('Stepwise: Task History'), placeHolder: vscode.l10n.t('Pick a task to reopen') },
  );
  if (!picked) return undefined;
  deps.showPanel();
  return deps.controller.reopen(picked.runId);
}

/** The API key, settings and the log. */
function keyCommands(deps: CommandDeps, register: Register): vscode.Disposable[] {
  const { keys, logger } = deps;
  return [
    register('stepwise.setApiKey', async (arg) => {
      const endpoint = deps.endpoint();
      const origin = endpointOrigin(endpoint);
      const key =
        typeof arg === 'string'
          ? arg
          : await vscode.window.showInputBox({
              title: vscode.l10n.t('Stepwise: Set API Key'),
              prompt: vscode.l10n.t('API key for {0}. It is kept in VS Code\'s secret storage, never in settings, and sent to this origin only.', origin),
              password: true,
              ignoreFocusOut: true,
            });
      if (!key?.trim()) return false;
      await keys.set(key, endpoint);
      logger.info(`API key for ${origin} stored in secret storage`);
      deps.onKeyChanged();
      if (typeof arg !== 'string') void vscode.window.showInformationMessage(vscode.l10n.t('Stepwise: API key for {0} saved.', origin));
      return true;
    }),
    register('stepwise.clearApiKey', async () => {
      const endpoint = deps.endpoint();
      await keys.clear(endpoint);
      logger.info(`API key for ${endpointOrigin(endpoint)} removed from secret storage`);
      deps.onKeyChanged();
      void vscode.window.showInformationMessage(vscode.l10n.t('Stepwise: API key for {0} cleared.', endpointOrigin(endpoint)));
      return true;
    }),
    register('stepwise.setWebSearchKey', (provider, key) => setWebSearchKey(deps.webKeys, logger, provider, key)),
    register('stepwise.openSettings', () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:stepwise.stepwise')),
    register('stepwise.showLog', () => logger.show()),
  ];
}

/** Reviewing and undoing a task's edits. */
function editCommands(deps: CommandDeps, register: Register): vscode.Disposable[] {
  const { controller } = deps;
  return [
    register('stepwise.undoTaskEdits', (arg, options) => undoTaskCommand(deps, arg, options)),
    register('stepwise.acceptEdit', (arg) => acceptEdit(deps, arg)),
    register('stepwise.rejectEdit', (arg) => rejectEdit(deps, arg)),
    // The review editor's labelled title actions (and Ctrl+Enter / Ctrl+Backspace there).
    register('stepwise.keepEdit', (arg) => acceptEdit(deps, arg)),
    register('stepwise.undoEdit', (arg) => rejectEdit(deps, arg)),
    register('stepwise.compactContext', () => controller.requestContext({ kind: 'compact' })),
    register('stepwise.undoCompaction', () => controller.requestContext({ kind: 'undoCompaction' })),
    ...registerCheckpointCommands(deps.checkpoints),
  ];
}

function acceptEdit(deps: CommandDeps, arg: unknown): boolean {
  const callId = reviewCallId(deps.diffReview, arg);
  return callId ? deps.controller.decideApproval(callId, { approved: true }) : false;
}

function rejectEdit(deps: CommandDeps, arg: unknown): boolean {
  const callId = reviewCallId(deps.diffReview, arg);
  if (!callId) return false;
  const reason = typeof arg === 'string' ? arg : undefined;
  return deps.controller.decideApproval(callId, { approved: false, ...(reason ? { reason } : {}) });
}

/** Intents that are exactly a command of ours. */
const COMMAND_INTENTS = { setApiKey: 'stepwise.setApiKey', openSettings: 'stepwise.openSettings', openSetup: 'stepwise.setupModel', showLog: 'stepwise.showLog' } as const;

/** The running task's context request an intent asks for (compact now, undo a compaction, pin), if any. */
function contextRequestOf(intent: WebviewIntent): ContextRequest | undefined {
  if (intent.type === 'compactContext') return { kind: 'compact' };
  if (intent.type === 'undoCompaction') return { kind: 'undoCompaction', ...(intent.id ? { id: intent.id } : {}) };
  if (intent.type === 'pinContext') return intent.pinned ? { kind: 'pin', callId: intent.callId } : { kind: 'unpin', callId: intent.callId };
  return undefined;
}

/** Carries out a webview intent that maps to a command or a controller call. */
/** The chat box's and the review pointer's intents; `false` when `intent` is none of them. */
async function handleChatBoxIntent(intent: WebviewIntent, deps: CommandDeps): Promise<boolean> {
  switch (intent.type) {
    case 'mentionUris':
      await deps.chatBox.mentionUris(intent.uris);
      return true;
    case 'suggestMentions':
      await deps.suggestMentions(intent.query);
      return true;
    case 'revealReview':
      await deps.diffReview.reveal(intent.callId);
      return true;
    case 'setPermissionMode':
      // The user's own setting (permissionMode is user-only): the next command and approval follow it.
      await vscode.workspace.getConfiguration('stepwise').update('permissionMode', intent.mode, vscode.ConfigurationTarget.Global);
        return true;
    case 'sendMessage':
      // Typed while the task runs: queued for its next turn (nothing runs, nothing to do).
      deps.controller.sendMessage(intent.text);
      return true;
    default:
      return false;
  }
}

export async function handleIntent(intent: WebviewIntent, deps: CommandDeps): Promise<void> {
  const { controller } = deps;
  const command = COMMAND_INTENTS[intent.type as keyof typeof COMMAND_INTENTS];
  if (command) return void (await vscode.commands.executeCommand(command));
  const request = contextRequestOf(intent);
  if (request) return void controller.requestContext(request);
  if (await handleControlIntent(intent, deps.controls ?? {})) return;
  if (await handleChatBoxIntent(intent, deps)) return;
  switch (intent.type) {
    case 'submitTask':
      await controller.start(intent.text, { planMode: intent.planMode, ...(intent.images ? { images: intent.images } : {}) });
      return;
    case 'cancel':
      if (controller.planReview.cancel()) deps.endPlanReview();
      else controller.stop();
      return;
    case 'approve':
      controller.decideApproval(intent.callId, { approved: true }, intent.always ?? false);
      return;
    case 'reject':
      controller.decideApproval(intent.callId, { approved: false, ...(intent.reason ? { reason: intent.reason } : {}) });
      return;
    case 'answer':
      controller.pending.resolveAnswer(intent.callId, intent.answer);
      return;
    case 'setWebSearchKey':
      await vscode.commands.executeCommand('stepwise.setWebSearchKey');
      deps.onKeyChanged();
      return;
    case 'showPanel':
      deps.showPanel();
      return;
    case 'openRun':
      deps.showPanel();
      await controller.reopen(intent.runId);
      return;
    case 'resumeRun':
      await controller.resume(intent.runId, intent.text);
      return;
    case 'retryStep': {
      const runId = controller.currentRunId;
      if (runId) await controller.retryStep(runId, intent.stepId);
      return;
    }
    case 'runPlan':
      controller.planReview.accept(intent.steps);
      return;
    case 'undoTaskEdits':
      await vscode.commands.executeCommand('stepwise.undoTaskEdits', intent.runId);
      return;
    case 'openFile':
      await deps.openFile(intent.path, intent.line);
      return;
    case 'showChanges':
    case 'restoreCheckpoint':
      await vscode.commands.executeCommand(`stepwise.${intent.type}`, intent.runId, intent.checkpointId);
      return;
    case 'newTask':
      controller.clearShown();
      return;
    case 'mcpRestart':
      await deps.mcp.restart(intent.name);
      return;
    case 'mcpSetEnabled':
      await deps.mcp.setEnabled(intent.name, intent.enabled);
      return;
    // Handled above (commands of ours, context requests).
    case 'ready': case 'setApiKey': case 'openSettings': case 'openSetup': case 'showLog': case 'compactContext': case 'undoCompaction': case 'pinContext':
    case 'searchHistory': case 'deleteRun': case 'exportRun': case 'stopCommand': case 'backgroundCommand':
    case 'mentionUris': case 'suggestMentions': case 'revealReview': case 'setPermissionMode': case 'sendMessage':
      return;
    // The set-up view's intents go to the SetupController (extension.ts routes them before this).
    case 'setupListModels': case 'setupTest': case 'setupSave':
      return;
    default: {
      const unhandled: never = intent;
      throw new Error(`unhandled intent ${JSON.stringify(unhandled)}`);
    }
  }
}
