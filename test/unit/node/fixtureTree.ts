import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes `files` (workspace-relative path -> content) under `root`, creating folders. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const full = path.join(root, ...rel.split('/'));
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}
