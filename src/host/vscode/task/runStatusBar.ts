import * as vscode from 'vscode';
import type { AgentEvent } from '../../../shared/events';
import { attentionFor, type Attention } from '../../common/task/attention';
import { RunWaits } from '../../common/task/runWaits';
import { OUTCOME_CLASS, type OutcomeClass } from '../../../shared/outcomeClass';
import type { RunOutcome } from '../../../shared/events';

const MAX_TASK_CHARS = 40;
/** How long an approval must stay open before a user who is not looking is told of it. */
const APPROVAL_NOTICE_DELAY_MS = 500;

function shorten(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_TASK_CHARS ? line.slice(0, MAX_TASK_CHARS - 1) + '…' : line;
}

/**
 * What the user sees of the running task outside the panel: the status bar item (its title and where
 * it is: turn, plan step, running a command, waiting for the user), hidden while idle, a click opens
 * the task panel; and, while the window is in the background or no Stepwise view is visible, a
 * notification when the task ends or waits for the user, whose button reveals the task.
 */
export class RunStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private task = '';
  /** Where the run is: turn or plan step. */
  private where = '';
  private stepTitles = new Map<string, string>();
  /** Open approvals and questions, running commands: said instead of `where` while they last. */
  private waits = new RunWaits();
  private shown = '';

  /**
   * @param viewsVisible whether a Stepwise view (sidebar chat or task panel) is visible: a user who
   *   sees neither is told by a notification, even in a focused window.
   */
  constructor(showPanelCommand: string, private readonly viewsVisible: () => boolean = () => true) {
    this.item = vscode.window.createStatusBarItem('stepwise.run', vscode.StatusBarAlignment.Left, 50);
    this.item.name = vscode.l10n.t('Stepwise task');
    this.item.command = showPanelCommand;
  }

  /** Shows the item for a starting task. */
  start(task: string): void {
    this.task = task;
    this.where = '';
    this.stepTitles = new Map();
    this.waits = new RunWaits();
    this.shown = '';
    this.render();
    this.item.show();
  }

  /** Follows the run: turns, plan steps, waits. Returns the progress text for a notification, if it changed. */
  onEvent(event: AgentEvent): string | undefined {
    this.waits.observe(event);
    this.maybeNotify(event);
    switch (event.type) {
      case 'plan_created':
      case 'plan_updated':
        for (const step of event.steps) this.stepTitles.set(step.id, step.title);
        break;
      case 'step_started': {
        const title = this.stepTitles.get(event.stepId);
        this.where = title ? vscode.l10n.t('step {0}: {1}', event.stepId, shorten(title)) : vscode.l10n.t('step {0}', event.stepId);
        break;
      }
      case 'turn_started':
        if (!this.stepTitles.size) this.where = vscode.l10n.t('turn {0}/{1}', event.turn, event.maxTurns);
        break;
      default:
        break;
    }
    const now = this.describe();
    if (now === this.shown) return undefined;
    this.shown = now;
    this.render();
    return now;
  }

  /** The turn or step, unless the run waits for the user or runs a command. */
  private describe(): string {
    const wait = this.waits.current();
    if (wait?.kind === 'approval') return vscode.l10n.t('waiting for your approval');
    if (wait?.kind === 'question') return vscode.l10n.t('waiting for your answer');
    if (wait?.kind === 'command') return vscode.l10n.t('running {0}', `\`${shorten(wait.command)}\``);
    return this.where;
  }

  /**
   * Notifies a user who is not looking (window in the background, or no Stepwise view visible). An
   * approval is announced only if still open a moment later: auto-approved calls are asked and
   * answered at once, and nobody needs to hear of them.
   */
  private maybeNotify(event: AgentEvent): void {
    const looking = () => vscode.window.state.focused && this.viewsVisible();
    const attention = attentionFor(event, looking());
    if (!attention) return;
    if (event.type !== 'approval_requested') return notify(attention, this.item.command as string);
    const waits = this.waits;
    setTimeout(() => {
      if (waits === this.waits && waits.awaitingApproval(event.callId) && !looking()) notify(attention, this.item.command as string);
    }, APPROVAL_NOTICE_DELAY_MS);
  }

  /** Hides the item. */
  stop(): void {
    this.item.hide();
  }

  private render(): void {
    this.item.text = `$(sync~spin) ${vscode.l10n.t('Stepwise: {0}', shorten(this.task))}${this.shown ? ` · ${this.shown}` : ''}`;
    this.item.tooltip = new vscode.MarkdownString(
      `${vscode.l10n.t('Stepwise is running a task. Click to open the task panel.')}\n\n${this.task.slice(0, 500).replace(/[\\`*_{}[\]()#+\-.!<>|]/g, '\\$&')}`,
    );
  }

  dispose(): void {
    this.item.dispose();
  }
}

/** The notification per outcome class (src/shared/outcomeClass.ts): the status bar classifies nothing itself. */
const FINISHED_MESSAGE: Record<OutcomeClass, (outcome: RunOutcome, show: string) => Thenable<string | undefined>> = {
  done: (_outcome, show) => vscode.window.showInformationMessage(vscode.l10n.t('Stepwise finished the task.'), show),
  partial: (outcome, show) => vscode.window.showWarningMessage(vscode.l10n.t('Stepwise did the task only in part ({0}).', outcome), show),
  stopped: (_outcome, show) => vscode.window.showInformationMessage(vscode.l10n.t('Stepwise stopped the task.'), show),
  failed: (outcome, show) => vscode.window.showWarningMessage(vscode.l10n.t('Stepwise ended the task without finishing it ({0}).', outcome), show),
};

/** A notification for a user who is looking elsewhere, with a button that brings them to the task. */
function notify(attention: Attention, showCommand: string): void {
  const show = vscode.l10n.t('Show Task');
  let message: Thenable<string | undefined>;
  switch (attention.kind) {
    case 'finished':
      message = FINISHED_MESSAGE[OUTCOME_CLASS[attention.outcome]](attention.outcome, show);
      break;
    case 'approval':
      message = vscode.window.showInformationMessage(vscode.l10n.t('Stepwise is waiting for your approval: {0}', attention.title), show);
      break;
    case 'question':
      message = vscode.window.showInformationMessage(vscode.l10n.t('Stepwise has a question: {0}', attention.question.slice(0, 200)), show);
      break;
  }
  void message.then((picked) => (picked === show ? vscode.commands.executeCommand(showCommand) : undefined));
}
