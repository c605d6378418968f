import { analyzeCommand } from '../policy/analyzeCommand';
import type { ShellSyntax } from '../policy/shellSyntax';

/** One program a command line starts: its name (basename) and its arguments, quotes removed. */
export interface ProgramCall {
  /** As written (`./node_modules/.bin/jest`). */
  program: string;
  /** Its basename (`jest`). */
  name: string;
  args: readonly string[];
}

/** Scripts of a package manager that test, build, type-check or lint (`test`, `test:unit`, `build`, `lint`, …). */
const CHECK_SCRIPT = /^(test|tests|build|check|lint|typecheck|type-check|tsc|verify|ci)(:.*)?$/;
/** Options of package managers / build tools that take a value, so the value is not the subcommand. */
const VALUE_OPTIONS = new Set(['--prefix', '-C', '--cwd', '--dir', '--filter', '-F', '-w', '--workspace', '-p', '--package', '--manifest-path', '-f', '--file', '-m', '--project']);
/** Tools that are checks whatever their arguments (except asking for help or a version). */
const ALWAYS = new Set(['jest', 'vitest', 'mocha', 'ava', 'tap', 'tsc', 'vue-tsc', 'eslint', 'pytest', 'py.test', 'ctest', 'phpunit', 'rspec', 'mypy', 'pyright', 'tox', 'nox', 'flake8', 'pylint', 'karma', 'cypress', 'playwright', 'nextest']);
/** Programs that run a check given as their first argument (`npx jest`, `bunx vitest`). */
const EXEC = new Set(['npx', 'pnpx', 'bunx']);

/** The first word that is not an option (skipping option values), and what follows it. */
function subcommand(args: readonly string[]): { sub?: string; rest: readonly string[] } {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (VALUE_OPTIONS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    return { sub: a, rest: args.slice(i + 1) };
  }
  return { rest: [] };
}

const sub = (args: readonly string[], ...names: string[]) => names.includes(subcommand(args).sub ?? '');

/**
 * The known check runners, by program: tests, builds, type checks and linters. A linter counts as a
 * check: when it exits non-zero the work is not clean, and the agent ran it to find out. Each entry
 * decides from the arguments (`npm test`, `npm run build`, `go vet`, `cargo clippy`, `python -m pytest`).
 */
const RUNNERS: Record<string, (args: readonly string[]) => boolean> = {
  npm: (a) => packageScript(a, ['test', 't', 'tst']),
  pnpm: (a) => packageScript(a, ['test', 't']) || CHECK_SCRIPT.test(subcommand(a).sub ?? '') || execRuns(a, 'exec'),
  yarn: (a) => packageScript(a, ['test']) || CHECK_SCRIPT.test(subcommand(a).sub ?? '') || execRuns(a, 'dlx') || execRuns(a, 'exec'),
  bun: (a) => packageScript(a, ['test']) || execRuns(a, 'x') || testFile(a),
  deno: (a) => sub(a, 'test', 'check', 'lint') || testFile(a),
  node: (a) => a.includes('--test') || testFile(a),
  python: (a) => pythonModule(a) || testFile(a),
  python3: (a) => pythonModule(a) || testFile(a),
  ruby: testFile,
  bash: testFile,
  sh: testFile,
  go: (a) => sub(a, 'test', 'build', 'vet'),
  cargo: (a) => sub(a, 'test', 'build', 'check', 'clippy', 'nextest'),
  mvn: (a) => a.some((w) => ['test', 'verify', 'package', 'install'].includes(w)),
  mvnw: (a) => a.some((w) => ['test', 'verify', 'package', 'install'].includes(w)),
  gradle: (a) => a.some((w) => /^(:?[\w-]+:)*(test|build|check)$/.test(w)),
  gradlew: (a) => a.some((w) => /^(:?[\w-]+:)*(test|build|check)$/.test(w)),
  dotnet: (a) => sub(a, 'test', 'build'),
  make: (a) => sub(a, 'test', 'check', 'tests', 'build') || a.some((w) => w === 'test' || w === 'check'),
  ninja: (a) => a.includes('test'),
  swift: (a) => sub(a, 'test', 'build'),
  mix: (a) => sub(a, 'test', 'compile'),
  dart: (a) => sub(a, 'test', 'analyze'),
  flutter: (a) => sub(a, 'test', 'analyze'),
  zig: (a) => sub(a, 'build', 'test'),
  ruff: (a) => sub(a, 'check'),
  rake: (a) => sub(a, 'test', 'spec'),
  bundle: (a) => sub(a, 'exec') && isCheckProgram(toCall(subcommand(a).rest)),
  uv: (a) => sub(a, 'run') && isCheckProgram(toCall(subcommand(a).rest)),
  poetry: (a) => sub(a, 'run') && isCheckProgram(toCall(subcommand(a).rest)),
  pipenv: (a) => sub(a, 'run') && isCheckProgram(toCall(subcommand(a).rest)),
  php: (a) => /(^|\/)(phpunit|pest)$/.test(a[0] ?? '') || sub(a, 'artisan') && subcommand(subcommand(a).rest).sub === 'test',
};

