import { findExecutable } from '../findExecutable';

/** What the model (and the user) read when no interpreter can be found. */
export const NO_PYTHON =
  'No Python 3 interpreter found: python_execute needs `python3` (or `python`) on PATH, or STEPWISE_PYTHON set to one. ' +
  'Install Python 3 (with pandas and matplotlib for data work, e.g. `apt install python3-pandas python3-matplotlib`), or do the work with other tools.';

/**
 * The interpreter `python_execute` starts, as a terminal would find it: `python3`, then `python`,
 * on `searchPath` (default PATH). `undefined` when neither is there; a `python` that is Python 2
 * fails at start and is reported then.
 */
export async function findPython(searchPath?: string): Promise<string | undefined> {
  return (await findExecutable('python3', searchPath)) ?? (await findExecutable('python', searchPath));
}
