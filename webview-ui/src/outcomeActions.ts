import { OUTCOME_ACTIONS, type OutcomeAction } from '../../src/shared/outcomeClass';
import type { OutcomeItem } from './viewModel';
import { button, h } from './dom';
import { icon } from './icons';
import type { WebviewIntent, WebviewKind } from '../../src/shared/webviewProtocol';
import type { Translate } from './strings';
import { waitingWords } from './durations';

/** What the outcome card needs from the app (a part of the item views' context, declared here so neither imports the other). */
export interface OutcomeContext {
  view: WebviewKind;
  t: () => Translate;
  post: (intent: WebviewIntent) => void;
  runId: () => string | undefined;
}

/** Error codes the user fixes in the model set-up (key, endpoint, model name): the card opens the set-up form, not raw settings. */
const SETUP_CODES = new Set(['auth', 'bad_request', 'unavailable', 'server_error', 'not_configured', 'context_length']);

/**
 * What the user can do next from an outcome card: the outcome's actions from the shared table
 * (`OUTCOME_ACTIONS`: Continue after a stop or a partial run, Retry only after a failure), the
 * set-up when an error says so, and undo what changed. The first action is the primary one.
 */
export function outcomeActions(item: OutcomeItem, ctx: OutcomeContext): HTMLElement[] {
  const t = ctx.t();
  const actions: HTMLElement[] = [];
  if (item.code === 'auth') actions.push(button(t('setApiKey'), () => ctx.post({ type: 'setApiKey' }), { kind: 'primary', action: 'set-api-key' }));
  for (const action of OUTCOME_ACTIONS[item.outcome]) {
    const made = actionButton(action, item, ctx, t, actions.length === 0 ? 'primary' : 'secondary');
    if (made) actions.push(made);
  }
  if (item.code && SETUP_CODES.has(item.code)) actions.push(button(t('openSetup'), () => ctx.post({ type: 'openSetup' }), { kind: 'secondary', action: 'open-setup' }));
  const runId = ctx.runId();
  if (runId && item.changed && ctx.view === 'panel') actions.push(button(t('undoEdits'), () => ctx.post({ type: 'undoTaskEdits', runId }), { kind: 'secondary', action: 'undo' }));
  return actions;
}

function actionButton(action: OutcomeAction, item: OutcomeItem, ctx: OutcomeContext, t: Translate, kind: 'primary' | 'secondary'): HTMLElement | undefined {
  switch (action) {
    case 'resume': {
      const runId = ctx.runId();
      return runId ? button(t('continueTask'), () => ctx.post({ type: 'resumeRun', runId, text: t('continueInstruction') }), { kind, icon: icon('retry'), action: 'continue' }) : undefined;
    }
    case 'retry_task': {
      // A new attempt of the same task (one history entry, its conversation kept), not a second task.
      const runId = ctx.runId();
      const task = item.task;
      if (runId) return button(t('retryTask'), () => ctx.post({ type: 'resumeRun', runId, text: t('retryInstruction') }), { kind, icon: icon('retry'), action: 'retry-task' });
      return task ? button(t('retryTask'), () => ctx.post({ type: 'submitTask', text: task, planMode: 'auto' }), { kind, icon: icon('retry'), action: 'retry-task' }) : undefined;
    }
    case 'open_settings':
      return button(t('openSettings'), () => ctx.post({ type: 'openSettings' }), { kind: 'secondary', action: 'open-settings' });
    case 'show_log':
      return button(t('showLog'), () => ctx.post({ type: 'showLog' }), { kind: 'secondary', action: 'show-log' });
  }
}

/**
 * The facts under the outcome: each check that failed after the last change with its exit code (the
 * core's records, never the model's words), and the time run apart from the time spent waiting for
 * the user. `undefined` when there is nothing to tell.
 */
export function outcomeFacts(item: OutcomeItem, t: Translate): HTMLElement | undefined {
  const parts: HTMLElement[] = [];
  if (item.failedChecks?.length) {
    parts.push(h('ul', { class: 'outcome-facts', 'data-role': 'failed-checks' },
      ...item.failedChecks.map((c) => h('li', {}, h('code', {}, c.command), ' ', c.exitCode === null ? t('checkKilled') : t('checkExited', c.exitCode)))));
  }
  if (item.runningMs !== undefined) {
    parts.push(h('div', { class: 'muted outcome-durations', 'data-role': 'durations' }, t('durationRunning', (item.runningMs / 1000).toFixed(1)) + waitingWords(t, item.waitingMs)));
  }
  return parts.length ? h('div', {}, ...parts) : undefined;
}
