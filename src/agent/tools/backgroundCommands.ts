import type { BackgroundCommand, CommandControl } from '../ports';

/** What became of the background commands when a task ended. */
export interface BackgroundSettlement {
  stopped: BackgroundCommand[];
  kept: BackgroundCommand[];
}

/**
 * The rule for commands the user sent to the background: they end with their task unless the user
 * chooses to keep them. `askKeep` (the VS Code host asks; the CLI passes none) sees the commands not
 * kept before; without it, or when it says no (or fails), they are stopped and this resolves once
 * their process trees are gone. Commands kept earlier are left alone.
 */
export async function settleBackgroundCommands(
  control: CommandControl,
  askKeep?: (commands: readonly BackgroundCommand[]) => Promise<boolean>,
): Promise<BackgroundSettlement> {
  const open = control.backgroundCommands().filter((c) => !c.kept);
  if (open.length === 0) return { stopped: [], kept: [] };
  const keep = askKeep ? await askKeep(open).catch(() => false) : false;
  const ids = open.map((c) => c.id);
  if (keep) {
    control.keep(ids);
    return { stopped: [], kept: open };
  }
  await control.stopBackground(ids);
  return { stopped: open, kept: [] };
}
