import type { AgentEvent, AgentEventOf, EventEnvelope, StepStatus } from '../../src/shared/events';
import { addFigures, addUsage } from './usageSums';
import type { CompactionItem, ApprovalItem, Item, PlanStepView, QuestionItem, RunView, StepItem, TextItem, ToolCard } from './viewModel';
import { taskWords } from '../../src/shared/attachedContext';
import { stateForOutcome } from '../../src/shared/outcomeClass';
import { applyStepUsage, carriedStep, markBudgetReached } from './stepSpend';
import { outputSource } from './outputSource';
import { withRetry } from './retryState';
import { delegateEvent, nested } from './delegateNesting';

/** Streamed tool output kept per card (the tail): a chatty command cannot grow the view without bound. */
export const OUTPUT_KEEP_CHARS = 16 * 1024;
/** Tool result characters kept per card (head and tail halves). */
export const RESULT_KEEP_CHARS = 64 * 1024;

/** The view of a run before any event (or of no run at all). */
export function initialRunView(runId?: string, task?: string): RunView {
  return { runId, task, lastSeq: -1, state: 'IDLE', items: [], pending: [] };
}

/** Applies many envelopes in order; same contract as `reduce`. */
export function reduceAll(view: RunView, envelopes: readonly EventEnvelope[]): RunView {
  let next = view;
  for (const envelope of envelopes) next = reduce(next, envelope);
  return next;
}

/**
 * Pure: returns the view after one envelope, never mutating `view`. Envelopes of another run and
 * envelopes with `seq <= view.lastSeq` (replays) return `view` itself, so applying a batch twice is harmless.
 */
export function reduce(view: RunView, envelope: EventEnvelope): RunView {
  if (envelope.seq <= view.lastSeq) return view;
  if (view.runId !== undefined && envelope.runId !== view.runId) return view;
  const base: RunView = { ...view, runId: envelope.runId, lastSeq: envelope.seq };
  return withRetry(applyEvent(base, envelope.event, envelope.seq), envelope);
}

