import type { CommandAnalysis } from './commandAnalysis';
import { MAX_NESTING, type Invocation } from './commandWrappers';
import type { ShellWord } from './shellWords';
import { splitCmd, splitPowerShell, type WindowsSplit } from './windowsWords';

/** The Windows command languages the policy reads. */
export type WindowsDialect = 'cmd' | 'powershell';

/**
 * A program's name as Windows finds it: case-insensitive, with or without `.exe` / `.cmd` / `.bat` /
 * `.com` / `.ps1`, by any path (`C:\Windows\System32\SHUTDOWN.EXE` is `shutdown`).
 */
export function windowsProgramName(program: string): string {
  const base = program.slice(Math.max(program.lastIndexOf('\\'), program.lastIndexOf('/')) + 1);
  return base.toLowerCase().replace(/\.(exe|cmd|bat|com|ps1)$/, '');
}

/** PowerShell aliases of the commands the policy looks into (what `Get-Alias` lists by default). */
const PS_ALIASES: Record<string, string> = {
  iex: 'invoke-expression', saps: 'start-process', start: 'start-process', icm: 'invoke-command',
  ri: 'remove-item', rm: 'remove-item', rmdir: 'remove-item', del: 'remove-item', erase: 'remove-item', rd: 'remove-item',
};

const CMD_SHELLS = new Set(['cmd']);
const POWERSHELLS = new Set(['powershell', 'pwsh']);
/** cmd.exe switches before `/c` or `/k`. */
const CMD_SWITCH = /^\/([dqsaun]|[ef]:(on|off)|v(:(on|off))?|t:\w+)$/i;
/** PowerShell switches that take a value (everything before `-Command` / `-File`). */
const PS_VALUE_SWITCHES = new Set(['-executionpolicy', '-ep', '-ex', '-windowstyle', '-w', '-inputformat', '-if', '-outputformat', '-of', '-o', '-configurationname', '-version', '-v', '-psconsolefile', '-settingsfile', '-workingdirectory', '-wd', '-custompipename', '-encodedarguments', '-ea']);

type Nested = (dialect: WindowsDialect, text: string) => void;

/** The analysis being built: what nested strings add joins it. */
interface Builder {
  analysis: CommandAnalysis;
  nested: Nested;
}

const literal = (value: string): ShellWord => ({ value, dynamic: false, substitution: false });

function invocation(program: ShellWord, args: ShellWord[], transparent = false): Invocation {
  const path = program.value.replace(/\\/g, '/');
  const name = windowsProgramName(path);
  return { program: path.includes('/') ? path.toLowerCase().replace(/\.(exe|cmd|bat|com|ps1)$/, '') : name, name, args, assignments: [], transparent };
}

/** `-EncodedCommand`'s text: base64 of UTF-16LE; `undefined` when it is not. */
export function decodeEncodedCommand(value: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || value.length % 4 !== 0) return undefined;
  const bytes = Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
  if (bytes.length % 2 !== 0) return undefined;
  return new TextDecoder('utf-16le').decode(bytes);
}

/** `cmd [/d /s /q …] /c|/k <command>`: the command is cmd.exe code; bare `cmd` starts an interactive shell. */
function unwrapCmd(words: ShellWord[], b: Builder): void {
  let i = 1;
  while (i < words.length && CMD_SWITCH.test(words[i]!.value)) i++;
  const flag = words[i]?.value.toLowerCase();
  if (flag !== '/c' && flag !== '/k') {
    b.analysis.invocations.push(invocation(words[0]!, words.slice(1)));
    return;
  }
  b.analysis.invocations.push(invocation(words[0]!, [], true));
  const rest = words.slice(i + 1);
  if (rest.some((w) => w.dynamic)) b.analysis.opaque.push('cmd /c runs a command line only known when it runs');
  b.nested('cmd', rest.map((w) => w.value).join(' '));
}

