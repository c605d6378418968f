import type { Workspace } from '../ports';

/**
 * `workspace` with every `writeFile` reported to `wrote` first, by its workspace-relative path
 * (`undefined` when the path cannot be resolved: then nothing is vouched for). Reported before the
 * write starts, so a write that fails or is cancelled half way still counts as one that may have
 * changed the file. Every other member is the workspace's own.
 */
export function trackWrites(workspace: Workspace, wrote: (rel: string | undefined) => void): Workspace {
  return {
    get root() {
      return workspace.root;
    },
    resolve: (input) => workspace.resolve(input),
    stat: (input) => workspace.stat(input),
    readFile: (input, signal) => workspace.readFile(input, signal),
    readRange: (input, range, signal) => workspace.readRange(input, range, signal),
    listFiles: (input, options) => workspace.listFiles(input, options),
    searchFiles: (query, signal) => workspace.searchFiles(query, signal),
    writeFile: async (input, content, signal) => {
      wrote(await workspace.resolve(input).catch(() => undefined));
      return workspace.writeFile(input, content, signal);
    },
  };
}
