// Runs the same in-host suite with @vscode/test-electron (desktop VS Code). It downloads VS Code, so it only works
// on machines with internet access; offline, use runHostTests.ts (code-server) instead.
//   usage: npm run build && tsx test/host/runElectron.ts
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { buildHostTests } from './buildHostTests';
import { REPO_ROOT } from './codeServer';

async function main(): Promise<void> {
  const extensionTestsPath = await buildHostTests();
  const runDir = mkdtempSync(path.join(os.tmpdir(), 'stepwise-electron-'));
  const workspace = path.join(runDir, 'workspace');
  mkdirSync(path.join(workspace, 'src'), { recursive: true });
  writeFileSync(path.join(workspace, 'README.md'), '# Host test workspace\n');
  writeFileSync(path.join(workspace, 'src', 'greet.js'), "export function greet(name) {\n  return 'Hello, ' + name;\n}\n");
  await runTests({
    extensionDevelopmentPath: REPO_ROOT,
    extensionTestsPath,
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--user-data-dir', path.join(runDir, 'user-data')],
    extensionTestsEnv: { STEPWISE_TEST_RUN_DIR: runDir },
  });
}

main().catch((error: unknown) => {
  console.error('Electron host tests failed:', error);
  process.exit(1);
});
