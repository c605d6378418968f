// A small sample project to try Stepwise on (npm start) and to drive the e2e tests against.
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './codeServer';

const FILES: Record<string, string> = {
  'README.md': '# Sample project\n\nA tiny library to try Stepwise on: `greet(name)` in `src/greet.js`, tests in `test/`.\n\nRun the tests with `npm test`.\n',
  'package.json': JSON.stringify({ name: 'sample-project', version: '1.0.0', private: true, type: 'module', scripts: { test: 'node --test' } }, null, 2) + '\n',
  'src/greet.js': "export function greet(name) {\n  return 'Hello, ' + name;\n}\n",
  'test/greet.test.js':
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { greet } from '../src/greet.js';\n\ntest('greets by name', () => {\n  assert.equal(greet('Ada'), 'Hello, Ada');\n});\n",
};

/**
 * Fills `dir` with the sample project: test/fixtures/sample-workspace when the repository has one,
 * else the built-in files above. Existing files are left as they are unless `overwrite`.
 */
export function createSampleWorkspace(dir: string, overwrite = false): string {
  mkdirSync(dir, { recursive: true });
  const fixture = path.join(REPO_ROOT, 'test', 'fixtures', 'sample-workspace');
  if (existsSync(fixture)) {
    cpSync(fixture, dir, { recursive: true, force: overwrite });
    return dir;
  }
  for (const [rel, text] of Object.entries(FILES)) {
    const file = path.join(dir, ...rel.split('/'));
    if (!overwrite && existsSync(file)) continue;
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return dir;
}
