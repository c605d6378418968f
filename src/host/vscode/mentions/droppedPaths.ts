import * as vscode from 'vscode';

/**
 * Turns URIs dropped on the chat box (Explorer items, editor tabs) into workspace-relative mention
 * paths (folders end in `/`). URIs that do not parse or lie outside every workspace folder are
 * counted in `refused`, never mentioned: the agent works inside the workspace only.
 */
export async function droppedPaths(uris: readonly string[]): Promise<{ paths: string[]; refused: number }> {
  const paths: string[] = [];
  let refused = 0;
  for (const text of uris) {
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(text, true);
    } catch {
      refused++;
      continue;
    }
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder || uri.toString() === folder.uri.toString()) {
      refused++;
      continue;
    }
    const rel = vscode.workspace.asRelativePath(uri, false);
    const isFolder = await vscode.workspace.fs.stat(uri).then((s) => (s.type & vscode.FileType.Directory) !== 0, () => false);
    const path = isFolder ? `${rel}/` : rel;
    if (!paths.includes(path)) paths.push(path);
  }
  return { paths, refused };
}
