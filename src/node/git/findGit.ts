import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { findExecutable } from '../findExecutable';

/**
 * The git to run: the first on `searchPath`; on Windows also where Git for Windows installs itself
 * (`%ProgramFiles%\Git\cmd\git.exe`, per machine or per user), which is where VS Code's git extension
 * looks when PATH has none. `undefined` when there is none.
 */
export async function findGit(searchPath: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<string | undefined> {
  const onPath = await findExecutable('git', searchPath);
  if (onPath || platform !== 'win32') return onPath;
  const places = [env.ProgramW6432, env.ProgramFiles, env['ProgramFiles(x86)'], env.LOCALAPPDATA && `${env.LOCALAPPDATA}\\Programs`]
    .filter((folder): folder is string => !!folder)
    .map((folder) => `${folder}\\Git\\cmd\\git.exe`);
  for (const place of places) {
    if (await access(place, constants.X_OK).then(() => true, () => false)) return place;
  }
  return undefined;
}
