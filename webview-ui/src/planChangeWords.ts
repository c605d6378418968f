import type { PlanChange } from '../../src/shared/events';
import { clip } from './dom';
import type { StringKey, Translate } from './strings';
import type { PlanNoteItem } from './viewModel';

/** A plan update in the view's words: from its `change`, else (older histories) its English reason without a repeated "plan updated:". */
export function planChangeWords(t: Translate, item: Pick<PlanNoteItem, 'text' | 'change'>): string {
  const change = item.change;
  if (!change) return t('planUpdated', clip(item.text.replace(/^plan updated:\s*/i, ''), 160));
  return t(PLAN_CHANGE_WORDS[change.kind], change.step ?? '', clip(change.why ?? '', 160));
}

const PLAN_CHANGE_WORDS: Record<PlanChange['kind'], StringKey> = {
  edited: 'planChange.edited',
  revised: 'planChange.revised',
  split: 'planChange.split',
  retry_differently: 'planChange.retry_differently',
  skipped: 'planChange.skipped',
  retrying: 'planChange.retrying',
  resuming: 'planChange.resuming',
};
