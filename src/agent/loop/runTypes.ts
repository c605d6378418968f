import type { BackgroundEndings } from '../tools/backgroundEndings';
import type { WaitLedger } from '../ending/waitLedger';
import type { ApprovalCategory, RunOutcome, Usage } from '../../shared/events';
import type { ContextControl } from '../context/contextControl';
import type { RulesInput } from '../context/rulesFiles';
import type { TokenCounter } from '../context/tokenCounter';
import type { EventStream } from '../events/eventStream';
import type { ChatMessage, Model, ModelToolCall, ToolChoice } from '../model/types';
import type { Approver, Asker, Clock, CommandRunner, ImageStore, Logger, Workspace } from '../ports';
import type { ToolRegistry } from '../tools/toolRegistry';
import type { DiagnosticsPort } from './editDiagnostics';
import type { HookSource } from '../hooks/hookConfig';
import type { MessageInbox } from './messageInbox';

/** Limits of one run. */
export interface AgentLimits {
  /** Think -> act -> observe iterations before the run ends with `step_limit`. */
  maxTurns: number;
  /** Prompt budget; above it the oldest tool outputs are elided first. */
  maxInputTokens: number;
  /** Each tool result is cut (head + tail) to this many tokens before the model sees it (see `toolOutputShare`). */
  maxToolResultTokens: number;
  /**
   * Share of the prompt budget one tool result may take (default 0.05, never below 512 tokens):
   * with a small budget the cap is lower than `maxToolResultTokens`. The full text of a cut result
   * stays readable with `read_output`. 1 keeps `maxToolResultTokens` whatever the budget.
   */
  toolOutputShare?: number;
  /**
   * Share of `maxInputTokens` that eliding goes down to once the prompt is over budget (default
   * 0.5). Eliding in one batch to a low-water mark keeps the prompt append-only (cache-stable) for
   * many turns; 1 elides only until the prompt just fits (rewrites history on nearly every turn).
   */
  contextLowWater?: number;
  /**
   * Share of the low-water mark kept as the conversation's opening (default 0.7): eliding starts
   * after the first messages that fit in it and reaches them only when the rest is not enough, so
   * the request after a batch still finds the opening in the provider's prompt cache. 0 elides
   * oldest first from the start.
   */
  contextKeepHead?: number;
  /**
   * The model's context window in tokens, when known (provider, model preset or setting). The
   * prompt budget is capped below it (room for the answer), and older turns are compacted into a
   * summary when eliding alone cannot keep the prompt under the budget.
   */
  contextWindow?: number;
  /** Summarize older turns when eliding is not enough (default true); the user can still compact by hand. */
  autoCompact?: boolean;
}

/** Sensible defaults for an interactive coding task. */
export const DEFAULT_LIMITS: AgentLimits = { maxTurns: 60, maxInputTokens: 100_000, maxToolResultTokens: 6_000 };

/** Everything one ReAct run needs: the task, a model, tools and the ports they act through. */
export interface AgentRunOptions {
  task: string;
  model: Model;
  tools: ToolRegistry;
  workspace: Workspace;
  commands: CommandRunner;
  approver: Approver;
  asker: Asker;
  logger: Logger;
  clock: Clock;
  events: EventStream;
  signal: AbortSignal;
  limits: AgentLimits;
  toolChoice?: ToolChoice;
  /** Replaces the default system prompt (roles of the planning flow bring their own). */
  systemPrompt?: string;
  /** Earlier messages to continue from (resume); the task is appended as a new user message. */
  history?: ChatMessage[];
  /** Messages never elided by the context budget besides the system prompt and the task (e.g. a plan). */
  pinned?: ChatMessage[];
  tokenCounter?: TokenCounter;
  /** Where tool images are saved; without it images are described but not kept. */
  images?: ImageStore;
  /** Rules files for the system prompt: settings to read them with, or those the task already read. */
  rules?: RulesInput;
  /** The user's requests for the context (compact now, undo, pin); one per task, shared by its runs. */
  context?: ContextControl;
  /** At the turn limit, ask the user whether to continue instead of stopping (direct runs; plan steps re-plan instead). */
  askAtTurnLimit?: boolean;
  /** Writes compaction summaries (the flow passes its basic tier); default `model`. */
  summaryModel?: Model;
  /** The editor's diagnostics: new errors in edited files are appended to the edit's result (VS Code). */
  diagnostics?: DiagnosticsPort;
  /** Called before each tool call runs (e.g. a checkpoint before calls that may change files). */
  beforeTool?: (call: ModelToolCall, category: ApprovalCategory | 'meta' | undefined, signal: AbortSignal) => Promise<void>;
  /** Judges a successful `finish`; a refusal goes back to the model as the call's result and the run goes on. */
  judgeFinish?: (signal: AbortSignal) => Promise<{ accept: true } | { accept: false; content: string }>;
  /** The task's background commands that ended, told to the model before its next call; a run makes its own when not given. */
  backgroundEndings?: BackgroundEndings;
  /** Times the waits for the user (a task's, shared by its runs); the run keeps its own when absent. */
  waits?: WaitLedger;
  /** The user's hooks (and a trusted workspace's): PreToolUse, PostToolUse, Stop… run through `commands`. */
  hooks?: readonly HookSource[];
  /** Messages the user sends while the run goes on, delivered at the next turn boundary. */
  inbox?: MessageInbox;
  /** The user's own agent (a direct run or follow-up), not a plan step or the look-first pass: Stop hooks apply to it. */
  mainAgent?: boolean;
}

/** How a run ended, with the conversation for resume and the usage for display. */
export interface AgentRunResult {
  outcome: RunOutcome;
  /** The `finish` summary, or the last assistant text. */
  summary?: string;
  /** Why the run did not finish (error message, limit reached, stuck). */
  reason?: string;
  turns: number;
  messages: ChatMessage[];
  usage: Usage;
  /** Tool results that were errors (bad arguments, unknown tools, failed commands); they do not end a run. */
  toolErrors?: number;
}
