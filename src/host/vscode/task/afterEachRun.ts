import * as vscode from 'vscode';
import type { BackgroundCommand, CommandControl } from '../../../agent/ports';

/** Calls `listener` each time the controller goes from running to idle (a task ended). */
export function afterEachRun(controller: { isRunning: boolean; onDidChangeState(listener: () => void): vscode.Disposable }, listener: () => void): vscode.Disposable {
  let wasRunning = controller.isRunning;
  return controller.onDidChangeState(() => {
    const running = controller.isRunning;
    if (wasRunning && !running) listener();
    wasRunning = running;
  });
}

/**
 * Asks whether the commands a finished task left in the background keep running. Modal, so the
 * answer is a clear choice; closing the dialog stops them (the safe default).
 */
export async function askKeepBackground(commands: readonly BackgroundCommand[]): Promise<boolean> {
  const keep = vscode.l10n.t('Keep Running');
  const stop = vscode.l10n.t('Stop');
  const list = commands.map((c) => `• ${c.command.replace(/\s+/g, ' ').slice(0, 120)} (pid ${c.pid})`).join('\n');
  const answer = await vscode.window.showWarningMessage(
    commands.length === 1
      ? vscode.l10n.t('The task has ended, but a command it started still runs in the background.')
      : vscode.l10n.t('The task has ended, but {0} commands it started still run in the background.', commands.length),
    { modal: true, detail: `${list}\n\n${commands.length === 1 ? vscode.l10n.t('Keep it running after the task? Otherwise it is stopped now.') : vscode.l10n.t('Keep them running after the task? Otherwise they are stopped now.')}` },
    keep,
    stop,
  );
  return answer === keep;
}

/**
 * `stepwise.stopBackgroundCommands`: lists the commands running in the background (kept past their
 * task or not) and stops the ones the user picks (all, given `'all'`). Returns how many were stopped.
 */
export function registerStopBackgroundCommand(control: CommandControl): vscode.Disposable {
  return vscode.commands.registerCommand('stepwise.stopBackgroundCommands', async (arg?: unknown) => {
    const running = control.backgroundCommands();
    if (!running.length) {
      if (arg !== 'all') void vscode.window.showInformationMessage(vscode.l10n.t('No Stepwise command runs in the background.'));
      return 0;
    }
    const picked = arg === 'all' ? running : (await vscode.window.showQuickPick(
      running.map((c) => ({ label: c.command.replace(/\s+/g, ' ').slice(0, 120), description: `pid ${c.pid}`, picked: true, command: c })),
      { canPickMany: true, title: vscode.l10n.t('Stepwise: Stop Background Commands') },
    ))?.map((item) => item.command);
    if (!picked?.length) return 0;
    await control.stopBackground(picked.map((c) => c.id));
    return picked.length;
  });
}
