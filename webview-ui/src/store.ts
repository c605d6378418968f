import { EventEnvelope } from '../../src/shared/events';
import type { Plan } from '../../src/shared/plan';
import type { SetupState } from '../../src/shared/setupProtocol';
import type { HistoryEntry, HostMessage, HostMessageOf, HostStatus, McpServerInfo, MentionSuggestion, WebviewKind } from '../../src/shared/webviewProtocol';
import { initialRunView, reduceAll } from './reducer';
import { createTranslator, type Translate } from './strings';
import type { RunView } from './viewModel';

/** Everything the webview shows; replaced (never mutated) on each host message. */
export interface AppState {
  view: WebviewKind;
  run: RunView;
  status: HostStatus;
  /** False until the host's first `status`; views avoid flashing an empty state before it. */
  statusKnown: boolean;
  /** A plan waiting for the user's review in the panel. */
  review?: { runId?: string; plan: Plan };
  /** The configured MCP servers; `undefined` until the host first reports them. */
  mcp?: readonly McpServerInfo[];
  /** The host's answer to the chat box's last `@` query. */
  mentions?: { query: string; items: readonly MentionSuggestion[] };
  /** The model set-up (presets, current values) once the host sent it. */
  setup?: SetupState;
  /** The host's last answer to the set-up view (a model list or a connection test). */
  setupReply?: HostMessageOf<'setupModels' | 'setupTestResult'>;
  /** Counts the host's requests to open the set-up view. */
  setupRequests?: number;
  /** Paths of files last dropped on the chat box, to insert as mentions (a new object each time). */
  dropped?: { paths: readonly string[]; refused: number };
  /** Bumped each time the host asks for the caret in the chat box. */
  focusRequests?: number;
  /** The host's answer to the history search box's last query. */
  historySearch?: { query: string; entries: readonly HistoryEntry[] };
  lang: string;
  t: Translate;
}

/** Which parts of the state a message changed, so views patch only those. */
export interface Changes {
  run: boolean;
  /** A different run is shown: views drop their rows. */
  reset: boolean;
  status: boolean;
  review: boolean;
  lang: boolean;
  mcp: boolean;
  mentions?: boolean;
}

const NO_STATUS: HostStatus = { configured: true, trusted: true, running: false, history: [] };

/** The initial state of a webview before the host said anything. */
export function initialAppState(view: WebviewKind, lang: string): AppState {
  return { view, run: initialRunView(), status: NO_STATUS, statusKnown: false, lang, t: createTranslator(lang) };
}

/** Pure: the state after one host message, and what changed. */
export function applyHostMessage(state: AppState, message: HostMessage): { state: AppState; changes: Changes } {
  const changes: Changes = { run: false, reset: false, status: false, review: false, lang: false, mcp: false };
  switch (message.type) {
    case 'events': {
      // Envelopes of a run other than the shown one are stale (a reset is on its way): drop them.
      if (state.run.runId !== undefined && state.run.runId !== message.runId) return { state, changes };
      const run = reduceAll(state.run.runId === undefined ? initialRunView(message.runId, state.run.task) : state.run, message.envelopes);
      if (run === state.run) return { state, changes };
      const review = endReviewOnStart(state.review, state.run, run);
      return { state: { ...state, run, review }, changes: { ...changes, run: true, review: review !== state.review } };
    }
    case 'reset': {
      changes.run = changes.reset = true;
      const review = state.review && state.review.runId === message.runId ? state.review : undefined;
      changes.review = review !== state.review;
      return { state: { ...state, run: initialRunView(message.runId, message.task), review }, changes };
    }
    case 'status':
      changes.status = true;
      return { state: { ...state, status: message.status, statusKnown: true }, changes };
    case 'l10n':
      changes.lang = true;
      return { state: { ...state, lang: message.lang, t: createTranslator(message.lang, message.strings) }, changes };
    case 'planReview':
      changes.review = true;
      return { state: { ...state, review: message.plan ? { runId: message.runId, plan: message.plan } : undefined }, changes };
    case 'mcpServers':
      changes.mcp = true;
      return { state: { ...state, mcp: message.servers }, changes };
    case 'setup':
      return { state: { ...state, setup: message.state }, changes: { ...changes, status: true } };
    case 'setupModels':
    case 'setupTestResult':
      return { state: { ...state, setupReply: message }, changes };
    case 'showSetup':
      return { state: { ...state, setupRequests: (state.setupRequests ?? 0) + 1 }, changes: { ...changes, status: true } };
    case 'mentionSuggestions':
      changes.mentions = true;
      return { state: { ...state, mentions: { query: message.query, items: message.items } }, changes };
    case 'mentionPaths':
      changes.mentions = true;
      return { state: { ...state, dropped: { paths: message.paths, refused: message.refused } }, changes };
    case 'focusInput':
      changes.mentions = true;
      return { state: { ...state, focusRequests: (state.focusRequests ?? 0) + 1 }, changes };
    case 'historySearch':
      // The history list is drawn with the status: a search answer redraws it like a status change.
      changes.status = true;
      return { state: { ...state, historySearch: { query: message.query, entries: message.entries } }, changes };
  }
}

/** Review ends by itself once the plan starts running (a step started) or the run ends. */
function endReviewOnStart(review: AppState['review'], before: RunView, after: RunView): AppState['review'] {
  if (!review) return review;
  const started = after.currentStepId !== undefined && after.currentStepId !== before.currentStepId;
  const ended = after.outcome !== undefined && after.outcome !== before.outcome;
  return started || ended ? undefined : review;
}

/**
 * One bad envelope must not cost a whole batch: keeps the valid envelopes of an `events` message
 * whose other parts are well-formed. `undefined` when the message is not such a batch.
 */
export function salvageEvents(raw: unknown): HostMessage | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const message = raw as { type?: unknown; runId?: unknown; envelopes?: unknown };
  if (message.type !== 'events' || typeof message.runId !== 'string' || message.runId === '' || !Array.isArray(message.envelopes)) return undefined;
  const envelopes: EventEnvelope[] = [];
  for (const envelope of message.envelopes) {
    const parsed = EventEnvelope.safeParse(envelope);
    if (parsed.success) envelopes.push(parsed.data);
  }
  return envelopes.length > 0 ? { type: 'events', runId: message.runId, envelopes } : undefined;
}