/** `powershell|pwsh [switches] -Command <text> | -EncodedCommand <b64> | -File <script>`; the text is PowerShell code. */
function unwrapPowerShell(words: ShellWord[], b: Builder): void {
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    const lower = w.value.toLowerCase();
    if (PS_VALUE_SWITCHES.has(lower)) {
      i++;
      continue;
    }
    if (/^-(e|ec|enc|encodedcommand)$/.test(lower)) {
      const decoded = w.dynamic ? undefined : decodeEncodedCommand(words[i + 1]?.value ?? '');
      b.analysis.invocations.push(invocation(words[0]!, [], true));
      if (decoded === undefined) b.analysis.opaque.push('an -EncodedCommand that does not decode');
      else b.nested('powershell', decoded);
      return;
    }
    if (/^-(c|command)$/.test(lower) || !lower.startsWith('-')) {
      const rest = words.slice(/^-/.test(lower) ? i + 1 : i);
      if (/^-/.test(lower) || !/\.ps1$/i.test(w.value)) {
        b.analysis.invocations.push(invocation(words[0]!, [], true));
        if (rest.some((x) => x.dynamic)) b.analysis.opaque.push('powershell -Command runs code only known when it runs');
        b.nested('powershell', rest.map((x) => x.value).join(' '));
        return;
      }
    }
    if (/^-(f|file)$/.test(lower) || /\.ps1$/i.test(w.value)) {
      const script = /^-/.test(lower) ? words[i + 1] : w;
      b.analysis.invocations.push(invocation(words[0]!, [], true));
      if (script) runWords([script, ...words.slice(words.indexOf(script) + 1)], b, 'powershell');
      return;
    }
  }
  b.analysis.invocations.push(invocation(words[0]!, words.slice(1)));
}

/** The value of a named (`-Name value`, `-Name:value`) or the n-th positional parameter of a cmdlet. */
function parameter(args: ShellWord[], names: readonly string[], position: number): ShellWord[] | undefined {
  const positional: ShellWord[][] = [];
  for (let i = 0; i < args.length; i++) {
    const lower = args[i]!.value.toLowerCase();
    const [flag, inline] = lower.includes(':') && lower.startsWith('-') ? [lower.slice(0, lower.indexOf(':')), args[i]!.value.slice(lower.indexOf(':') + 1)] : [lower, undefined];
    if (names.includes(flag)) return inline !== undefined ? [literal(inline)] : args.slice(i + 1, i + 2);
    if (flag.startsWith('-')) {
      if (!/^-(wait|nonewwindow|passthru|usenewenvironment|force|recurse|confirm|whatif)$/.test(flag)) i++;
      continue;
    }
    positional.push([args[i]!]);
  }
  return positional[position];
}

/** `Invoke-Expression <text>`: its text is PowerShell code, followed when it is written out. */
function unwrapInvokeExpression(words: ShellWord[], b: Builder): void {
  b.analysis.invocations.push(invocation(words[0]!, [], true));
  const code = parameter(words.slice(1), ['-command', '-c'], 0)?.[0];
  if (!code || code.dynamic) b.analysis.opaque.push('Invoke-Expression runs code only known when it runs');
  else b.nested('powershell', code.value);
}

const START_PROCESS_SWITCHES = /^-(wait|nonewwindow|passthru|usenewenvironment|loaduserprofile|useshellexecute)$/;

/** `Start-Process <file> [-ArgumentList a,b] [-Verb RunAs] …`: it starts `file` with those arguments (as one command line). */
function unwrapStartProcess(words: ShellWord[], b: Builder): void {
  let file: ShellWord | undefined;
  let verb = '';
  const list: ShellWord[] = [];
  let target: 'list' | undefined;
  const args = words.slice(1);
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const lower = w.value.toLowerCase();
    if (/^-(filepath|path|file)$/.test(lower)) {
      file = args[++i];
      target = undefined;
    }
    else if (/^-(argumentlist|args)$/.test(lower)) target = 'list';
    else if (lower === '-verb') verb = (args[++i]?.value ?? '').toLowerCase();
    else if (START_PROCESS_SWITCHES.test(lower)) target = undefined;
    else if (lower.startsWith('-') && target === undefined) i++;
    else if (!file && target === undefined) file = w;
    else list.push(w);
  }
  b.analysis.invocations.push(invocation(words[0]!, verb === 'runas' ? [literal('-Verb'), literal('RunAs')] : [], verb !== 'runas'));
  if (!file || file.dynamic) {
    b.analysis.opaque.push('Start-Process starts a program only known when it runs');
    return;
  }
  if (list.some((w) => w.dynamic)) b.analysis.opaque.push('Start-Process passes arguments only known when it runs');
  const started = splitCmd(`"${file.value}" ${list.map((w) => w.value).join(' ')}`);
  for (const segment of started.segments) runWords(segment.words, b, 'cmd');
}

