import type { z } from 'zod';
import type { Usage } from '../../shared/events';
import { countMessageTokens, countToolTokens, o200kCounter, type TokenCounter } from '../context/tokenCounter';
import type { ChatMessage, Model, ModelRequest, ModelResponse, ModelToolCall, ToolSpec } from '../model/types';
import { describeIssues, toJsonSchema } from '../tools/toolRegistry';

/** The answers a structured call accepts: tool name -> description and zod schema of its arguments. */
export type Choices = Record<string, { description: string; schema: z.ZodType }>;

/** One accepted answer: which tool, with its parsed arguments. */
export type Answer<C extends Choices> = { [K in keyof C & string]: { name: K; value: z.infer<C[K]['schema']> } }[keyof C & string];

/** Outcome of a structured call: an answer, or the last problem after the retries ran out. */
export type StructuredResult<C extends Choices> =
  | ({ ok: true; attempts: number } & Answer<C>)
  | { ok: false; attempts: number; error: string };

/** What a structured call needs. */
export interface StructuredCallOptions<C extends Choices> {
  model: Model;
  system: string;
  user: string;
  choices: C;
  signal: AbortSignal;
  /** Extra attempts after the first when the answer does not parse (the error goes back to the model). */
  maxRetries: number;
  /** Called with each call's usage (estimated with the token counter when the model reports none). */
  onUsage: (usage: Usage) => void;
  maxOutputTokens?: number;
  tokenCounter?: TokenCounter;
}

/**
 * Asks the model for exactly one call of one of `choices` (tool_choice `required`); a JSON object
 * in plain text is accepted too, for models without native tool calls. An unusable answer (no
 * call, bad JSON, schema mismatch) is sent back to the model with the reason, up to `maxRetries`
 * times. Model errors and cancellation propagate.
 */
export async function structuredCall<C extends Choices>(options: StructuredCallOptions<C>): Promise<StructuredResult<C>> {
  const tools: ToolSpec[] = Object.entries(options.choices).map(([name, choice]) => ({
    name,
    description: choice.description,
    parameters: toJsonSchema(choice.schema),
  }));
  const messages: ChatMessage[] = [
    { role: 'system', content: options.system },
    { role: 'user', content: options.user },
  ];
  let error = 'no answer';
  for (let attempt = 1; attempt <= options.maxRetries + 1; attempt++) {
    const request: ModelRequest = {
      messages: [...messages],
      tools,
      toolChoice: 'required',
      signal: options.signal,
      maxOutputTokens: options.maxOutputTokens,
    };
    const response = await options.model.complete(request);
    options.onUsage(response.usage ?? estimateUsage(request, response, options.tokenCounter ?? o200kCounter));
    const parsed = interpret(response, options.choices);
    if (parsed.ok) return { ok: true, attempts: attempt, name: parsed.name, value: parsed.value } as StructuredResult<C>;
    error = parsed.error;
    messages.push(...feedback(response, parsed.error, Object.keys(options.choices)));
  }
  return { ok: false, attempts: options.maxRetries + 1, error };
}

type Interpreted = { ok: true; name: string; value: unknown } | { ok: false; error: string; call?: ModelToolCall };

function interpret(response: ModelResponse, choices: Choices): Interpreted {
  const names = Object.keys(choices);
  const call = response.toolCalls.find((c) => c.name in choices);
  if (call) return parseArguments(call, choices);
  if (response.toolCalls.length > 0) {
    return { ok: false, error: `Unknown tool \`${response.toolCalls[0]!.name}\`; call one of: ${names.join(', ')}.` };
  }
  const json = extractJson(response.text);
  if (json === undefined) return { ok: false, error: `No tool call and no JSON object in the answer; call one of: ${names.join(', ')}.` };
  if (!json.ok) return { ok: false, error: `The JSON in the answer does not parse (${json.error}).` };
  return matchJson(json.value, choices);
}

function parseArguments(call: ModelToolCall, choices: Choices): Interpreted {
  let json: unknown;
  try {
    json = JSON.parse(call.arguments.trim() === '' ? '{}' : call.arguments);
  } catch (e) {
    return { ok: false, call, error: `The arguments of \`${call.name}\` are not valid JSON (${(e as Error).message}).` };
  }
  const parsed = choices[call.name]!.schema.safeParse(json);
  if (!parsed.success) return { ok: false, call, error: `Invalid arguments for \`${call.name}\`: ${describeIssues(parsed.error)}.` };
  return { ok: true, name: call.name, value: parsed.data };
}

/** Plain-text JSON: `{"tool": name, "arguments": {...}}`, or the arguments alone (first schema that fits). */
function matchJson(value: unknown, choices: Choices): Interpreted {
  const names = Object.keys(choices);
  if (isRecord(value)) {
    const named = [value.tool, value.name, value.action].find((n): n is string => typeof n === 'string' && n in choices);
    if (named) {
      const args = isRecord(value.arguments) ? value.arguments : isRecord(value.args) ? value.args : value;
      return parseArguments({ id: 'text', name: named, arguments: JSON.stringify(args) }, choices);
    }
  }
  let firstError = '';
  for (const name of names) {
    const parsed = choices[name]!.schema.safeParse(value);
    if (parsed.success) return { ok: true, name, value: parsed.data };
    firstError ||= `Invalid arguments for \`${name}\`: ${describeIssues(parsed.error)}.`;
  }
  return { ok: false, error: firstError };
}

/** The messages that tell the model why its answer was not usable. */
function feedback(response: ModelResponse, error: string, names: string[]): ChatMessage[] {
  const retry = `${error} Answer again with exactly one call of ${names.map((n) => `\`${n}\``).join(' or ')}.`;
  if (response.toolCalls.length === 0) {
    return [
      { role: 'assistant', content: response.text },
      { role: 'user', content: retry },
    ];
  }
  const out: ChatMessage[] = [{ role: 'assistant', content: response.text, toolCalls: response.toolCalls }];
  for (const call of response.toolCalls) {
    out.push({ role: 'tool', toolCallId: call.id, name: call.name, content: retry, isError: true });
  }
  return out;
}

type Extracted = { ok: true; value: unknown } | { ok: false; error: string };

/** The first JSON object in text: a fenced block if present, else from the first `{` to the last `}`. */
export function extractJson(text: string): Extracted | undefined {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  const candidate = fenced?.[1]?.trim().startsWith('{') ? fenced[1] : text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  if (!candidate || !candidate.trim().startsWith('{')) return undefined;
  try {
    return { ok: true, value: JSON.parse(candidate) };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Usage counted with the tokenizer, for models that report none. */
export function estimateUsage(request: ModelRequest, response: ModelResponse, counter: TokenCounter): Usage {
  const promptTokens =
    request.messages.reduce((sum, message) => sum + countMessageTokens(counter, message), 0) + countToolTokens(counter, request.tools);
  const completionTokens = countMessageTokens(counter, { role: 'assistant', content: response.text, toolCalls: response.toolCalls });
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}
