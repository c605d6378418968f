import type { Workspace } from '../ports';

/** What `npm init` writes as the test script: not a check. */
const NPM_PLACEHOLDER = /no test specified/i;

async function readText(workspace: Workspace, path: string): Promise<string | undefined> {
  try {
    if ((await workspace.stat(path))?.kind !== 'file') return undefined;
    return new TextDecoder().decode(await workspace.readFile(path));
  } catch {
    return undefined;
  }
}

/** One way to recognise a project's check: a file to read and a test on its text (or its mere presence). */
interface Detector {
  file: string;
  command: string;
  matches: (text: string) => boolean;
}

const DETECTORS: readonly Detector[] = [
  {
    file: 'package.json',
    command: 'npm test',
    matches: (text) => {
      try {
        const test = (JSON.parse(text) as { scripts?: { test?: unknown } }).scripts?.test;
        return typeof test === 'string' && test.trim() !== '' && !NPM_PLACEHOLDER.test(test);
      } catch {
        return false;
      }
    },
  },
  { file: 'pytest.ini', command: 'pytest', matches: () => true },
  { file: 'pyproject.toml', command: 'pytest', matches: (text) => /^\[tool\.pytest/m.test(text) },
  { file: 'setup.cfg', command: 'pytest', matches: (text) => /^\[tool:pytest\]/m.test(text) },
  { file: 'tox.ini', command: 'pytest', matches: (text) => /^\[pytest\]/m.test(text) },
  { file: 'conftest.py', command: 'pytest', matches: () => true },
  { file: 'go.mod', command: 'go test ./...', matches: () => true },
  { file: 'Cargo.toml', command: 'cargo test', matches: () => true },
  { file: 'Makefile', command: 'make test', matches: (text) => /^test\s*:/m.test(text) },
  { file: 'makefile', command: 'make test', matches: (text) => /^test\s*:/m.test(text) },
];

/**
 * The workspace's obvious check, looked for at its root in this order: package.json's `test`
 * script (unless npm's placeholder), pytest (pytest.ini, `[tool.pytest…]` in pyproject.toml,
 * setup.cfg or tox.ini sections, conftest.py), `go test ./...` (go.mod), `cargo test`
 * (Cargo.toml), a Makefile `test` target. `undefined` when none is found.
 */
export async function detectCheck(workspace: Workspace): Promise<string | undefined> {
  for (const detector of DETECTORS) {
    const text = await readText(workspace, detector.file);
    if (text !== undefined && detector.matches(text)) return detector.command;
  }
  return undefined;
}