/** `start ["title"] [/b /wait /d dir …] <program> …` in cmd: it starts the program. */
function unwrapCmdStart(words: ShellWord[], b: Builder): void {
  // cmd takes a first quoted argument as the window's title (`start "" prog`, `start "My title" prog`).
  let i = words[1] && (words[1].value === '' || /\s/.test(words[1].value)) ? 2 : 1;
  for (; i < words.length; i++) {
    const lower = words[i]!.value.toLowerCase();
    if (lower === '/d') i++;
    else if (!/^\/\w+$/.test(lower)) break;
  }
  b.analysis.invocations.push(invocation(words[0]!, [], true));
  if (i < words.length) runWords(words.slice(i), b, 'cmd');
}

/** One simple command: wrappers are looked through, everything else is an invocation. */
function runWords(words: ShellWord[], b: Builder, dialect: WindowsDialect): void {
  const first = words[0];
  if (!first) return;
  if (first.dynamic) {
    b.analysis.opaque.push(`the program "${first.value}" is only known when it runs`);
    return;
  }
  const base = windowsProgramName(first.value);
  const name = dialect === 'powershell' ? (PS_ALIASES[base] ?? base) : base;
  if (CMD_SHELLS.has(name)) return unwrapCmd(words, b);
  if (POWERSHELLS.has(name)) return unwrapPowerShell(words, b);
  if (dialect === 'powershell' && name === 'invoke-expression') return unwrapInvokeExpression(words, b);
  if (dialect === 'powershell' && name === 'start-process') return unwrapStartProcess(words, b);
  if (dialect === 'cmd' && (name === 'start' || name === 'call')) return name === 'start' ? unwrapCmdStart(words, b) : runWords(words.slice(1), b, 'cmd');
  if (dialect === 'cmd' && (name === 'if' || name === 'for')) {
    b.analysis.opaque.push(`cmd's ${name} runs commands its text does not show plainly`);
    return;
  }
  const found = invocation(first, words.slice(1));
  // An alias is matched as the command it stands for (`rm` is `Remove-Item` in PowerShell).
  if (dialect === 'powershell' && PS_ALIASES[base]) found.name = found.program = name;
  b.analysis.invocations.push(found);
}

function analyzeAt(dialect: WindowsDialect, text: string, depth: number): CommandAnalysis {
  const split: WindowsSplit = dialect === 'cmd' ? splitCmd(text) : splitPowerShell(text);
  if (split.error) return { error: split.error, invocations: [], redirections: [], opaque: [] };
  const analysis: CommandAnalysis = { invocations: [], redirections: [], opaque: [...split.opaque] };
  const nested: Nested = (innerDialect, innerText) => {
    if (depth + 1 > MAX_NESTING) {
      analysis.opaque.push('shell strings nested too deeply to follow');
      return;
    }
    const inner = analyzeAt(innerDialect, innerText, depth + 1);
    if (inner.error) analysis.opaque.push(`a nested command line could not be read (${inner.error})`);
    analysis.invocations.push(...inner.invocations);
    analysis.redirections.push(...inner.redirections);
    analysis.opaque.push(...inner.opaque);
  };
  const b: Builder = { analysis, nested };
  for (const segment of split.segments) {
    analysis.redirections.push(...segment.redirections);
    runWords(segment.words, b, dialect);
  }
  for (const inner of split.inner) nested('powershell', inner);
  return analysis;
}

/**
 * Reads a cmd.exe or PowerShell command line into the same analysis the bash grammar gives: every
 * program it would start, through `cmd /c`, `powershell -Command` / `-EncodedCommand`,
 * `Invoke-Expression`, `Start-Process`, `start`, `call` and PowerShell's brackets (to
 * `MAX_NESTING` levels), and every redirection. No maintained grammar of either language runs
 * here, so the reading is conservative: what it cannot see through (`%VAR%` as a program, `if` /
 * `for` bodies, code built at run time) is `opaque` and is asked.
 */
export function analyzeWindowsCommand(dialect: WindowsDialect, text: string): CommandAnalysis {
  return { ...analyzeAt(dialect, text, 0), foldCase: true };
}
