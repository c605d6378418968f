import { toolResultBudget } from '../context/toolOutputBudget';
import type { AgentEvent, Usage } from '../../shared/events';
import { boundedTokenCounter } from '../context/boundedCounter';
import { ContextControl } from '../context/contextControl';
import { initialConversation } from '../context/messageHistory';
import { MessageTokenCache } from '../context/messageTokens';
import { o200kCounter } from '../context/tokenCounter';
import { modelFacts } from '../model/modelCatalog';
import type { ChatMessage, ToolChoice } from '../model/types';
import type { AgentRunOptions } from './runTypes';
import type { ShellInfo } from '../shellInfo';
import { defaultSystemPrompt } from './systemPrompt';
import { ZERO_USAGE } from './usage';

/** One compaction: the conversation before it, and how long the conversation was right after it. */
export interface CompactionRecord {
  id: string;
  before: ChatMessage[];
  afterLength: number;
}

/** Room kept for the model's answer below its window. */
export function answerReserve(window: number): number {
  return Math.min(8_192, Math.floor(window * 0.15));
}

/** The mutable state of one run, shared by the think and act phases. */
export interface RunSession {
  readonly options: AgentRunOptions;
  readonly tokens: MessageTokenCache;
  readonly toolChoice: ToolChoice;
  /** Raised when the user agrees to continue past the limit (see turnLimit.ts). */
  maxTurns: number;
  /** Times the user let the run go past its turn limit. */
  extensions: number;
  /** System prompt, task and pinned messages: never elided. */
  readonly protectedMessages: Set<ChatMessage>;
  /** The conversation; replaced (not edited in place) when the context budget elides. */
  messages: ChatMessage[];
  usage: Usage;
  turns: number;
  toolErrors: number;
  /** Last non-empty assistant text, the summary of runs that end without `finish`. */
  lastText: string | undefined;
  /** Budgets; they shrink once the model rejects a prompt as too long. */
  toolResultTokens: number;
  inputTokens: number;
  keepRecentTurns: number;
  /** The model's window, when known; the prompt budget stays under it. */
  readonly windowTokens: number | undefined;
  /** The user's context requests and pins. */
  readonly control: ContextControl;
  /** Compactions of this run that can still be undone, oldest first. */
  compactions: CompactionRecord[];
  /** Off after the user undid a compaction (eliding still applies). */
  autoCompact: boolean;
  /** Tokens of the rules section of the system prompt. */
  rulesTokens: number;
  /** The provider's prompt-cache routing key: one per task (the run id is shared by a task's inner runs). */
  readonly cacheKey: string;
  emit(event: AgentEvent): void;
}

/** Builds the session: the initial conversation (resume history + pinned + task) and the budgets. */
export function createRunSession(options: AgentRunOptions, shell?: ShellInfo): RunSession {
  const systemPrompt =
    options.systemPrompt ??
    defaultSystemPrompt({
      workspaceRoot: options.workspace.root,
      os: typeof process === 'undefined' ? undefined : process.platform,
      date: new Date(options.clock.now()).toISOString().slice(0, 10),
      shell,
    });
  const configured = options.limits.contextWindow && options.limits.contextWindow > 0 ? Math.floor(options.limits.contextWindow) : undefined;
  const window = configured ?? modelFacts(options.model.id)?.window;
  const start = initialConversation({ systemPrompt, history: options.history, pinned: options.pinned, task: options.task });
  const inputTokens = Math.max(1, Math.floor(Math.min(options.limits.maxInputTokens, window ? window - answerReserve(window) : Infinity)));
  return {
    options,
    tokens: new MessageTokenCache(boundedTokenCounter(options.tokenCounter ?? o200kCounter)),
    toolChoice: options.toolChoice ?? 'auto',
    maxTurns: Math.max(1, Math.floor(options.limits.maxTurns)),
    extensions: 0,
    protectedMessages: new Set([start.system, start.task, ...(options.pinned ?? [])]),
    messages: start.messages,
    usage: ZERO_USAGE,
    turns: 0,
    toolErrors: 0,
    lastText: undefined,
    toolResultTokens: toolResultBudget(options.limits.maxToolResultTokens, inputTokens, options.limits.toolOutputShare),
    inputTokens,
    windowTokens: window,
    control: options.context ?? new ContextControl(),
    compactions: [],
    autoCompact: options.limits.autoCompact ?? true,
    rulesTokens: 0,
    keepRecentTurns: 2,
    cacheKey: `stepwise-${options.events.runId}`,
    emit: (event) => {
      options.events.emit(event);
    },
  };
}