// eslint-disable-next-line max-lines-per-function -- one case per AgentEvent type in an exhaustive switch; each case is a line or two or delegates
function applyEvent(view: RunView, event: AgentEvent, seq: number): RunView {
  switch (event.type) {
    case 'run_started': {
      const words = taskWords(event.task);
      // A follow-up continues the task: its usage counts from zero, shown on top of what came before.
      const v = closeText({ ...view, state: 'RUNNING', model: event.model, task: view.task ?? words, outcome: undefined, turnTextId: undefined, usageBase: view.usage, costBase: view.cost });
      return append(v, { kind: 'task', id: `task:${seq}`, text: words });
    }
    case 'state':
      return { ...view, state: event.state };
    case 'task_images': {
      const at = view.items.findLastIndex((item) => item.kind === 'task');
      const task = view.items[at];
      if (!task || task.kind !== 'task') return view;
      const images = event.images.map((image) => ({ name: image.name, ...(image.path ? { path: image.path } : {}) }));
      const updated = { ...task, images, imagesSection: event.section, ...(event.reader ? { imagesReader: event.reader } : {}) };
      return { ...view, items: [...view.items.slice(0, at), updated, ...view.items.slice(at + 1)] };
    }
    case 'user_message':
      return append(closeText(view), { kind: 'message', id: `message:${seq}`, stepId: view.currentStepId, text: event.text, delivered: event.delivered });
    case 'turn_started': {
      const v = closeText({ ...view, turn: { turn: event.turn, maxTurns: event.maxTurns }, turnTextId: undefined });
      return append(v, { kind: 'turn', id: `turn:${seq}`, stepId: v.currentStepId, turn: event.turn, maxTurns: event.maxTurns });
    }
    case 'text_delta':
      return textDelta(view, event.text, seq);
    case 'assistant_message':
      return assistantMessage(view, event, seq);
    case 'tool_call': {
      const v = closeText(view);
      if (findIndex(v.items, toolId(event.callId)) >= 0) return v;
      const readsFrom = event.name === 'read_output' ? outputSource(v.items, event.args) : undefined;
      const card: ToolCard = {
        kind: 'tool', id: toolId(event.callId), stepId: v.currentStepId, callId: event.callId, name: event.name, args: event.args,
        category: event.category, output: '', outputOmitted: 0, resultOmitted: 0, isError: false, status: 'running',
        ...(readsFrom ? { readsFrom } : {}),
      };
      return append(v, card);
    }
    case 'tool_output':
      return updateTool(view, event.callId, (card) => appendOutput(card, event.chunk));
    case 'tool_result':
      return toolResult(view, event, seq);
    case 'command_ended':
      // A background command's card stops saying "In the background": it ended (exit 0), failed (another
      // exit code, a signal) or was stopped.
      return updateTool(view, event.callId, (card) => (card.status !== 'background' ? card
        : event.stopped ? { ...card, status: 'stopped', laterEnding: 'stopped' }
          : { ...card, status: event.exitCode === 0 ? 'ended' : 'failed', exitCode: event.exitCode, laterEnding: 'exited' }));
    case 'approval_requested': {
      const v = closeText(view);
      const item: ApprovalItem = {
        kind: 'approval', id: approvalId(event.callId), stepId: v.currentStepId, callId: event.callId, category: event.category,
        title: event.title, detail: event.detail, diffPath: event.diff?.path, state: 'pending',
      };
      const withTool = updateTool(v, event.callId, (card) => ({ ...card, status: 'awaiting_approval' }));
      return { ...append(withTool, item), pending: [...withTool.pending, item.id] };
    }
    case 'approval_answered': {
      const id = approvalId(event.callId);
      let v = updateItem(view, id, (item) => ({ ...(item as ApprovalItem), state: event.approved ? 'approved' : 'rejected', reason: event.reason }));
      v = updateTool(v, event.callId, (card) => ({ ...card, status: event.approved ? 'running' : 'rejected' }));
      return { ...v, pending: v.pending.filter((p) => p !== id) };
    }
    case 'question_asked': {
      const v = closeText(view);
      const item: QuestionItem = {
        kind: 'question', id: questionId(event.callId), stepId: v.currentStepId, callId: event.callId, question: event.question,
        options: event.options ?? [], state: 'pending',
      };
      return { ...append(v, item), pending: [...v.pending, item.id] };
    }
    case 'question_answered': {
      const id = questionId(event.callId);
      const v = updateItem(view, id, (item) => ({
        ...(item as QuestionItem), state: event.answer === undefined ? 'expired' : 'answered', answer: event.answer,
      }));
      return { ...v, pending: v.pending.filter((p) => p !== id) };
    }
    case 'usage': {
      const usage = view.usageBase ? addUsage(view.usageBase, event.total) : event.total;
      // The core sends the task's figures (earlier runs included); older histories only the run's own.
      const cost = event.task ?? (event.cost && view.costBase ? addFigures(view.costBase, event.cost) : event.cost);
      return cost ? { ...view, usage, cost } : { ...view, usage };
    }
    case 'rules_loaded':
      return { ...view, rules: event.files };
    case 'context':
      return withPins({ ...view, context: { used: event.used, budget: event.budget, window: event.window, parts: event.parts, pinned: event.pinned } }, event.pinned);
    case 'compaction_started':
      return append(closeText(view), {
        kind: 'compaction', id: `compaction:${event.id}`, stepId: view.currentStepId, compactionId: event.id, reason: event.reason, messages: event.messages, state: 'running',
      });
    case 'compaction_finished':
      return updateItem(view, `compaction:${event.id}`, (item) => ({
        ...(item as CompactionItem), state: 'done', summary: event.summary, tokensBefore: event.tokensBefore, tokensAfter: event.tokensAfter,
      }));
    case 'compaction_undone':
      return updateItem(view, `compaction:${event.id}`, (item) => ({ ...(item as CompactionItem), state: 'undone' }));
    case 'notice':
      return append(closeText(event.code === 'edits_undone' ? undoneOutcomes(view) : view), { kind: 'notice', id: `notice:${seq}`, stepId: view.currentStepId, level: event.level, code: event.code, message: event.message });
    case 'error':
      return append(closeText(view), { kind: 'error', id: `error:${seq}`, stepId: view.currentStepId, code: event.code, message: event.message });
    case 'plan_created': {
      const v = closeText({ ...view, plan: { goal: event.goal, thought: event.thought, steps: event.steps.map((s) => ({ ...s })) } });
      return append(v, { kind: 'planNote', id: `plan:${seq}`, created: true, text: event.goal, stepCount: event.steps.length });
    }
    case 'plan_updated': {
      const old = new Map((view.plan?.steps ?? []).map((s) => [s.id, s]));
      const steps: PlanStepView[] = event.steps.map((s) => carriedStep(s, old.get(s.id)));
      const plan = { goal: view.plan?.goal ?? '', thought: view.plan?.thought ?? '', steps };
      return append(closeText({ ...view, plan }), { kind: 'planNote', id: `plan:${seq}`, created: false, text: event.reason, stepCount: steps.length, ...(event.change ? { change: event.change } : {}) });
    }
    case 'step_started': {
      const v = closeText(setStepStatus({ ...view, currentStepId: event.stepId, turnTextId: undefined }, event.stepId, 'in_progress'));
      const index = v.plan?.steps.findIndex((s) => s.id === event.stepId) ?? -1;
      const header: StepItem = {
        kind: 'step', id: `step:${seq}`, stepId: event.stepId, index: Math.max(index, 0),
        title: index >= 0 ? v.plan!.steps[index]!.title : event.stepId, status: 'in_progress',
      };
      return append(v, header);
    }
    case 'step_finished': {
      let v = closeText(setStepStatus(view, event.stepId, event.status, event.summary));
      const headerIndex = findLastIndex(v.items, (item) => item.kind === 'step' && item.stepId === event.stepId);
      if (headerIndex >= 0) {
        v = { ...v, items: replaceAt(v.items, headerIndex, { ...(v.items[headerIndex] as StepItem), status: event.status, summary: event.summary }) };
      }
      if (event.budgetReached) v = markBudgetReached(v, event.stepId);
      return v.currentStepId === event.stepId ? { ...v, currentStepId: undefined } : v;
    }
    case 'step_usage':
      return applyStepUsage(view, event);
    case 'report': {
      const v = closeText({ ...view, report: { markdown: event.markdown, path: event.path } });
      return append(v, { kind: 'report', id: `report:${seq}`, markdown: event.markdown, path: event.path });
    }
    case 'run_finished':
      return runFinished(view, event, seq);
    case 'checkpoint':
      return checkpointTaken(view, event);
    case 'delegate_started':
    case 'delegate_finished':
      return delegateEvent(closeText(view), event);
  }
}

