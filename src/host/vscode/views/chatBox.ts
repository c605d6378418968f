import type { CommandDeps } from '../commands/registerCommands';
import { droppedPaths } from '../mentions/droppedPaths';
import type { TaskViews } from './taskViews';

/** The sidebar chat box as the commands see it: the caret into its input, dropped files back to it as mention paths. */
export function chatBoxOf(views: TaskViews): CommandDeps['chatBox'] {
  return {
    focusInput: async ({ newTask }) => {
      if (newTask) views.clearRun();
      await views.focusInput();
    },
    mentionUris: async (uris) => {
      const dropped = await droppedPaths(uris);
      views.sendMentionPaths(dropped.paths, dropped.refused);
    },
  };
}
