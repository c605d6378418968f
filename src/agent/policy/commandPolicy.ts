import type { CommandAnalysis } from './analyzeCommand';
import type { Invocation } from './commandWrappers';
import { matchForms, patternMatches } from './commandPatterns';
import { resolvePosix } from './posixPath';
import { protectedPathReason } from './protectedPaths';
import type { Redirection } from './shellWalk';

/** The user's command lists: deny always wins; allow runs without asking. */
export interface CommandLists {
  allow: readonly string[];
  deny: readonly string[];
}

/**
 * What the lists say about a command line. `ask` with `visible: false` means parts of it cannot be
 * known before it runs, so the deny list could not be checked on them: it is asked even when
 * commands are auto-approved.
 */
export type CommandVerdict =
  | { kind: 'deny'; pattern: string; command: string }
  | { kind: 'allow' }
  | { kind: 'ask'; reason: string; visible: boolean };

/** Variables that change which program runs or what it loads: an allowed command with them set is asked. */
const RISKY_VARIABLES = /^(PATH|LD_\w+|DYLD_\w+|BASH_ENV|ENV|BASH_FUNC_\w+|SHELLOPTS|BASHOPTS|PS4|IFS|PROMPT_COMMAND|NODE_OPTIONS|NODE_PATH|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|GIT_\w+|NPM_CONFIG_\w+|EDITOR|VISUAL|PAGER)$/i;
const WRITE_OPERATORS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&', '&>|']);
const HARMLESS_TARGETS = /^(\/dev\/(null|stdout|stderr|tty|fd\/\d+)|\d+|-)$/;
/** Windows' null device (cmd's `nul`, PowerShell's `$null`). */
const HARMLESS_WINDOWS_TARGETS = /^(nul|\$null)$/i;
const CHANGES_DIRECTORY = new Set(['cd', 'pushd', 'popd']);

function commandText(invocation: Invocation): string {
  return [invocation.program, ...invocation.args.map((a) => a.value)].join(' ');
}

/** The forms an invocation is matched as; Windows lines (`foldCase`) lower-cased, like Windows compares names. */
function formsOf(analysis: CommandAnalysis, invocation: Invocation, forAllow: boolean): string[][] {
  const forms = matchForms(invocation, forAllow);
  return analysis.foldCase ? forms.map((form) => form.map((w) => w.toLowerCase())) : forms;
}

/** Whether a list's pattern matches one of the forms (on Windows lines, lower-cased and without `.exe` on the program). */
function matches(analysis: CommandAnalysis, pattern: string, forms: string[][]): boolean {
  const p = analysis.foldCase ? pattern.trim().toLowerCase().replace(/^(\S+?)\.(exe|cmd|bat|com)(?=\s|$)/, '$1') : pattern;
  return forms.some((form) => patternMatches(p, form));
}

/** The first deny pattern that matches any program of the command line. */
function deniedBy(analysis: CommandAnalysis, deny: readonly string[]): { pattern: string; command: string } | undefined {
  for (const invocation of analysis.invocations) {
    const forms = formsOf(analysis, invocation, false);
    const pattern = deny.find((p) => matches(analysis, p, forms));
    if (pattern !== undefined) return { pattern, command: commandText(invocation) };
  }
  return undefined;
}

/** `rm -r $DIR` with `$DIR` unset is `rm -r /`-like: a recursive delete whose target is only known at run time. */
function hiddenRecursiveDelete(analysis: CommandAnalysis): string | undefined {
  if (analysis.foldCase) return hiddenWindowsDelete(analysis);
  for (const invocation of analysis.invocations) {
    if (invocation.name !== 'rm') continue;
    const recursive = invocation.args.some((a) => !a.dynamic && (/^-[^-]*[rR]/.test(a.value) || a.value === '--recursive'));
    const hidden = invocation.args.find((a) => a.dynamic && /^\$/.test(a.value) && !/^(\$HOME|\$\{HOME\})(\/|$)/.test(a.value));
    if (recursive && hidden) return `a recursive rm of "${hidden.value}", a path only known when the command runs`;
  }
  return undefined;
}

const WINDOWS_DELETES = new Set(['rd', 'rmdir', 'del', 'erase', 'remove-item']);

/** `rd /s %DIR%`, `Remove-Item -Recurse $dir`: a recursive delete whose target is only known at run time. */
function hiddenWindowsDelete(analysis: CommandAnalysis): string | undefined {
  for (const invocation of analysis.invocations) {
    if (!WINDOWS_DELETES.has(invocation.name)) continue;
    const recursive = invocation.args.some((a) => /^(\/s|-r\w*)$/i.test(a.value));
    const hidden = invocation.args.find((a) => a.dynamic);
    if (recursive && hidden) return `a recursive ${invocation.name} of "${hidden.value}", a path only known when the command runs`;
  }
  return undefined;
}

