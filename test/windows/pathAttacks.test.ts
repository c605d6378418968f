import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { WINDOWS_PATH_ATTACKS } from './pathAttackTable';
import { requireSimulation, runNodeWin, winPath } from './winSim';

// Issue 24, acceptance 2: NodeWorkspace (the file tools' workspace) under Node.js for Windows: every
// row of the path-attack table is refused for writing and reading, nothing appears outside.

describe('Windows (simulation): the path-attack table', function () {
  this.timeout(180_000);
  let base: string;
  let report: { platform: string; root: string; results: Record<string, { write: string | null; read: string | null }>; caseWrite: string; readOnly: string };
  const inputs = new Map<string, string>();

  before(async () => {
    requireSimulation();
    base = await mkdtemp(path.join(tmpdir(), 'stepwise-winpaths-'));
    const ws = path.join(base, 'ws');
    const out = path.join(base, 'out');
    await mkdir(ws);
    await mkdir(out);
    // Wine cannot make a junction on Z: (ENOTSUP); a symlink made here is the link Windows programs see.
    await symlink(out, path.join(ws, 'jn'));
    for (const [input] of WINDOWS_PATH_ATTACKS) {
      inputs.set(input.replace(/\{ws\}/g, winPath(ws)).replace(/\{out\}/g, winPath(out)).replace(/\{OUT\}/g, winPath(out).toUpperCase()), input);
    }
    const bundle = path.join(base, 'harness.js');
    await build({ entryPoints: [path.join(__dirname, 'harness', 'pathAttackHarness.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: bundle, logLevel: 'error', external: ['vscode'] });
    const r = await runNodeWin([winPath(bundle), winPath(ws), winPath(out), JSON.stringify([...inputs.keys()])], {}, 150_000);
    assert.equal(r.code, 0, r.stderr);
    report = JSON.parse(r.stdout) as typeof report;
  });
  after(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('ran under Windows semantics', () => assert.equal(report.platform, 'win32'));

  for (const [input, construct] of WINDOWS_PATH_ATTACKS) {
    it(`refuses ${construct}: ${JSON.stringify(input)}`, () => {
      const key = [...inputs].find(([, raw]) => raw === input)![0];
      const result = report.results[key];
      assert.ok(result, key);
      assert.ok(result.write, `writing ${key} was allowed`);
      assert.ok(result.read, `reading ${key} was allowed`);
      assert.doesNotMatch(result.write, /ENOENT|EINVAL|EPERM|EACCES/, `refused by the guard, not by chance: ${result.write}`);
    });
  }

  it('wrote nothing outside the workspace, and the workspace holds no stray files', () => {
    assert.deepEqual(readdirSync(path.join(base, 'out')), []);
    assert.deepEqual(readdirSync(path.join(base, 'ws')).sort(), ['case.txt', 'jn', 'ro.txt', 'sub']);
    assert.ok(!existsSync(path.join(base, 'ws', 'a.txt')));
  });

  it('refuses to replace a file with the read-only attribute, and keeps its bytes', () => {
    assert.match(report.readOnly, /read-only/i);
    assert.equal(readFileSync(path.join(base, 'ws', 'ro.txt'), 'utf8'), 'keep\r\n');
  });

  it('accepts the workspace spelled in another case (C:\\Work is c:\\work)', () => assert.equal(report.caseWrite, 'ok'));
});