function textDelta(view: RunView, text: string, seq: number): RunView {
  if (view.openTextId !== undefined) {
    const v = updateItem(view, view.openTextId, (item) => ({ ...(item as TextItem), text: (item as TextItem).text + text }));
    if (v !== view) return v;
  }
  const item: TextItem = { kind: 'text', id: `text:${seq}`, stepId: view.currentStepId, text, streaming: true };
  return { ...append(view, item), openTextId: item.id, turnTextId: item.id };
}

function assistantMessage(view: RunView, event: AgentEventOf<'assistant_message'>, seq: number): RunView {
  const v = closeText(view);
  const target = v.turnTextId;
  const thinking = event.thinking ? { thinking: event.thinking } : {};
  if (target !== undefined) {
    const updated = event.text.trim() === '' && !event.thinking ? v : updateItem(v, target, (item) => ({ ...(item as TextItem), ...(event.text.trim() === '' ? {} : { text: event.text }), ...thinking }));
    return { ...updated, turnTextId: undefined };
  }
  if (event.text.trim() === '' && !event.thinking) return v;
  // A model that does not stream sends its text only here (and reasoning always arrives here).
  const item: TextItem = { kind: 'text', id: `text:${seq}`, stepId: v.currentStepId, text: event.text, streaming: false, ...thinking };
  return append(v, item);
}

function toolResult(view: RunView, event: AgentEventOf<'tool_result'>, seq: number): RunView {
  const { text, omitted } = boundHeadTail(event.content, RESULT_KEEP_CHARS);
  const finish = (card: ToolCard): ToolCard => ({
    ...card, result: text, resultOmitted: omitted, isError: event.isError, durationMs: event.durationMs, ...(event.waitedMs ? { waitedMs: event.waitedMs } : {}),
    ...(event.exitCode !== undefined ? { exitCode: event.exitCode } : {}),
    ...(event.images?.length ? { images: event.images } : {}),
    status: resultStatus(card, event),
  });
  const v = updateTool(view, event.callId, finish);
  if (v !== view) return v;
  const orphan: ToolCard = {
    kind: 'tool', id: toolId(event.callId), stepId: view.currentStepId, callId: event.callId, name: event.name, args: undefined,
    output: '', outputOmitted: 0, resultOmitted: 0, isError: false, status: 'running',
  };
  return append(closeText(view), finish({ ...orphan, id: findIndex(view.items, orphan.id) >= 0 ? `tool:${seq}` : orphan.id }));
}

