import { MAX_NESTING, unwrapCommand, type Unwrapped } from './commandWrappers';
import type { ShellDialect } from '../shellInfo';
import type { ShellSyntax } from './shellSyntax';
import type { CommandAnalysis } from './commandAnalysis';
import { walkScript } from './shellWalk';
import { analyzeWindowsCommand } from './windowsCommand';

export type { CommandAnalysis } from './commandAnalysis';

/**
 * Parses a command line with the bash grammar and reduces it to every program it would start, with
 * `eval` and `sh -c` strings parsed recursively (to `MAX_NESTING` levels), and every redirection.
 */
export function analyzeCommand(syntax: ShellSyntax, text: string, dialect: ShellDialect = 'posix'): CommandAnalysis {
  // cmd.exe and PowerShell have no bash grammar: their own conservative reader (windowsCommand.ts).
  if (dialect !== 'posix') return analyzeWindowsCommand(dialect, text);
  return analyzeAt(syntax, text, 0);
}

function analyzeAt(syntax: ShellSyntax, text: string, depth: number): CommandAnalysis {
  // The walk copies everything it needs out of the tree, which is freed right after.
  const walked = syntax.withTree(text, (tree) => (tree.ok ? walkScript(tree.root) : tree.error));
  if (typeof walked === 'string') return { error: walked, invocations: [], redirections: [], opaque: [] };
  const analysis: CommandAnalysis = { invocations: [], redirections: [...walked.redirections], opaque: [...walked.opaque] };
  const nested = (script: string): Unwrapped => {
    if (depth + 1 > MAX_NESTING) return { invocations: [], opaque: ['shell strings nested too deeply to follow'] };
    const inner = analyzeAt(syntax, script, depth + 1);
    analysis.redirections.push(...inner.redirections);
    return { invocations: inner.invocations, opaque: inner.error ? [`a nested shell string is not valid shell (${inner.error})`, ...inner.opaque] : inner.opaque };
  };
  for (const command of walked.commands) {
    const unwrapped = unwrapCommand(command.words, command.assignments, nested);
    analysis.invocations.push(...unwrapped.invocations);
    analysis.opaque.push(...unwrapped.opaque);
  }
  return analysis;
}
