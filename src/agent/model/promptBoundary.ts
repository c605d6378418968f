import { Redactor } from '../secrets/redactor';
import type { ModelTiers } from '../flow/modelTiers';
import type { ChatMessage, Model, ModelRequest, ToolSpec } from './types';

/** Replaces secrets in a text (a `Redactor`'s `redact`). */
export type PromptRedact = (text: string) => string;

/** Marks a model whose every request passed the redactor: wrapping twice would only cost time. */
const GUARDED = Symbol('stepwise.promptBoundary');

/** A `Model` that redacts its requests; `isPromptGuarded` tells it from a raw adapter. */
type GuardedModel = Model & { readonly [GUARDED]: true };

/** True when every request `model` sends passes the prompt redactor (see `promptGuarded`). */
export function isPromptGuarded(model: Model): boolean {
  return (model as Partial<GuardedModel>)[GUARDED] === true;
}

/** Without a shell's redactor the boundary still removes key shapes and secret `NAME=value` lines: deny by default. */
function fallbackRedact(): PromptRedact {
  const redactor = new Redactor();
  return (text) => redactor.redact(text);
}

/**
 * The prompt boundary: `model` with every request cleaned by `redact` right before it leaves —
 * each message's text, reasoning and tool-call arguments, and the tools' descriptions (an MCP
 * server writes those). Mentions, rules files, tool results, MCP content, image transcripts and
 * compaction summaries all reach the endpoint only as messages, so none can carry a known secret
 * out. Messages are cleaned once each (kept by identity), so a long conversation costs one pass.
 */
export function promptGuarded(model: Model, redact: PromptRedact = fallbackRedact()): Model {
  if (isPromptGuarded(model)) return model;
  const cleaned = new WeakMap<ChatMessage, ChatMessage>();
  const cleanMessage = (message: ChatMessage): ChatMessage => {
    let clean = cleaned.get(message);
    if (!clean) cleaned.set(message, (clean = redactMessage(message, redact)));
    return clean;
  };
  const guarded: GuardedModel = {
    [GUARDED]: true,
    id: model.id,
    ...(model.vision !== undefined ? { vision: model.vision } : {}),
    complete: (request: ModelRequest, handlers) =>
      model.complete({ ...request, messages: request.messages.map(cleanMessage), tools: request.tools.map((tool) => redactTool(tool, redact)) }, handlers),
  };
  return guarded;
}

/** Every tier of a run behind the same prompt boundary (one wrapper per distinct model). */
export function promptGuardedTiers(tiers: ModelTiers, redact?: PromptRedact): ModelTiers {
  const one = redact ?? fallbackRedact();
  const seen = new Map<Model, Model>();
  const guard = (model: Model): Model => {
    let guarded = seen.get(model);
    if (!guarded) seen.set(model, (guarded = promptGuarded(model, one)));
    return guarded;
  };
  const out: ModelTiers = { default: guard(tiers.default) };
  if (tiers.basic) out.basic = guard(tiers.basic);
  if (tiers.reasoning) out.reasoning = guard(tiers.reasoning);
  if (tiers.vision) out.vision = guard(tiers.vision);
  return out;
}

function redactMessage(message: ChatMessage, redact: PromptRedact): ChatMessage {
  switch (message.role) {
    case 'assistant': {
      const out: ChatMessage = { ...message, content: redact(message.content) };
      if (message.reasoning !== undefined) out.reasoning = redact(message.reasoning);
      if (message.toolCalls) out.toolCalls = message.toolCalls.map((call) => ({ ...call, arguments: redact(call.arguments) }));
      return out;
    }
    default:
      return { ...message, content: redact(message.content) };
  }
}

function redactTool(tool: ToolSpec, redact: PromptRedact): ToolSpec {
  const description = redact(tool.description);
  return description === tool.description ? tool : { ...tool, description };
}
