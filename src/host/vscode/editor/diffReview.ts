import * as vscode from 'vscode';

/**
 * Where a review diff opens: beside the task panel, never in its group (the panel would be hidden,
 * and its webview unloaded, while the user reviews).
 */
export function reviewColumn(): vscode.ViewColumn {
  const isPanel = (tab: vscode.Tab): boolean => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.includes('stepwise.panel');
  const panelGroup = vscode.window.tabGroups.all.find((group) => group.tabs.some(isPanel));
  if (!panelGroup) return vscode.ViewColumn.Active;
  const other = vscode.window.tabGroups.all.find((group) => group !== panelGroup);
  if (other) return other.viewColumn;
  return panelGroup.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
}

/** URI scheme of the read-only before/after documents shown in review diffs. */
export const REVIEW_SCHEME = 'stepwise-review';

interface Review {
  callId: string;
  path: string;
  before: string;
  after: string;
}

/**
 * Shows a proposed edit as a diff editor (before on the left, proposed on the right, both
 * read-only virtual documents) whose title bar carries Accept / Reject actions
 * (`when: resourceScheme == stepwise-review`). Deciding is not done here: the caller resolves the
 * approval and then calls `close`.
 */
export class DiffReview implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly reviews = new Map<string, Review>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly registration: vscode.Disposable;
  /** Review tabs being closed now. */
  private closing: Promise<unknown> = Promise.resolve();
  readonly onDidChange = this.changed.event;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, this);
  }

  /** The review document of one side: `stepwise-review:/<path>?side=after&call=<callId>`. */
  static uriFor(callId: string, path: string, side: 'before' | 'after'): vscode.Uri {
    const query = new URLSearchParams({ side, call: callId }).toString();
    return vscode.Uri.from({ scheme: REVIEW_SCHEME, path: '/' + path.replace(/^\/+/, ''), query });
  }

  /** The tool call id a review document belongs to, or `undefined` for other URIs. */
  static callIdOf(uri: vscode.Uri | undefined): string | undefined {
    if (!uri || uri.scheme !== REVIEW_SCHEME) return undefined;
    return new URLSearchParams(uri.query).get('call') ?? undefined;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const params = new URLSearchParams(uri.query);
    const review = this.reviews.get(params.get('call') ?? '');
    if (!review) return '';
    return params.get('side') === 'before' ? review.before : review.after;
  }

  /**
   * Opens the review of a proposed edit, beside the task panel, with Keep / Undo in its title bar.
   * A new file (nothing before) opens as the proposed document alone: a diff against an empty
   * document would show one removed empty line that is not there.
   */
  async open(callId: string, diff: { path: string; before: string; after: string }): Promise<void> {
    this.reviews.set(callId, { callId, ...diff });
    await this.show(callId);
  }

  /** Brings a pending review's editor to the front again (false when the review is over). */
  async reveal(callId: string): Promise<boolean> {
    if (!this.reviews.has(callId)) return false;
    await this.show(callId);
    return true;
  }

  private async show(callId: string): Promise<void> {
    const review = this.reviews.get(callId)!;
    const right = DiffReview.uriFor(callId, review.path, 'after');
    const options = { preview: false, preserveFocus: false, viewColumn: reviewColumn() };
    if (review.before === '') {
      await vscode.window.showTextDocument(right, options);
      return;
    }
    const left = DiffReview.uriFor(callId, review.path, 'before');
    const title = vscode.l10n.t('{0} (proposed by Stepwise)', review.path);
    await vscode.commands.executeCommand('vscode.diff', left, right, title, options);
  }

  /** Call id of the review shown in the active editor, if any. */
  activeCallId(): string | undefined {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    if (input instanceof vscode.TabInputTextDiff) return DiffReview.callIdOf(input.modified);
    if (input instanceof vscode.TabInputText) return DiffReview.callIdOf(input.uri);
    return undefined;
  }

  /** True while the review of `callId` is open. */
  isOpen(callId: string): boolean {
    return this.reviews.has(callId);
  }

  /** Closes the review's diff tabs and forgets it. */
  async close(callId: string): Promise<void> {
    if (!this.reviews.delete(callId)) return;
    const tabs = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter((tab) => (tab.input instanceof vscode.TabInputTextDiff && DiffReview.callIdOf(tab.input.modified) === callId)
        || (tab.input instanceof vscode.TabInputText && DiffReview.callIdOf(tab.input.uri) === callId));
    if (!tabs.length) return;
    const closed = Promise.resolve(vscode.window.tabGroups.close(tabs, true));
    this.closing = Promise.all([this.closing, closed.catch(() => {})]);
    await closed;
  }

  /**
   * Resolves once every review tab being closed is gone: closing a tab moves the focus, so a prompt
   * that should take the focus waits for this first.
   */
  settled(): Promise<void> {
    return this.closing.then(() => {});
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
    this.reviews.clear();
  }
}
