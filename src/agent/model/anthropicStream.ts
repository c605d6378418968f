import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { Usage } from '../../shared/events';
import { type AnthropicThinkingBlock, THINKING_EXTRA_KEY } from './anthropicMessages';
import type { AssembledAnswer } from './streamAssembler';
import type { ToolBlockFilter } from './toolBlockFilter';
import type { FinishReason } from './types';

/** One content block as it is being streamed, by its `index`. */
type OpenBlock =
  | { type: 'text' }
  | { type: 'tool_use'; id: string; name: string; json: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'other' };

/** Anthropic's token counts as they arrive (`message_start`, then `message_delta`). */
interface WireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/**
 * Adds up Anthropic's streamed Messages events: `content_block_start` opens a block by `index`,
 * `content_block_delta`s extend it (`text_delta` to `onText` through the optional tool-block
 * filter, `input_json_delta` fragments joined per block and read only at the end, `thinking_delta`
 * and `signature_delta` kept verbatim), `message_delta` brings the stop reason and the final usage.
 * Thinking blocks ride on the first tool call's provider fields so they go back unchanged.
 */
export class AnthropicStreamAssembler {
  /** True once text, thinking or a tool call has arrived: from then on a failure cannot be retried. */
  outputStarted = false;
  private text = '';
  private readonly blocks = new Map<number, OpenBlock>();
  private readonly order: number[] = [];
  private stopReason: string | undefined;
  private stopDetail: string | undefined;
  private readonly wire: WireUsage = {};

  constructor(
    private readonly filter: ToolBlockFilter | undefined,
    private readonly onText: ((delta: string) => void) | undefined,
  ) {}

  /** The visible text delivered so far. */
  get visibleText(): string {
    return this.text;
  }

  /** Takes one event (the SDK has already dropped `ping` and thrown on `error`). */
  add(event: RawMessageStreamEvent): void {
    switch (event.type) {
      case 'message_start':
        this.addUsage(event.message.usage);
        return;
      case 'content_block_start':
        this.open(event.index, event.content_block as unknown as Record<string, unknown>);
        return;
      case 'content_block_delta':
        this.extend(event.index, event.delta as unknown as Record<string, unknown>);
        return;
      case 'message_delta':
        if (event.delta.stop_reason) this.stopReason = event.delta.stop_reason;
        if (event.delta.stop_sequence) this.stopDetail = `stop sequence ${event.delta.stop_sequence}`;
        this.addUsage(event.usage);
        return;
      default:
        return;
    }
  }

  private open(index: number, block: Record<string, unknown>): void {
    let open: OpenBlock;
    const text = (key: string) => (typeof block[key] === 'string' ? (block[key] as string) : '');
    switch (block.type) {
      case 'text':
        open = { type: 'text' };
        break;
      case 'tool_use':
        open = { type: 'tool_use', id: text('id'), name: text('name'), json: '' };
        break;
      case 'thinking':
        open = { type: 'thinking', thinking: text('thinking'), signature: text('signature') };
        break;
      case 'redacted_thinking':
        open = { type: 'redacted_thinking', data: text('data') };
        break;
      default:
        open = { type: 'other' };
    }
    if (open.type !== 'other') this.outputStarted = true;
    if (!this.blocks.has(index)) this.order.push(index);
    this.blocks.set(index, open);
    if (open.type === 'text' && text('text') !== '') this.addText(text('text'));
  }

  private extend(index: number, delta: Record<string, unknown>): void {
    const block = this.blocks.get(index);
    const piece = (key: string) => (typeof delta[key] === 'string' ? (delta[key] as string) : '');
    if (!block) return;
    this.outputStarted = true;
    if (delta.type === 'text_delta' && block.type === 'text') this.addText(piece('text'));
    else if (delta.type === 'input_json_delta' && block.type === 'tool_use') block.json += piece('partial_json');
    else if (delta.type === 'thinking_delta' && block.type === 'thinking') block.thinking += piece('thinking');
    else if (delta.type === 'signature_delta' && block.type === 'thinking') block.signature += piece('signature');
  }

  private addText(text: string): void {
    this.emit(this.filter ? this.filter.push(text) : text);
  }

  private emit(visible: string): void {
    if (visible === '') return;
    this.text += visible;
    this.onText?.(visible);
  }

  private addUsage(usage: WireUsage | null | undefined): void {
    if (!usage) return;
    for (const key of ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const) {
      const value = usage[key];
      if (typeof value === 'number' && Number.isFinite(value) && value >= 0) this.wire[key] = Math.floor(value);
    }
  }

  /** Ends the answer: flushes the filter, reads each call's JSON and attaches the thinking blocks. */
  finish(): AssembledAnswer {
    if (this.filter) this.emit(this.filter.end());
    const thinking: AnthropicThinkingBlock[] = [];
    const calls: AssembledAnswer['nativeCalls'] = [];
    for (const index of this.order) {
      const block = this.blocks.get(index)!;
      if (block.type === 'thinking') thinking.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
      else if (block.type === 'redacted_thinking') thinking.push({ type: 'redacted_thinking', data: block.data });
      else if (block.type === 'tool_use') calls.push({ id: block.id || undefined, name: block.name, arguments: block.json.trim() === '' ? '{}' : block.json });
    }
    const first = calls[0];
    if (first && thinking.length > 0) first.extra = { [THINKING_EXTRA_KEY]: thinking };
    const reasoning = thinking.map((b) => (b.type === 'thinking' ? b.thinking : '[redacted thinking]')).join('\n\n').trim();
    const detail = this.stopReason === 'refusal' ? 'provider reason: refusal' : this.stopDetail;
    return {
      text: this.text,
      nativeCalls: calls,
      textCalls: this.filter ? [...this.filter.calls] : [],
      finishReason: this.stopReason === undefined ? undefined : mapStopReason(this.stopReason),
      usage: this.usage(),
      reasoning: (reasoning + (this.filter?.thinking ?? '')).trim(),
      ...(detail ? { finishDetail: detail } : {}),
      problems: this.filter ? [...this.filter.problems] : [],
    };
  }

  private usage(): Usage | undefined {
    const w = this.wire;
    if (w.input_tokens === undefined && w.output_tokens === undefined) return undefined;
    const written = w.cache_creation_input_tokens ?? 0;
    const read = w.cache_read_input_tokens ?? 0;
    // Anthropic's `input_tokens` leaves out what was read from or written to the cache; ours include both.
    const prompt = (w.input_tokens ?? 0) + written + read;
    const completion = w.output_tokens ?? 0;
    const usage: Usage = { promptTokens: prompt, completionTokens: completion, totalTokens: prompt + completion };
    if (w.cache_read_input_tokens !== undefined) usage.cachedTokens = read;
    if (w.cache_creation_input_tokens !== undefined) usage.cacheWriteTokens = written;
    return usage;
  }
}

/** Anthropic's stop reasons in ours: `max_tokens` and a full window cut the answer like `length`; a refusal is like a content filter. */
export function mapStopReason(reason: string): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content_filter';
    default:
      return 'other';
  }
}
