/** A fenced block, or a whole answer that is bare JSON, that may be a tool call. */
export interface CandidateBlock {
  kind: 'fence' | 'bare';
  /** The fence's info string, lower-cased (`tool`, `json`, `` for a plain fence); `` for bare JSON. */
  info: string;
  /** The text between the fences. */
  body: string;
}

/** A tool call read from text; `arguments` is raw JSON text (or the raw block when it was malformed). */
export interface TextToolCall {
  name: string;
  arguments: string;
}

/** Turns a candidate block into a call, or `undefined` to show it to the user as ordinary text. */
export type BlockJudge = (block: CandidateBlock) => TextToolCall | undefined;

/** What the filter looks for. */
export interface ToolBlockFilterOptions {
  judge: BlockJudge;
  /** Fence info strings whose blocks are candidates (others are ordinary code blocks). */
  fenceInfos: ReadonlySet<string>;
  /** Treat an answer that starts with `{` as a candidate (small local models answer with bare JSON). */
  bareJson: boolean;
}

type State = 'start' | 'prose' | 'code' | 'block' | 'bare';

const OPEN_FENCE = /^ {0,3}(`{3,})[ \t]*([A-Za-z0-9_+-]*)(.*?)\r?\n?$/;
const CLOSE_FENCE = /^ {0,3}(`{3,})[ \t]*\r?\n?$/;
/** A partial line that may still turn out to open a fence once its newline arrives. */
const MAY_OPEN_FENCE = /^ {0,3}(?:`{0,2}|`{3,}.*)$/;

/**
 * Streams an answer's text through, holding back fenced blocks (and a bare-JSON answer) until they
 * are complete, then asks `judge` whether each is a tool call: calls are collected in `calls` and
 * hidden, anything else is passed on unchanged. Works line by line, so deltas may split a fence at
 * any character. Whatever is passed on, concatenated, is the answer minus the tool-call blocks.
 */
export class ToolBlockFilter {
  /** Calls found so far, in order. */
  readonly calls: TextToolCall[] = [];
  private state: State = 'start';
  private line = '';
  /** Characters of `line` already passed on. */
  private emitted = 0;
  private fence = 0;
  private info = '';
  /** The held block as written, fences included, for when it turns out not to be a call. */
  private raw = '';
  private body = '';

  constructor(private readonly options: ToolBlockFilterOptions) {}

  /** Feeds a delta; returns the text that can be shown now. */
  push(delta: string): string {
    let out = '';
    let rest = delta;
    while (rest.length > 0) {
      if (this.state === 'bare') {
        this.raw += rest;
        break;
      }
      if (this.state === 'start') {
        const leading = /^\s*/.exec(rest)?.[0] ?? '';
        this.raw += leading;
        rest = rest.slice(leading.length);
        if (rest.length === 0) break;
        if (this.options.bareJson && rest.startsWith('{')) {
          this.state = 'bare';
          continue;
        }
        this.state = 'prose';
        rest = this.raw + rest;
        this.raw = '';
        continue;
      }
      const newline = rest.indexOf('\n');
      const piece = newline === -1 ? rest : rest.slice(0, newline + 1);
      rest = rest.slice(piece.length);
      this.line += piece;
      out += newline === -1 ? this.partialLine() : this.completeLine();
    }
    return out;
  }

  /** Ends the stream: an unclosed block is judged as it stands (the answer may have been cut off). */
  end(): string {
    switch (this.state) {
      case 'start':
        return this.takeRaw();
      case 'bare': {
        const call = this.options.judge({ kind: 'bare', info: '', body: this.raw });
        if (!call) return this.takeRaw();
        this.calls.push(call);
        this.raw = '';
        return '';
      }
      case 'block': {
        const line = this.takeLine();
        this.raw += line;
        if (!CLOSE_FENCE.test(line)) this.body += stripInlineClose(line);
        return this.finishBlock();
      }
      default: {
        const rest = this.line.slice(this.emitted);
        this.takeLine();
        return rest;
      }
    }
  }

  private partialLine(): string {
    if (this.state === 'block') return '';
    if (this.state === 'prose' && this.emitted === 0 && MAY_OPEN_FENCE.test(this.line)) return '';
    const out = this.line.slice(this.emitted);
    this.emitted = this.line.length;
    return out;
  }

  private completeLine(): string {
    const emitted = this.emitted;
    const line = this.takeLine();
    if (this.state === 'code') {
      const close = CLOSE_FENCE.exec(line);
      if (close?.[1] && close[1].length >= this.fence) this.state = 'prose';
      return line.slice(emitted);
    }
    if (this.state === 'block') {
      this.raw += line;
      const close = CLOSE_FENCE.exec(line);
      if (close?.[1] && close[1].length >= this.fence) return this.finishBlock();
      if (/`{3,}\s*$/.test(line)) {
        this.body += stripInlineClose(line);
        return this.finishBlock();
      }
      this.body += line;
      return '';
    }
    if (emitted > 0) return line.slice(emitted);
    const open = OPEN_FENCE.exec(line);
    if (!open) return line;
    this.fence = open[1]?.length ?? 3;
    const info = (open[2] ?? '').toLowerCase();
    const inline = (open[3] ?? '').trim();
    if (!this.options.fenceInfos.has(info) || (inline !== '' && !inline.startsWith('{'))) {
      this.state = 'code';
      return line;
    }
    this.state = 'block';
    this.info = info;
    this.raw = line;
    if (inline === '') {
      this.body = '';
      return '';
    }
    // "```tool {...}```" on one line, or a body that starts on the fence line.
    if (/`{3,}$/.test(inline)) {
      this.body = stripInlineClose(inline);
      return this.finishBlock();
    }
    this.body = `${inline}\n`;
    return '';
  }

  private finishBlock(): string {
    const call = this.options.judge({ kind: 'fence', info: this.info, body: this.body });
    this.state = 'prose';
    this.body = '';
    if (!call) return this.takeRaw();
    this.calls.push(call);
    this.raw = '';
    return '';
  }

  private takeLine(): string {
    const line = this.line;
    this.line = '';
    this.emitted = 0;
    return line;
  }

  private takeRaw(): string {
    const raw = this.raw;
    this.raw = '';
    return raw;
  }
}

function stripInlineClose(text: string): string {
  return text.replace(/`{3,}\s*$/, '');
}