/** A stop is not a failure, and a command that exited non-zero is not "done" (the tool itself worked). */
function resultStatus(card: ToolCard, event: AgentEventOf<'tool_result'>): ToolCard['status'] {
  if (card.status === 'rejected') return 'rejected';
  if (event.stopped) return 'stopped';
  if (event.background) return 'background';
  if (event.isError) return 'error';
  if (event.exitCode !== undefined && event.exitCode !== 0) return 'failed';
  return 'done';
}

function runFinished(view: RunView, event: AgentEventOf<'run_finished'>, seq: number): RunView {
  let items = view.items;
  const expire = new Set(view.pending);
  let copied = false;
  // Whatever still waits cannot be answered once the run is over; walk back only through this run's tail.
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === 'task') break;
    let next: Item | undefined;
    if (item.kind === 'tool' && (item.status === 'running' || item.status === 'awaiting_approval')) next = { ...item, status: 'interrupted' };
    else if ((item.kind === 'approval' || item.kind === 'question') && expire.has(item.id)) next = { ...item, state: 'expired' };
    else if (item.kind === 'text' && item.streaming) next = { ...item, streaming: false };
    if (next) {
      if (!copied) {
        items = items.slice();
        copied = true;
      }
      (items as Item[])[i] = next;
    }
  }
  const state = stateForOutcome(event.outcome);
  const v: RunView = {
    ...view, items, state, pending: [], openTextId: undefined, turnTextId: undefined, currentStepId: undefined,
    outcome: { outcome: event.outcome, summary: event.summary, reason: event.reason },
  };
  const folded = foldIntoOutcome(v.items, event);
  return append({ ...v, items: folded.items }, {
    kind: 'outcome', id: `outcome:${seq}`, outcome: event.outcome, summary: folded.summary, reason: event.reason,
    ...(folded.code ? { code: folded.code } : {}), ...(folded.task ? { task: folded.task } : {}), changed: folded.changed,
    ...(event.failedChecks?.length ? { failedChecks: event.failedChecks } : {}),
    ...(event.runningMs !== undefined ? { runningMs: event.runningMs } : {}),
    ...(event.waitingMs !== undefined ? { waitingMs: event.waitingMs } : {}),
  });
}

/** Tools that changed the workspace when they succeeded. */
const EDIT_TOOLS = new Set(['write_file', 'edit_file']);

/** A tool card after which the workspace may differ: a finished edit, or a command that ran (its exit code says nothing about files). */
function mayHaveChanged(item: Item): boolean {
  if (item.kind !== 'tool') return false;
  if (EDIT_TOOLS.has(item.name)) return item.status === 'done';
  return item.name === 'run_command' && (item.status === 'done' || item.status === 'failed');
}

/** After "Undone: …" the task's edits are back as they were: no outcome card offers to undo them again. */
function undoneOutcomes(view: RunView): RunView {
  if (!view.items.some((i) => i.kind === 'outcome' && i.changed)) return view;
  return { ...view, items: view.items.map((i) => (i.kind === 'outcome' && i.changed ? { ...i, changed: false } : i)) };
}

/**
 * One card per moment: the error that ended the run joins its outcome card instead of standing above it
 * with the same words, and a summary that repeats the answer just streamed is not shown again.
 */
function foldIntoOutcome(items: readonly Item[], event: AgentEventOf<'run_finished'>): { items: readonly Item[]; summary?: string; code?: string; task?: string; changed: boolean } {
  let start = items.length;
  while (start > 0 && items[start - 1]!.kind !== 'outcome' && items[start - 1]!.kind !== 'task') start--;
  const tail = items.slice(start);
  const asked = items[start - 1];
  const reason = event.reason ?? '';
  const ending = tail.filter((i): i is Extract<Item, { kind: 'error' }> => i.kind === 'error' && reason !== '' && reason.includes(i.message));
  const lastText = [...tail].reverse().find((i): i is TextItem => i.kind === 'text');
  const summary = event.summary?.trim() ?? '';
  // The answer is said once: not again when the streamed text or the report just above already says it, nor
  // as a summary that only repeats the card's reason ("Stopped by the user." twice).
  const report = [...tail].reverse().find((i): i is Extract<Item, { kind: 'report' }> => i.kind === 'report');
  const repeats = summary !== '' && ((lastText !== undefined && lastText.text.trim() === summary) || (report !== undefined && report.markdown.includes(summary)) || reason.trim() === summary);
  const changed = tail.some(mayHaveChanged);
  return {
    items: ending.length ? [...items.slice(0, start), ...tail.filter((i) => !ending.includes(i as never))] : items,
    ...(repeats || event.summary === undefined ? {} : { summary: event.summary }),
    ...(ending.length ? { code: ending.at(-1)!.code } : {}),
    ...(asked?.kind === 'task' ? { task: asked.text } : {}),
    changed,
  };
}

