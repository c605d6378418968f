import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** What is known of one file over the size cap: the stat data its hash was taken at, and the fingerprint. */
interface Known {
  size: number;
  mtimeMs: number;
  fingerprint: string;
}

/**
 * Fingerprints (`size:sha256`) of the files a snapshot leaves out for the size cap. The hash is
 * taken again only when the file's size or mtime changed (the same trade git makes for the files
 * it tracks), so a large file costs one `lstat` per snapshot once hashed. Kept in a JSON file in
 * the store so the next process does not hash again.
 */
export class LargeFiles {
  private known: Map<string, Known> | undefined;
  private dirty = false;

  constructor(private readonly file: string) {}

  /** The fingerprints of `paths` (workspace-relative) now; a file that cannot be read is left out. */
  async fingerprints(paths: readonly string[], root: string): Promise<Record<string, string>> {
    const known = await this.load();
    const out: Record<string, string> = {};
    for (const rel of paths) {
      const full = path.join(root, rel);
      const info = await lstat(full).catch(() => undefined);
      if (!info?.isFile()) continue;
      const old = known.get(rel);
      if (old && old.size === info.size && old.mtimeMs === info.mtimeMs) {
        out[rel] = old.fingerprint;
        continue;
      }
      const sha = await hashFile(full).catch(() => undefined);
      if (sha === undefined) continue;
      out[rel] = `${info.size}:${sha}`;
      known.set(rel, { size: info.size, mtimeMs: info.mtimeMs, fingerprint: out[rel] });
      this.dirty = true;
    }
    return out;
  }

  /** Writes what was learned (a lost write only costs a hash next time). */
  async save(): Promise<void> {
    if (!this.dirty || !this.known) return;
    this.dirty = false;
    await writeFile(this.file, JSON.stringify(Object.fromEntries(this.known)) + '\n').catch(() => undefined);
  }

  private async load(): Promise<Map<string, Known>> {
    if (this.known) return this.known;
    let parsed: Record<string, Known> = {};
    try {
      parsed = JSON.parse(await readFile(this.file, 'utf8')) as Record<string, Known>;
    } catch {
      // Missing or cut short: every large file is hashed again.
    }
    this.known = new Map(Object.entries(parsed).filter(([, k]) => typeof k?.fingerprint === 'string'));
    return this.known;
  }
}

function hashFile(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}
