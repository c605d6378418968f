/**
 * # Task views: the contract between the webviews and the rest of the host
 *
 * `TaskViews` owns the sidebar chat (`stepwise.chat`, a WebviewView) and the plan panel
 * (`stepwise.panel`, a WebviewPanel titled "Stepwise Task"). The host (extension.ts / TaskController)
 * talks to it only through this class:
 *
 * ```ts
 * const views = new TaskViews({ extensionUri: context.extensionUri, logger, onIntent: (intent, view) => controller.handle(intent, view) });
 * context.subscriptions.push(views, views.registerSidebar());
 * // a run starts (or the user opens one from history):
 * views.startRun(runId, task);                     // the webviews switch to this run
 * stream.subscribe((envelope) => views.publish(envelope));   // every envelope of every run, in seq order
 * views.setStatus({ configured, trusted, running, runId, model, history });   // whenever any of it changes
 * views.showPlanForReview(plan);                   // plan review mode; answered by a `runPlan` intent
 * views.setMcpServers(mcpHub.states());            // at start and on every MCP server state change ([] = none configured)
 * ```
 *
 * - `publish` stores each envelope (`RunEventLog`) and sends the shown run's new envelopes to the
 *   webviews in batches (one per 16 ms); webviews are never sent whole-state snapshots. The first
 *   run published while none is shown becomes the shown run. Envelopes of other runs are kept so
 *   `startRun(thatRunId, task)` can switch back to them without re-publishing.
 * - To show a past run from history: `startRun(runId, task)` then `publish` its stored envelopes.
 * - Webviews are not retained when hidden: on (re)load each sends `ready {lastSeq, runId}` and gets
 *   `status`, the plan under review (panel) and a replay of exactly what it is missing.
 * - `onIntent` receives every valid intent except `ready` and `showPanel` (handled here). `newTask`
 *   is also handled here (the webviews show the task history) and then passed on. `runPlan` ends
 *   review mode here and is passed on. Invalid messages are logged and dropped, never passed on.
 *   Intents are requests: the host still checks trust, approvals and paths (e.g. `openFile`).
 * - `setStatus` needs no `workspaceUri`: each webview's status gets the first workspace folder as
 *   that webview may load it (`asWebviewUri`), and the folder is in its `localResourceRoots`, so
 *   images a report links to (relative paths, png/jpg/jpeg/gif/svg/webp, inside the workspace)
 *   show inline. The CSP stays `img-src ${cspSource} data:`. (VS Code restarts extensions when the
 *   first folder changes, so the roots are set once per page; `ViewHub.resendStatus` exists if needed.)
 * - `setMcpServers(servers)` takes every configured MCP server (`name`, `status`, `tools`,
 *   `lastError`, `transport`, `source`; an `McpServerState` from `src/mcp` fits, extra fields are
 *   dropped). The sidebar shows them (and gets the last list again on `ready`). Its buttons send
 *   the intents `mcpRestart {name}` and `mcpSetEnabled {name, enabled}` to `onIntent`: the host
 *   restarts / enables / disables the server, then calls `setMcpServers` with the new states. In
 *   Restricted Mode (`status.trusted === false`) the sidebar says MCP servers are off and sends
 *   neither intent.
 * - package.json must contribute the view `stepwise.chat` (type `webview`) in a view container.
 */
import * as vscode from 'vscode';
import type { Logger } from '../../../agent/ports';
import type { EventEnvelope } from '../../../shared/events';
import type { Plan } from '../../../shared/plan';
import type { SetupState } from '../../../shared/setupProtocol';
import type { HistoryEntry, HostMessageOf, HostStatus, McpServerInfo, MentionSuggestion, WebviewIntent, WebviewKind } from '../../../shared/webviewProtocol';
import { ChatViewProvider } from './chatViewProvider';
import { PlanPanel } from './planPanel';
import { PromptFocus } from './promptFocus';
import { REVIEW_SCHEME } from '../editor/diffReview';
import { ViewHub } from '../../common/views/viewHub';

/** What `TaskViews` needs from the composition root. */
export interface TaskViewsDeps {
  extensionUri: vscode.Uri;
  logger: Logger;
  /** A validated intent from a webview (see the contract above for which ones arrive here). */
  onIntent: (intent: WebviewIntent, view: WebviewKind) => void;
  /** The sidebar or the panel was shown (each time): what only an open view needs can start now (MCP servers). */
  onShown?: () => void;
  /** Resolves once review diffs being closed are gone (a closing tab would take the focus back from a prompt). */
  reviewsClosed?: () => Promise<void>;
}

/** The sidebar chat and the plan panel, fed from the one event stream. */
export class TaskViews implements vscode.Disposable {
  private readonly hub: ViewHub;
  private readonly panel: PlanPanel;
  private readonly sidebar: ChatViewProvider;
  private readonly promptFocus = new PromptFocus(() => void this.focusPrompts().catch((error) => this.deps.logger.warn('focusing the prompt failed', error)));
  private readonly editorWork: vscode.Disposable;