function setStepStatus(view: RunView, stepId: string, status: StepStatus, summary?: string): RunView {
  if (!view.plan) return view;
  const index = view.plan.steps.findIndex((s) => s.id === stepId);
  if (index < 0) return view;
  const step = view.plan.steps[index]!;
  const steps = replaceAt(view.plan.steps, index, { ...step, status, summary: summary ?? step.summary });
  return { ...view, plan: { ...view.plan, steps } };
}

function appendOutput(card: ToolCard, chunk: string): ToolCard {
  const joined = card.output + chunk;
  if (joined.length <= OUTPUT_KEEP_CHARS) return { ...card, output: joined };
  const drop = joined.length - OUTPUT_KEEP_CHARS;
  return { ...card, output: joined.slice(drop), outputOmitted: card.outputOmitted + drop };
}

/** Keeps the head and tail of `text` within `max` characters; reports how many were dropped. */
export function boundHeadTail(text: string, max: number): { text: string; omitted: number } {
  if (text.length <= max) return { text, omitted: 0 };
  const half = Math.floor(max / 2);
  const omitted = text.length - 2 * half;
  return { text: `${text.slice(0, half)}\n…\n${text.slice(text.length - half)}`, omitted };
}

function closeText(view: RunView): RunView {
  if (view.openTextId === undefined) return view;
  const v = updateItem(view, view.openTextId, (item) => ({ ...(item as TextItem), streaming: false }));
  return { ...v, openTextId: undefined };
}

/** Binds a checkpoint to the step header or tool card it was taken for. */
function checkpointTaken(view: RunView, event: Extract<AgentEvent, { type: 'checkpoint' }>): RunView {
  if (event.callId) return updateTool(view, event.callId, (card) => ({ ...card, checkpointId: event.id }));
  if (event.kind !== 'step' || !event.stepId) return view;
  for (let i = view.items.length - 1; i >= 0; i--) {
    const item = view.items[i]!;
    if (item.kind === 'step' && item.stepId === event.stepId) return updateItem(view, item.id, () => ({ ...item, checkpointId: event.id }));
  }
  return view;
}

function updateTool(view: RunView, callId: string, change: (card: ToolCard) => ToolCard): RunView {
  return updateItem(view, toolId(callId), (item) => change(item as ToolCard));
}

function updateItem(view: RunView, id: string, change: (item: Item) => Item): RunView {
  const index = findIndex(view.items, id);
  if (index < 0) return view;
  return { ...view, items: replaceAt(view.items, index, change(view.items[index]!)) };
}

function append(view: RunView, item: Item): RunView {
  return { ...view, items: [...view.items, nested(view, item)] };
}

/** Searches from the end: the item an event refers to is almost always recent. */
function findIndex(items: readonly Item[], id: string): number {
  return findLastIndex(items, (item) => item.id === id);
}

function findLastIndex<T>(list: readonly T[], test: (value: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (test(list[i]!)) return i;
  return -1;
}

function replaceAt<T>(list: readonly T[], index: number, value: T): T[] {
  const copy = list.slice();
  copy[index] = value;
  return copy;
}

const toolId = (callId: string) => `tool:${callId}`;
const approvalId = (callId: string) => `approval:${callId}`;
const questionId = (callId: string) => `question:${callId}`;

/** Marks tool cards pinned or not as the gauge says; only the cards whose state changed are replaced. */
function withPins(view: RunView, pinned: readonly string[]): RunView {
  const set = new Set(pinned);
  let items: Item[] | undefined;
  view.items.forEach((item, index) => {
    if (item.kind !== 'tool' || Boolean(item.pinned) === set.has(item.callId)) return;
    items ??= [...view.items];
    items[index] = { ...item, pinned: set.has(item.callId) };
  });
  return items ? { ...view, items } : view;
}
