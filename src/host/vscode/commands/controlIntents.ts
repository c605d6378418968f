import * as vscode from 'vscode';
import type { CommandControl } from '../../../agent/ports';
import type { WebviewIntent } from '../../../shared/webviewProtocol';

/** What the history and command-control intents need. */
export interface ControlIntentDeps {
  /** Stop / background for running commands (the execa runner). */
  commandControl?: CommandControl;
  /** Answers the sidebar's history search box. */
  searchHistory?: (query: string) => Promise<void>;
}

/**
 * Carries out the intents of the history list (search, delete, export) and of a running command's
 * card (stop it, let it run in the background). Returns false for any other intent. Delete and
 * export go through their commands, which confirm and ask where to save.
 */
export async function handleControlIntent(intent: WebviewIntent, deps: ControlIntentDeps): Promise<boolean> {
  switch (intent.type) {
    case 'searchHistory':
      await deps.searchHistory?.(intent.query);
      return true;
    case 'deleteRun':
      await vscode.commands.executeCommand('stepwise.deleteHistoryEntry', intent.runId);
      return true;
    case 'exportRun':
      await vscode.commands.executeCommand('stepwise.exportHistoryEntry', intent.runId, intent.format);
      return true;
    case 'stopCommand':
      // A command that has just ended is no longer there: nothing to do.
      deps.commandControl?.stop(intent.callId);
      return true;
    case 'backgroundCommand':
      deps.commandControl?.toBackground(intent.callId);
      return true;
    default:
      return false;
  }
}
