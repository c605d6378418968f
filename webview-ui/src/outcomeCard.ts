import { OUTCOME_BADGE, OUTCOME_CLASS } from '../../src/shared/outcomeClass';
import { h } from './dom';
import { icon } from './icons';
import { outcomeActions, outcomeFacts, type OutcomeContext } from './outcomeActions';
import { errorWords, nextAction } from './strings';
import type { OutcomeItem } from './viewModel';

/**
 * The outcome card: its badge (tone and icon) from the outcome's class in the shared table, never
 * from a switch here; the summary (`summary`, rendered by the caller); the facts (failed checks,
 * durations); the error's plain words, the reason, the next action and the actions.
 */
export function outcomeCard(item: OutcomeItem, ctx: OutcomeContext, summary: HTMLElement | null): HTMLElement {
  const t = ctx.t();
  const klass = OUTCOME_CLASS[item.outcome];
  const badge = OUTCOME_BADGE[klass];
  const el = h('div', { class: ['card', 'outcome', `outcome-${item.outcome}`, `outcome-class-${klass}`, `outcome-tone-${badge.tone}`], 'data-class': klass },
    h('div', { class: 'card-title' }, icon(badge.icon), t(`outcome.${item.outcome}`)));
  if (summary) el.appendChild(summary);
  const facts = outcomeFacts(item, t);
  if (facts) el.appendChild(facts);
  // Plain words for the kind of error (never its code), then the details the run ended with.
  const words = errorWords(t, item.code);
  if (words) el.appendChild(h('div', { class: 'outcome-kind' }, words));
  if (item.reason) el.appendChild(h('div', { class: 'muted reason' }, item.reason));
  const next = nextAction(t, item.outcome, item.code);
  if (next) el.appendChild(h('div', { class: 'outcome-next', 'data-role': 'next-action' }, next));
  const actions = outcomeActions(item, ctx);
  if (actions.length) el.appendChild(h('div', { class: 'buttons' }, ...actions));
  return el;
}
