/**
 * Files that configure the agent, the editor or the repository itself: a write to them could widen
 * the agent's own permissions (settings, MCP servers that start commands), change what it is told
 * (rules files) or run code later (git hooks, direnv). Writing one always asks the user, even when
 * edits are auto-approved or allowed "always" for the session.
 */
const PROTECTED_FOLDERS = ['.vscode', '.stepwise', '.git', '.husky', '.devcontainer', '.claude', '.agents'];
const PROTECTED_FILES = ['mcp.json', 'agents.md', 'claude.md', 'gemini.md', '.cursorrules', '.clinerules', '.windsurfrules', '.roorules', '.stepwiseignore', '.envrc', '.gitmodules'];
/** Inside protected folders but only output: the default reports folder (reports configure nothing). */
const OUTPUT_FOLDERS = ['.stepwise/reports/'];
// Skills, custom roles and prompt files (`.agents/skills`, `.claude/…` above) are instructions Stepwise follows later.
const PROTECTED_PATHS = ['.github/copilot-instructions.md', '.github/instructions', '.github/workflows', '.github/agents', '.github/prompts', '.cursor/rules', '.clinerules', '.roo'];

/** Why `path` (workspace-relative, `/` separators) is protected, or `undefined`. Case-insensitive, as some file systems are. */
export function protectedPathReason(path: string): string | undefined {
  const clean = path.replace(/\\/g, '/').replace(/^\.\/+/, '').replace(/\/+/g, '/').toLowerCase();
  const parts = clean.split('/').filter((p) => p !== '' && p !== '.');
  const output = OUTPUT_FOLDERS.some((folder) => parts.join('/').startsWith(folder)) && !parts.includes('..');
  const isProtectedFolder = (p: string) => PROTECTED_FOLDERS.includes(p) && !(output && p === '.stepwise');
  const folder = parts.slice(0, -1).find(isProtectedFolder) ?? (isProtectedFolder(parts.at(-1) ?? '') ? parts.at(-1) : undefined);
  if (folder) return `it is inside ${folder}/, which configures the editor, the agent or the repository`;
  const file = parts.at(-1) ?? '';
  if (PROTECTED_FILES.includes(file)) return `${file} configures the agent (rules, MCP servers, ignore rules) or runs code`;
  const joined = parts.join('/');
  const prefix = PROTECTED_PATHS.find((p) => joined === p || joined.startsWith(p + '/'));
  if (prefix) return `${prefix} holds the agent's rules or the repository's automation`;
  return undefined;
}

/** True when writing `path` must always be asked. */
export function isProtectedPath(path: string): boolean {
  return protectedPathReason(path) !== undefined;
}
