import type { RunOutcome } from '../../shared/events';
import { endRun } from '../events/runEnding';
import { errorMessage, throwIfAborted } from '../errors';
import { outcomeOfStop } from '../ending/decideEnding';
import { stopCauseFromError } from '../ending/stopCause';
import { WaitLedger } from '../ending/waitLedger';
import type { ModelResponse } from '../model/types';
import { act } from './act';
import { applyRules } from './applyRules';
import { continuePastLimit } from './turnLimit';
import { judgeAnswer } from './answerEnding';
import { createRunSession, type RunSession } from './runSession';
import type { AgentRunOptions, AgentRunResult } from './runTypes';
import { StuckDetector } from './stuckDetector';
import { think } from './think';
import { BackgroundEndings } from '../tools/backgroundEndings';
import { deliverMessages, keepGoing } from './turnMessages';

interface Ending {
  outcome: RunOutcome;
  summary?: string;
  reason?: string;
}

/** Said to a model that answered without a tool call when one is required (or with nothing at all). */
export const CALL_A_TOOL_NOTE = 'Your last reply did not call a tool. Continue the task with a tool call, or call finish with a summary when it is done.';

/**
 * Runs OpenManus's ToolCallAgent loop: each turn thinks (one model call with the current tools),
 * acts (runs the tool calls in order) and observes (results, cut to budget, join the history) until
 * `finish`, a final text answer, the turn limit, a loop, an error or cancellation.
 *
 * Text-only answers follow OpenManus: with `toolChoice` `auto` or `none`, an answer without tool
 * calls is the final answer and ends the run as `finished` (summary = the text). With `required`,
 * or when the answer is empty, the model is told to call a tool and the run goes on (the stuck
 * detector ends it if that repeats).
 *
 * Never throws for model errors, tool errors or cancellation: they become the outcome. `run_started`
 * is always the first event and `run_finished` the last.
 */
export async function runAgent(options: AgentRunOptions): Promise<AgentRunResult> {
  // Commands the user sends to the background end later: the task's ledger hears of it, and the model is told at its next turn.
  const backgroundEndings = options.backgroundEndings ?? new BackgroundEndings();
  // Waiting for the user is timed apart from running (tool cards and the task's durations).
  const waits = options.waits ?? new WaitLedger(options.clock);
  // The model is told which shell it has (picked once per runner; a runner that cannot say leaves it out).
  const shell = await options.commands.shell?.().catch(() => undefined);
  const run = createRunSession({
    ...options, commands: backgroundEndings.watch(options.commands), backgroundEndings, waits, approver: waits.approver(options.approver), asker: waits.asker(options.asker),
  }, shell);
  run.emit({ type: 'run_started', task: options.task, workspace: options.workspace.root, model: options.model.id });
  let ending: Ending = { outcome: 'failed', reason: 'the run ended unexpectedly' };
  try {
    run.emit({ type: 'state', state: 'RUNNING' });
    await applyRules(run);
    ending = await loop(run);
  } catch (error) {
    ending = endingFromError(run, error);
  } finally {
    if (ending.outcome !== 'finished' && ending.summary === undefined && run.lastText !== undefined) ending.summary = run.lastText;
    endRun(run.options.events, { ...ending, turns: run.turns });
  }
  return {
    outcome: ending.outcome,
    ...(ending.summary !== undefined ? { summary: ending.summary } : {}),
    ...(ending.reason !== undefined ? { reason: ending.reason } : {}),
    turns: run.turns,
    messages: run.messages.slice(),
    usage: run.usage,
    toolErrors: run.toolErrors,
  };
}

async function loop(run: RunSession): Promise<Ending> {
  const { signal } = run.options;
  const detector = new StuckDetector();
  const answers = { cutOffs: 0, corrections: 0 };
  const stopHooks = { stopHookContinues: 0 };
  throwIfAborted(signal);
  for (let turn = 1; turn <= run.maxTurns || (await continuePastLimit(run)); turn++) {
    run.turns = turn;
    run.emit({ type: 'turn_started', turn, maxTurns: run.maxTurns });
    const ended = run.options.backgroundEndings?.takeNote();
    if (ended) run.messages.push({ role: 'user', content: ended });
    deliverMessages(run);
    const response = await think(run);
    const answer = judgeAnswer(run, response, answers);
    if (answer.kind === 'end') return answer.ending;
    if (answer.kind === 'retell') {
      run.messages.push({ role: 'user', content: answer.message });
    } else if (response.toolCalls.length === 0) {
      const ending = answerWithoutTools(run, response);
      if (ending && !(ending.outcome === 'finished' && (await keepGoing(run, stopHooks)))) return ending;
    } else {
      const { finishSummary } = await act(run, response.toolCalls);
      if (finishSummary !== undefined && !(await keepGoing(run, stopHooks))) return { outcome: 'finished', summary: finishSummary };
      if (answer.note) run.messages.push({ role: 'user', content: answer.note });
    }
    throwIfAborted(signal);

    const verdict = detector.observe({ text: response.text, toolCalls: response.toolCalls });
    if (verdict.kind === 'note') {
      run.messages.push({ role: 'user', content: verdict.message });
      run.emit({ type: 'notice', level: 'warning', code: 'stuck', message: `The agent repeated ${verdict.repeated} ${verdict.repeats} times; asked it to change strategy.` });
    } else if (verdict.kind === 'stop') {
      run.emit({ type: 'notice', level: 'warning', code: 'stuck', message: `Stopped: ${verdict.reason}.` });
      return { outcome: 'stuck', reason: verdict.reason };
    }
  }
  const reason =
    `stopped after ${run.maxTurns} turns without finishing; ` +
    'resume to continue, raise the turn limit, or split the task into smaller steps';
  run.emit({ type: 'notice', level: 'warning', code: 'step_limit', message: `Stopped: ${reason}.` });
  return { outcome: 'step_limit', reason };
}

function answerWithoutTools(run: RunSession, response: ModelResponse): Ending | undefined {
  const text = response.text.trim();
  if (run.toolChoice === 'none' || (run.toolChoice === 'auto' && text)) return { outcome: 'finished', summary: response.text };
  run.messages.push({ role: 'user', content: CALL_A_TOOL_NOTE });
  return undefined;
}

/** The run's ending from a thrown error, by the core's one error mapping; model failures and bugs are also told as `error` events. */
function endingFromError(run: RunSession, error: unknown): Ending {
  const cause = stopCauseFromError(error, { user: run.options.signal.aborted });
  if (cause.kind === 'provider') run.emit({ type: 'error', code: cause.code ?? 'model', message: errorMessage(error) });
  if (cause.kind === 'internal') {
    // A bug (ours or an adapter's): the run still ends cleanly and says so.
    run.options.logger.error('agent run failed unexpectedly', error);
    run.emit({ type: 'error', code: 'internal', message: errorMessage(error) });
  }
  return { outcome: outcomeOfStop(cause), reason: cause.kind === 'user' ? 'cancelled by the user' : cause.reason };
}
