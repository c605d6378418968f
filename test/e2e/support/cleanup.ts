// Ends a workbench started by openWorkbench and removes its run folder (workspace, profile, logs).
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ARTIFACTS, type Workbench } from './workbench';

/**
 * Closes the browser, stops code-server (its whole process group, by PID) and deletes the run
 * folder. When `failedAs` is given, code-server's log is first kept as `<failedAs>-code-server.log`
 * in the artifacts folder.
 */
export async function closeAndRemove(wb: Workbench | undefined, failedAs?: string): Promise<void> {
  if (!wb) return;
  await wb.close();
  if (failedAs && existsSync(wb.server.logFile)) {
    mkdirSync(ARTIFACTS, { recursive: true });
    copyFileSync(wb.server.logFile, path.join(ARTIFACTS, `${failedAs}-code-server.log`));
  }
  rmSync(wb.runDir, { recursive: true, force: true });
}