/** Why a redirection may not run without asking (writes outside the workspace or to a protected file). */
function redirectionProblem(redirection: Redirection, cwd: string, changesDirectory: boolean): string | undefined {
  if (!WRITE_OPERATORS.has(redirection.op)) return undefined;
  const target = redirection.target;
  if (!target.dynamic && HARMLESS_TARGETS.test(target.value)) return undefined;
  if (target.dynamic) return `it writes to "${target.value}", a path only known when the command runs`;
  if (target.value.startsWith('~')) return `it writes outside the workspace (${target.value})`;
  if (changesDirectory && !target.value.startsWith('/')) return `it changes folder and then writes to ${target.value}`;
  const absolute = resolvePosix(cwd, target.value);
  const root = resolvePosix(cwd);
  if (absolute !== root && !absolute.startsWith(root === '/' ? '/' : root + '/')) return `it writes outside the workspace (${target.value})`;
  const reason = protectedPathReason(root === '/' ? absolute.slice(1) : absolute.slice(root.length + 1));
  return reason ? `it writes ${target.value}: ${reason}` : undefined;
}

/** A Windows path as a POSIX-like one for the same checks: `C:\\ws\\a` is `/c:/ws/a`, case folded; `undefined` for a drive-relative `C:a`. */
function slashed(target: string): string | undefined {
  const t = target.replace(/\\/g, '/').toLowerCase();
  if (/^[a-z]:(?!\/)/.test(t)) return undefined;
  return /^[a-z]:\//.test(t) ? `/${t}` : t;
}

/** `redirectionProblem` for cmd.exe and PowerShell: drive letters, UNC and `\\?\\` paths, `nul`. */
function windowsRedirectionProblem(redirection: Redirection, cwd: string, changesDirectory: boolean): string | undefined {
  const target = redirection.target;
  if (!redirection.op.includes('>') || HARMLESS_WINDOWS_TARGETS.test(target.value)) return undefined;
  const path = slashed(target.value);
  const root = slashed(cwd);
  if (!target.dynamic && (path === undefined || root === undefined || path.startsWith('//'))) return `it writes outside the workspace (${target.value})`;
  // `*>`, `3>>`: every PowerShell stream redirection writes like `>`.
  return redirectionProblem({ op: '>', target: { ...target, value: path ?? target.value } }, root ?? cwd, changesDirectory);
}

function allowProblem(analysis: CommandAnalysis, allow: readonly string[], cwd: string): string {
  for (const invocation of analysis.invocations) {
    const risky = invocation.assignments.find((name) => RISKY_VARIABLES.test(name));
    if (risky) return `\`${commandText(invocation)}\` runs with ${risky} changed`;
    if (invocation.transparent) continue;
    const forms = formsOf(analysis, invocation, true);
    if (!forms.every((form) => allow.some((p) => matches(analysis, p, [form])))) return `\`${commandText(invocation)}\` is not in the allow list`;
  }
  const changesDirectory = analysis.invocations.some((i) => CHANGES_DIRECTORY.has(i.name));
  for (const redirection of analysis.redirections) {
    const problem = analysis.foldCase ? windowsRedirectionProblem(redirection, cwd, changesDirectory) : redirectionProblem(redirection, cwd, changesDirectory);
    if (problem) return problem;
  }
  return '';
}

/**
 * Judges an analysed command line run in `cwd` (the workspace root). Deny applies to every program
 * it would start and always wins; unparseable or partly hidden input asks; allow needs every program
 * allowed, no risky variable set in front, and no redirection that writes outside the workspace or
 * to a protected file.
 */
export function judgeCommand(analysis: CommandAnalysis, lists: CommandLists, cwd: string): CommandVerdict {
  if (analysis.error) return { kind: 'ask', reason: `it could not be parsed: ${analysis.error}`, visible: false };
  const denied = deniedBy(analysis, lists.deny);
  if (denied) return { kind: 'deny', ...denied };
  const hidden = analysis.opaque[0] ?? hiddenRecursiveDelete(analysis);
  if (hidden) return { kind: 'ask', reason: hidden, visible: false };
  if (analysis.invocations.length === 0) return { kind: 'ask', reason: 'it runs no program', visible: true };
  const problem = allowProblem(analysis, lists.allow, cwd);
  return problem ? { kind: 'ask', reason: problem, visible: true } : { kind: 'allow' };
}
