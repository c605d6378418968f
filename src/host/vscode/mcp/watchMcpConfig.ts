import * as vscode from 'vscode';
import { MCP_CONFIG_FILES } from '../../../mcp/mcpConfig';

/**
 * Watches the workspace's MCP configuration files (`.vscode/mcp.json`, `.stepwise/mcp.json`) and
 * calls `onChange` with the workspace-relative path when one is created, changed or deleted (the
 * host asks the user to review the change; nothing starts by itself). Their folders are watched
 * too: deleting a whole folder reports the folder; creating one reports it only when it already
 * holds the MCP file (Stepwise's own reports and images create `.stepwise/` with no MCP file in it).
 */
export function watchMcpConfigFiles(folder: vscode.WorkspaceFolder, onChange: (path: string) => void): vscode.Disposable {
  const changed = (uri: vscode.Uri): void => onChange(vscode.workspace.asRelativePath(uri, false));
  const folders = [...new Set(MCP_CONFIG_FILES.map((file) => file.slice(0, file.lastIndexOf('/'))).filter(Boolean))];
  const files = MCP_CONFIG_FILES.map((file) => vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, file)));
  const dirs = folders.map((dir) => vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, dir), false, true, false));
  return vscode.Disposable.from(
    ...files.flatMap((watcher) => [watcher, watcher.onDidCreate(changed), watcher.onDidChange(changed), watcher.onDidDelete(changed)]),
    // A new `.stepwise` folder is usually the first report being saved: only one holding an MCP file is a change.
    ...dirs.flatMap((watcher) => [watcher, watcher.onDidCreate((uri) => void holdsMcpFile(folder, uri).then((holds) => holds && changed(uri))), watcher.onDidDelete(changed)]),
  );
}

/** Whether a created folder already holds one of the MCP configuration files. */
async function holdsMcpFile(folder: vscode.WorkspaceFolder, dir: vscode.Uri): Promise<boolean> {
  const rel = vscode.workspace.asRelativePath(dir, false);
  const inside = MCP_CONFIG_FILES.filter((file) => file.startsWith(`${rel}/`));
  const found = await Promise.all(inside.map((file) => vscode.workspace.fs.stat(vscode.Uri.joinPath(folder.uri, file)).then(() => true, () => false)));
  return found.some(Boolean);
}

/** What `keepMcpCurrent` does on each kind of change. */
export interface McpChangeHandlers {
  /** `stepwise.mcpServers` changed (the host tells a user change from a workspace one). */
  settingsChanged: () => void;
  /** A workspace MCP file changed: nothing starts until the user reviews it. */
  fileChanged: (path: string) => void;
  /** The user trusted the workspace. */
  trustGranted: () => void;
}

/**
 * Follows what may change the MCP servers: `stepwise.mcpServers`, the workspace's MCP files and
 * the workspace trust; each goes to its handler. Dispose to stop watching.
 */
export function keepMcpCurrent(folder: vscode.WorkspaceFolder | undefined, handlers: McpChangeHandlers): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('stepwise.mcpServers')) handlers.settingsChanged();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => handlers.trustGranted()),
    ...(folder ? [watchMcpConfigFiles(folder, handlers.fileChanged)] : []),
  );
}
