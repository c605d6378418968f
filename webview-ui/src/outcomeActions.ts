import type { OutcomeItem } from './viewModel';
import { button } from './dom';
import { icon } from './icons';
import type { ItemContext } from './itemViews';

/** Error codes the user fixes in the model set-up (key, endpoint, model name). */
const SETUP_CODES = new Set(['auth', 'bad_request', 'unavailable', 'not_configured', 'context_length']);

/** What the user can do next from an outcome card: fix the set-up, retry, read the log, undo what changed. */
export function outcomeActions(item: OutcomeItem, ctx: ItemContext): HTMLElement[] {
  const t = ctx.t();
  const actions: HTMLElement[] = [];
  const failed = item.outcome !== 'finished' && item.outcome !== 'cancelled';
  if (item.code === 'auth') actions.push(button(t('setApiKey'), () => ctx.post({ type: 'setApiKey' }), { kind: 'primary', action: 'set-api-key' }));
  if ((item.code && SETUP_CODES.has(item.code)) || item.outcome === 'budget' || item.outcome === 'step_limit') actions.push(button(t('openSettings'), () => ctx.post({ type: 'openSettings' }), { kind: 'secondary', action: 'open-settings' }));
  const task = item.task;
  if (failed && task) actions.push(button(t('retryTask'), () => ctx.post({ type: 'submitTask', text: task, planMode: 'auto' }), { kind: item.code === 'auth' ? 'secondary' : 'primary', icon: icon('retry'), action: 'retry-task' }));
  if (failed) actions.push(button(t('showLog'), () => ctx.post({ type: 'showLog' }), { kind: 'secondary', action: 'show-log' }));
  const runId = ctx.runId();
  if (runId && item.changed && ctx.view === 'panel') actions.push(button(t('undoEdits'), () => ctx.post({ type: 'undoTaskEdits', runId }), { kind: 'secondary', action: 'undo' }));
  return actions;
}
