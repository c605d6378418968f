import { groupHasLiveMembers, signalGroup } from '../processGroup';
import { windowsWatchdogTrack } from '../windowsWatchdog';
import { endWindowsTree, endWindowsTreeSync, windowsTreeHasMembers } from './windowsProcesses';

/** How often the group is checked while it is being stopped. */
const POLL_MS = 50;
/** How long after SIGKILL the group may take to go. */
const FINAL_WAIT_MS = 1000;

const onWindows = process.platform === 'win32';

/**
 * A command's process tree, whatever the platform: on POSIX the process group the shell leads, on
 * Windows (no groups) the processes below the shell by the parent chain (`windowsProcesses`).
 */
export const processTree = {
  /** Whether the spawn should detach (POSIX: a new process group to signal as one; Windows: no). */
  detached: !onWindows,

  /** True while anything of the tree still runs (after the shell exited: its leftovers). */
  async hasMembers(root: number): Promise<boolean> {
    return onWindows ? windowsTreeHasMembers(root) : groupHasLiveMembers(root);
  },

  /**
   * Ends the tree. POSIX: SIGTERM to the group, SIGKILL after `graceMs` if anything still runs.
   * Windows: terminated at once (Windows has no SIGTERM for a console program without a console
   * to send Ctrl+Break to). Returns a line for the log when it had to force.
   */
  async end(root: number, graceMs: number): Promise<string | undefined> {
    if (onWindows) {
      const ended = await endWindowsTree(root, true);
      return ended.length > 1 ? `Ended ${ended.length} process(es) of the command's tree` : undefined;
    }
    if (!signalGroup(root, 'SIGTERM')) return undefined;
    if (await waitUntilGone(root, graceMs)) return undefined;
    signalGroup(root, 'SIGKILL');
    await waitUntilGone(root, FINAL_WAIT_MS);
    return `Process group ${root} ignored SIGTERM; sent SIGKILL`;
  },

  /** A command's shell started: on Windows the watchdog is told (POSIX needs nothing: the tag marks the tree). */
  started(root: number): void {
    if (onWindows) windowsWatchdogTrack(root, true);
  },

  /** The command's tree was ended (or exited): the watchdog forgets it. */
  ended(root: number): void {
    if (onWindows) windowsWatchdogTrack(root, false);
  },

  /** Kills the tree at once, synchronously (shutting down the host). */
  killSync(root: number): void {
    if (onWindows) endWindowsTreeSync(root);
    else signalGroup(root, 'SIGKILL');
  },
};

async function waitUntilGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  for (;;) {
    if (!(await groupHasLiveMembers(pgid))) return true;
    if (performance.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
