import * as vscode from 'vscode';
import type { WebviewKind } from '../../shared/webviewProtocol';
import { buildWebviewHtml, makeNonce } from './webviewHtml';

/** The only folders a Stepwise webview may load from: the built bundle and the stylesheet. */
export function webviewResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'webview-ui', 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
}

/** Options shared by the sidebar view and the panel: scripts on, command URIs off, resources limited. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, localResourceRoots: webviewResourceRoots(extensionUri) };
}

/** Sets a webview's options and its HTML (fresh nonce, CSP, `data-view`). */
export function configureWebview(webview: vscode.Webview, extensionUri: vscode.Uri, view: WebviewKind, title: string): void {
  webview.options = webviewOptions(extensionUri);
  webview.html = buildWebviewHtml({
    view,
    cspSource: webview.cspSource,
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'webview-ui', 'dist', 'main.js')).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'main.css')).toString(),
    nonce: makeNonce(),
    lang: vscode.env.language,
    title,
  });
}
