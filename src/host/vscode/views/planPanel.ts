import * as vscode from 'vscode';
import type { ViewHub, ViewPort } from '../../common/views/viewHub';
import { configureWebview, webviewResourceRoots, workspaceWebviewUri } from './webviewSetup';

/** The plan panel (`stepwise.panel`, "Stepwise Task"): one at a time, revealed if already open. */
export class PlanPanel implements vscode.Disposable {
  /** The panel's view type (also the serializer's, if one is registered). */
  static readonly viewType = 'stepwise.panel';
  private panel: vscode.WebviewPanel | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly hub: ViewHub,
  ) {}

  /** True while the panel is open and visible (not a background tab). */
  get visible(): boolean {
    return this.panel?.visible ?? false;
  }

  /** Opens the panel beside the editor, or reveals the open one; `focus` moves the keyboard focus into it. */
  show(focus = false): void {
    if (this.panel) {
      this.panel.reveal(undefined, !focus);
      return;
    }
    const panel = vscode.window.createWebviewPanel(PlanPanel.viewType, vscode.l10n.t('Stepwise Task'), { viewColumn: vscode.ViewColumn.Beside, preserveFocus: !focus }, {
      enableScripts: true,
      enableCommandUris: false,
      enableFindWidget: true,
      retainContextWhenHidden: false,
      localResourceRoots: webviewResourceRoots(this.extensionUri),
    });
    this.adopt(panel);
  }

  /** Takes over a panel (a new one, or one VS Code restored through a serializer). */
  adopt(panel: vscode.WebviewPanel): void {
    this.panel?.dispose();
    this.panel = panel;
    panel.title = vscode.l10n.t('Stepwise Task');
    configureWebview(panel.webview, this.extensionUri, 'panel', panel.title);
    const port: ViewPort = { kind: 'panel', post: (message) => panel.webview.postMessage(message), workspaceUri: () => workspaceWebviewUri(panel.webview) };
    const detach = this.hub.attach(port);
    this.hub.setVisible('panel', panel.visible);
    const subscriptions = [
      panel.webview.onDidReceiveMessage((message: unknown) => this.hub.receive(port, message)),
      // Hidden without retained context = the page is gone; it says `ready` again when shown.
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.hub.markLost(port);
        this.hub.setVisible('panel', panel.visible);
      }),
    ];
    panel.onDidDispose(() => {
      if (this.panel === panel) this.hub.setVisible('panel', false);
      detach();
      for (const subscription of subscriptions) subscription.dispose();
      if (this.panel === panel) this.panel = undefined;
    });
  }

  /** Closes the panel. */
  dispose(): void {
    this.panel?.dispose();
  }
}