function packageScript(args: readonly string[], testNames: string[]): boolean {
  const { sub: s, rest } = subcommand(args);
  if (s !== undefined && testNames.includes(s)) return true;
  return (s === 'run' || s === 'run-script') && CHECK_SCRIPT.test(subcommand(rest).sub ?? '');
}

function execRuns(args: readonly string[], verb: string): boolean {
  const { sub: s, rest } = subcommand(args);
  return s === verb && isCheckProgram(toCall(rest));
}

/** A script run by an interpreter whose path names it a test or spec (`node test/add.test.js`, `python tests/test_api.py`). */
function testFile(args: readonly string[]): boolean {
  const file = subcommand(args).sub;
  return file !== undefined && /(test|spec)/i.test(file);
}

function pythonModule(args: readonly string[]): boolean {
  const m = args.indexOf('-m');
  return m >= 0 && ['pytest', 'unittest', 'tox', 'mypy', 'nox', 'pylint', 'flake8'].includes(args[m + 1] ?? '');
}

function toCall(words: readonly string[]): ProgramCall {
  const program = words[0] ?? '';
  return { program, name: program.split('/').pop() ?? program, args: words.slice(1) };
}

/** True when the program call runs a known test, build, type-check or lint runner. */
export function isCheckProgram(call: ProgramCall): boolean {
  const name = call.name.replace(/\.(cmd|exe|bat)$/i, '');
  if (call.args.some((a) => a === '--help' || a === '-h' || a === '--version' || a === '-v' || a === '--init')) return false;
  if (ALWAYS.has(name)) return true;
  if (EXEC.has(name)) return isCheckProgram(toCall(call.args.filter((a) => !a.startsWith('-'))));
  return RUNNERS[name]?.(call.args) ?? false;
}

/**
 * The programs a command line starts, through the core's shell parser when it is loaded (`cd x &&
 * npm test`, `(cd x; npm test) | tee log`, `env CI=1 npm test`, `bash -c "npm test"`), else split
 * on `&&`, `||`, `;` and `|` with plain words (a fallback for a core without a parser).
 */
export function programsOf(command: string, syntax?: ShellSyntax): ProgramCall[] {
  if (syntax) {
    const analysis = analyzeCommand(syntax, command);
    if (!analysis.error) return analysis.invocations.filter((i) => !i.transparent).map((i) => ({ program: i.program, name: i.name, args: i.args.map((w) => w.value) }));
  }
  return command
    .split(/&&|\|\||[;|\n]/)
    .map((part) => part.trim().replace(/^\(+|\)+$/g, '').split(/\s+/).filter(Boolean).map((w) => w.replace(/^['"]|['"]$/g, '')))
    .map((words) => words.slice(Math.max(0, words.findIndex((w) => !/^\w+=/.test(w) && !FALLBACK_WRAPPERS.has(w)))))
    .filter((words) => words.length > 0)
    .map(toCall);
}

/** Wrappers the fallback splitter looks through (the parser knows them all). */
const FALLBACK_WRAPPERS = new Set(['env', 'time', 'nice', 'nohup', 'command', 'exec']);

/** True when `command` runs a known check runner, or one of the configured `checks` as a part of it. */
export function runsCheck(command: string, checks: readonly string[], syntax?: ShellSyntax): boolean {
  const norm = (s: string) => s.trim().replace(/\s+/g, ' ');
  const parts = programsOf(command, syntax);
  if (parts.some(isCheckProgram)) return true;
  const texts = parts.map((p) => norm([p.program, ...p.args].join(' ')));
  return checks.some((check) => {
    const c = norm(check);
    return c !== '' && (norm(command) === c || texts.some((t) => t === c || t.startsWith(`${c} `)));
  });
}