  constructor(private readonly deps: TaskViewsDeps) {
    this.hub = new ViewHub({ logger: deps.logger, onIntent: (intent, view) => this.handleIntent(intent, view) });
    this.panel = new PlanPanel(deps.extensionUri, this.hub);
    this.sidebar = new ChatViewProvider(deps.extensionUri, this.hub, () => deps.onShown?.());
    // Typing or clicking in an ordinary editor = the user works there: prompts stop taking the focus.
    this.editorWork = vscode.window.onDidChangeTextEditorSelection((event) => {
      const byUser = event.kind === vscode.TextEditorSelectionChangeKind.Keyboard || event.kind === vscode.TextEditorSelectionChangeKind.Mouse;
      if (byUser && event.textEditor.document.uri.scheme !== REVIEW_SCHEME) this.promptFocus.workedElsewhere();
    });
  }

  /** Registers the sidebar view provider (`stepwise.chat`); dispose the result to unregister. */
  registerSidebar(): vscode.Disposable {
    return this.sidebar.register();
  }

  /**
   * Restores the plan panel after a window reload. Optional: needs the activation event
   * `onWebviewPanel:stepwise.panel` in package.json.
   */
  registerPanelSerializer(): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(PlanPanel.viewType, {
      deserializeWebviewPanel: async (panel) => {
        this.deps.onShown?.();
        this.panel.adopt(panel);
      },
    });
  }

  /**
   * Opens (or reveals) the plan panel; `focus` ("Stepwise: Show Task Panel") moves the keyboard
   * focus into it, where a pending prompt takes it.
   */
  showPanel(focus = false): void {
    this.deps.onShown?.();
    this.panel.show(focus);
  }

  /** Shows `runId` in both webviews from its first stored envelope on. */
  startRun(runId: string, task: string): void {
    this.hub.startRun(runId, task);
  }

  /** Shows no run: the sidebar lists the task history and takes a new task. */
  clearRun(): void {
    this.hub.clearRun();
  }

  /** Stores one envelope (any run) and streams it to the webviews if its run is shown. */
  publish(envelope: EventEnvelope): void {
    this.hub.publish(envelope);
    if (envelope.runId === this.hub.shownRun) this.promptFocus.observe(envelope.event);
  }

  /** Updates what the webviews know about configuration, trust, the running run and history. */
  setStatus(status: HostStatus): void {
    this.hub.setStatus(status);
  }

  /** Shows every configured MCP server in the sidebar (`[]`: none configured); call again on each change. */
  setMcpServers(servers: readonly McpServerInfo[]): void {
    this.hub.setMcpServers(servers);
  }

  /** The model set-up state for the sidebar's set-up view and model switcher (kept for reloads). */
  setSetup(state: SetupState): void {
    this.hub.setSetup(state);
  }

  /** A set-up answer (model list, test result), or `showSetup` to open the set-up view. */
  sendSetup(message: HostMessageOf<'setupModels' | 'setupTestResult' | 'showSetup'>): void {
    this.hub.sendSetup(message);
  }

  /** Answers the chat box's `@query` with matching files, folders and context words. */
  sendMentionSuggestions(query: string, items: readonly MentionSuggestion[]): void {
    this.hub.sendMentionSuggestions(query, items);
  }

  /** Paths of files dropped on the chat box (workspace-relative), for it to insert as `@mentions`. */
  sendMentionPaths(paths: readonly string[], refused: number): void {
    this.hub.sendMentionPaths(paths, refused);
  }

  /** Reveals the sidebar chat and puts the caret in its input ("Stepwise: New Task"). */
  async focusInput(): Promise<void> {
    await vscode.commands.executeCommand(`${ChatViewProvider.viewType}.focus`);
    this.hub.focusInput();
  }

  /** Answers the sidebar's history search box. */
  sendHistorySearch(query: string, entries: readonly HistoryEntry[]): void {
    this.hub.sendHistorySearch(query, entries);
  }

  /** True while the sidebar chat or the task panel is visible (the user can see the task). */
  visible(): boolean {
    return this.sidebar.visible || this.panel.visible;
  }

  /**
   * Puts the panel into plan review and opens it with the keyboard focus (Run is focused there: the
   * task waits for the user); `undefined` leaves review mode.
   */
  showPlanForReview(plan: Plan | undefined): void {
    this.hub.showPlanForReview(plan);
    if (plan) this.panel.show(true);
  }

  /**
   * Brings the view that holds the prompts (the panel while visible, else the sidebar) to the
   * front with the keyboard focus; inside it the new prompt's main control takes the focus.
   */
  private async focusPrompts(): Promise<void> {
    await this.deps.reviewsClosed?.();
    if (this.panel.visible) this.panel.show(true);
    else await vscode.commands.executeCommand(`${ChatViewProvider.viewType}.focus`);
  }

  /** Closes the panel and stops batching. */
  dispose(): void {
    this.editorWork.dispose();
    this.hub.dispose();
    this.panel.dispose();
  }

  private handleIntent(intent: WebviewIntent, view: WebviewKind): void {
    if (intent.type === 'showPanel') {
      this.showPanel();
      return;
    }
    if (intent.type === 'newTask') this.hub.clearRun();
    if (intent.type === 'runPlan') this.promptFocus.answered();
    this.deps.onIntent(intent, view);
  }
}
