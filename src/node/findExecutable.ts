import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Absolute path of the first executable file called `name` on `searchPath` (default `$PATH`),
 * or `undefined`. On Windows the `PATHEXT` extensions are tried too.
 */
export async function findExecutable(name: string, searchPath = process.env.PATH ?? ''): Promise<string | undefined> {
  const extensions = process.platform === 'win32' ? ['', ...(process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  for (const folder of searchPath.split(path.delimiter)) {
    if (folder === '') continue;
    for (const extension of extensions) {
      const candidate = path.join(folder, name + extension);
      try {
        await access(candidate, constants.X_OK);
        if ((await stat(candidate)).isFile()) return candidate;
      } catch {}
    }
  }
  return undefined;
}
