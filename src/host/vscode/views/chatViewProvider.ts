import * as vscode from 'vscode';
import type { ViewHub, ViewPort } from '../../common/views/viewHub';
import { configureWebview, workspaceWebviewUri } from './webviewSetup';

/** The sidebar chat (`stepwise.chat`). Its content is not retained when hidden: on return it replays. */
export class ChatViewProvider implements vscode.WebviewViewProvider {
  /** The view id contributed in package.json. */
  static readonly viewType = 'stepwise.chat';

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly hub: ViewHub,
    private readonly onShown: () => void = () => {},
  ) {}

  private view: vscode.WebviewView | undefined;

  /** True while the sidebar chat is shown. */
  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  /** Called by VS Code when the view becomes visible (again). */
  resolveWebviewView(view: vscode.WebviewView): void {
    this.onShown();
    this.view = view;
    configureWebview(view.webview, this.extensionUri, 'sidebar', 'Stepwise');
    const port: ViewPort = { kind: 'sidebar', post: (message) => view.webview.postMessage(message), workspaceUri: () => workspaceWebviewUri(view.webview) };
    const detach = this.hub.attach(port);
    this.hub.setVisible('sidebar', view.visible);
    const subscriptions = [
      view.webview.onDidReceiveMessage((message: unknown) => this.hub.receive(port, message)),
      // Hidden without retained context = the page is gone; it says `ready` again when shown.
      view.onDidChangeVisibility(() => {
        if (!view.visible) this.hub.markLost(port);
        this.hub.setVisible('sidebar', view.visible);
      }),
    ];
    view.onDidDispose(() => {
      this.hub.setVisible('sidebar', false);
      if (this.view === view) this.view = undefined;
      detach();
      for (const subscription of subscriptions) subscription.dispose();
    });
  }

  /** Registers the provider; the returned disposable unregisters it. */
  register(): vscode.Disposable {
    return vscode.window.registerWebviewViewProvider(ChatViewProvider.viewType, this, { webviewOptions: { retainContextWhenHidden: false } });
  }
}
