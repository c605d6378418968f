import type { RunOutcome } from '../../shared/events';
import { outcomeOfStop } from '../ending/decideEnding';
import type { StopCause } from '../ending/endingFacts';
import { findUnknownMarkup, unknownMarkupNote } from '../model/toolCallFormats/unknownMarkup';
import type { ModelResponse } from '../model/types';
import type { RunSession } from './runSession';

/** How a run ends (the loop's own ending shape). */
export interface AnswerEnding {
  outcome: RunOutcome;
  summary?: string;
  reason?: string;
}

/** What the loop does with an answer before (or instead of) running its calls. */
export type AnswerVerdict =
  | { kind: 'end'; ending: AnswerEnding }
  /** Tell the model `message` and take another turn; nothing of this answer is run. */
  | { kind: 'retell'; message: string }
  /** Run the calls as usual; then tell the model `note` when there is one. */
  | { kind: 'run'; note?: string };

/** Said once when an answer hit the output limit. */
export const CUT_OFF_NOTE =
  'Your answer was cut off: it reached the output length limit. Continue exactly where you stopped, or give a shorter answer ' +
  '(write large files in parts, with several tool calls).';

/** Corrections in a row for unreadable tool-call markup before the run fails: the model had two chances to call properly. */
export const MAX_FORMAT_CORRECTIONS = 2;

/** What the loop remembers between answers: cut answers in a row, and format corrections in a row. */
export interface AnswerState {
  cutOffs: number;
  corrections?: number;
}

/**
 * Honest endings for answers that did not end normally: a content filter ends the run `failed`
 * with the provider's reason; an answer cut off by the length limit is continued once, and a
 * second cut in a row ends the run `failed`; tool-call markup that could not be read (a parser's
 * problem, or markup no parser knows) is sent back as a correction and never taken as the final
 * answer, and a third such answer in a row ends the run `failed` (stop cause `tool_format`).
 */
export function judgeAnswer(run: RunSession, response: ModelResponse, state: AnswerState): AnswerVerdict {
  if (response.finishReason === 'content_filter') {
    const reason = `the provider's content filter stopped the model's answer${response.finishDetail ? ` (${response.finishDetail})` : ''}`;
    run.emit({ type: 'error', code: 'content_filter', message: `Stopped: ${reason}.` });
    return { kind: 'end', ending: { outcome: 'failed', reason } };
  }
  const cut = response.finishReason === 'length' && response.toolCalls.length === 0;
  state.cutOffs = cut ? state.cutOffs + 1 : 0;
  if (cut && state.cutOffs > 1) {
    const reason = "the model's answer was cut off: it reached the output length limit twice in a row";
    run.emit({ type: 'error', code: 'length', message: `Stopped: ${reason}.` });
    return { kind: 'end', ending: { outcome: 'failed', reason } };
  }
  if (cut) {
    run.emit({ type: 'notice', level: 'warning', code: 'other', message: "The model's answer was cut off at the output length limit; asked it to continue." });
    return { kind: 'retell', message: CUT_OFF_NOTE };
  }
  if (response.toolCalls.length === 0) {
    const unreadable = unreadableMarkup(run, response);
    if (unreadable) return correct(run, unreadable, state);
  }
  if (response.toolCalls.length > 0) state.corrections = 0;
  return { kind: 'run', ...(response.correction ? { note: response.correction } : {}) };
}

/** The correction an answer without calls needs, and its problem in a few words; `undefined` for a real answer. */
function unreadableMarkup(run: RunSession, response: ModelResponse): { note: string; problem: string } | undefined {
  if (response.correction) return { note: response.correction, problem: response.correction.split('\n', 1)[0]!.replace(/^Your /, 'its ') };
  if (run.toolChoice === 'none') return undefined;
  const found = findUnknownMarkup(response.text, new Set(run.options.tools.specs().map((tool) => tool.name)));
  return found ? { note: unknownMarkupNote(found), problem: `it wrote ${found.kind}, which is not a tool-call format Stepwise reads` } : undefined;
}

function correct(run: RunSession, unreadable: { note: string; problem: string }, state: AnswerState): AnswerVerdict {
  state.corrections = (state.corrections ?? 0) + 1;
  if (state.corrections > MAX_FORMAT_CORRECTIONS) {
    const stop: StopCause = {
      kind: 'tool_format',
      reason: `the model's tool calls could not be read after ${MAX_FORMAT_CORRECTIONS} corrections: ${unreadable.problem}`,
    };
    run.emit({ type: 'error', code: 'model', message: `Stopped: ${stop.reason}` });
    return { kind: 'end', ending: { outcome: outcomeOfStop(stop), reason: stop.reason } };
  }
  run.emit({
    type: 'notice',
    level: 'warning',
    code: 'other',
    message: `The model wrote a tool call that could not be read; asked it to call again (correction ${state.corrections} of ${MAX_FORMAT_CORRECTIONS}).`,
  });
  return { kind: 'retell', message: unreadable.note };
}
