import { readFile } from 'node:fs/promises';
import type { ConfigFileReader } from './mcpConfig';

/** Reads config files from disk as UTF-8; a missing file is `undefined`, other failures throw. */
export const nodeConfigReader: ConfigFileReader = async (absolutePath) => {
  try {
    return await readFile(absolutePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
};
