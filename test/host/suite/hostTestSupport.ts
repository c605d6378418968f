// Helpers shared by the in-host tests (bundled into each test file).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { StepwiseApi } from '../../../src/extension';

/** The extension id from package.json (`publisher.name`). */
export const EXTENSION_ID = 'stepwise.stepwise';

/** Activates Stepwise and returns its test API. */
export async function activateStepwise(): Promise<StepwiseApi> {
  const extension = vscode.extensions.getExtension<StepwiseApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded in this extension host`);
  return extension.activate();
}

/** The workspace folder the runner opened. */
export function workspaceFolder(): vscode.WorkspaceFolder {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the host tests need a workspace folder');
  return folder;
}

/** Polls `check` until it returns a truthy value; throws with `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, timeoutMs = 30_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every file under `dir` (recursively) whose text contains `needle`. */
export function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = [];
  const walk = (current: string): void => {
    let names: string[];
    try {
      names = readdirSync(current);
    } catch {
      return;
    }
    for (const name of names) {
      const full = path.join(current, name);
      let info;
      try {
        info = statSync(full);
      } catch {
        continue;
      }
      if (info.isDirectory()) walk(full);
      else if (info.size < 50 * 1024 * 1024 && readFileSync(full).includes(needle)) hits.push(full);
    }
  };
  walk(dir);
  return hits;
}

/** The run folder of the test runner (user data, logs); set by runHostTests.ts / runElectron.ts. */
export function runDir(): string {
  const dir = process.env.STEPWISE_TEST_RUN_DIR;
  if (!dir) throw new Error('STEPWISE_TEST_RUN_DIR is not set: start the suite through test/host/runHostTests.ts');
  return dir;
}
