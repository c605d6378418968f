import type { AgentEventOf } from '../../src/shared/events';
import type { Item, RunView } from './viewModel';

/**
 * A `delegate` call's sub-run opens: until its `delegate_finished`, every item the run adds belongs
 * to it (`nestedIn`, shown indented under the call's card). Sub-runs may nest (a stack).
 */
export function delegateStarted(view: RunView, event: AgentEventOf<'delegate_started'>): RunView {
  return { ...view, delegating: [...(view.delegating ?? []), event.callId], turnTextId: undefined, openTextId: undefined };
}

/** The sub-run of `event.callId` is over: later items belong to the run that called it. */
export function delegateFinished(view: RunView, event: AgentEventOf<'delegate_finished'>): RunView {
  const open = view.delegating ?? [];
  const at = open.lastIndexOf(event.callId);
  const delegating = at < 0 ? open : open.slice(0, at);
  return { ...view, delegating: delegating.length ? delegating : undefined, turnTextId: undefined, openTextId: undefined };
}

/** A delegated sub-run's start or end, as `delegateStarted` / `delegateFinished` apply it. */
export function delegateEvent(view: RunView, event: AgentEventOf<'delegate_started' | 'delegate_finished'>): RunView {
  return event.type === 'delegate_started' ? delegateStarted(view, event) : delegateFinished(view, event);
}

/** The item as the view adds it now: inside the innermost open sub-run, if any. */
export function nested<T extends Item>(view: RunView, item: T): T {
  const parent = view.delegating?.at(-1);
  return parent === undefined || item.nestedIn !== undefined ? item : { ...item, nestedIn: parent };
}

/** Marks a rendered row as part of a sub-run (indented, labelled for screen readers by its parent card). */
export function nestRow(element: HTMLElement, item: Item): HTMLElement {
  element.classList.toggle('nested', item.nestedIn !== undefined);
  if (item.nestedIn !== undefined) element.dataset.nestedIn = item.nestedIn;
  else delete element.dataset.nestedIn;
  return element;
}
