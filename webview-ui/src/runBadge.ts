import { OUTCOME_BADGE, OUTCOME_CLASS } from '../../src/shared/outcomeClass';
import type { Translate } from './strings';
import type { RunView } from './viewModel';

/**
 * The run's badge in the panel's header and the sidebar's meta line: once the run has an outcome,
 * its class from the shared table (Finished / Partly done / Stopped / Failed, coloured by the
 * class's tone), so an `incomplete` or `unverified` run is never called "Failed"; before that, the
 * lifecycle state. `reviewing`: the run waits on the plan review.
 */
export function runBadge(t: Translate, run: RunView, reviewing: boolean): { text: string; className: string } {
  if (run.outcome && run.state !== 'RUNNING') {
    const klass = OUTCOME_CLASS[run.outcome.outcome];
    return { text: t(`outcomeClass.${klass}`), className: `badge state-badge outcome-tone-${OUTCOME_BADGE[klass].tone}` };
  }
  return { text: reviewing && run.state === 'RUNNING' ? t('stateAwaitingReview') : t(`state.${run.state}`), className: `badge state-badge state-${run.state}` };
}
