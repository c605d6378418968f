import type { PromptFile } from './extensionTypes';

/** A task text read as a slash command: not one, a prompt file's text with its arguments, or an unknown name. */
export type PromptCommand =
  | { kind: 'none' }
  | { kind: 'expanded'; name: string; task: string }
  | { kind: 'unknown'; name: string; known: string[] };

/**
 * Reads `/name args…` at the start of a task. A known prompt file becomes its body with the
 * arguments put in: `$ARGUMENTS` (Claude Code), `$1`…`$9` (the arguments split on spaces),
 * `${input:…}` (VS Code prompt files, all filled with the arguments); a body with no placeholder gets
 * the arguments appended. Text that does not start with `/` and a name (a path like `/etc/x` has a
 * second `/`) is not a command.
 */
export function expandPromptCommand(text: string, prompts: readonly PromptFile[]): PromptCommand {
  const match = /^\s*\/([A-Za-z0-9][A-Za-z0-9._-]{0,63})(?=\s|$)([\s\S]*)$/.exec(text);
  if (!match) return { kind: 'none' };
  const name = match[1]!;
  const args = match[2]!.trim();
  const prompt = prompts.find((p) => p.name === name);
  if (!prompt) return { kind: 'unknown', name, known: prompts.map((p) => p.name) };
  return { kind: 'expanded', name, task: fillArguments(prompt.body, args) };
}

function fillArguments(body: string, args: string): string {
  const words = args.split(/\s+/).filter(Boolean);
  let used = false;
  const filled = body
    .replace(/\$ARGUMENTS\b/g, () => ((used = true), args))
    .replace(/\$\{input:[^}]*\}/g, () => ((used = true), args))
    .replace(/\$([1-9])\b/g, (_, n: string) => ((used = true), words[Number(n) - 1] ?? ''));
  return used || !args ? filled : `${filled}\n\n${args}`;
}
