/**
 * Command output kept within a fixed number of characters however much is appended: the first
 * 40% of the cap (the command's start: what ran, early errors) and a rolling last 60% (the end:
 * summaries, final errors). Memory stays at the cap; the middle is counted, not kept.
 */
export class BoundedOutput {
  /** Characters the head keeps. */
  readonly headCap: number;
  /** Characters the rolling tail keeps. */
  readonly tailCap: number;
  private head = '';
  private headFull = false;
  private tail: string[] = [];
  private tailLength = 0;
  private total = 0;

  /** @param maxChars cap on retained characters (UTF-16 code units, like `String.length`) */
  constructor(maxChars: number) {
    const cap = Math.max(0, Math.floor(maxChars));
    this.headCap = Math.floor(cap * 0.4);
    this.tailCap = cap - this.headCap;
  }

  /** Adds text in arrival order. */
  append(text: string): void {
    if (text === '') return;
    this.total += text.length;
    let rest = text;
    if (!this.headFull) {
      const room = this.headCap - this.head.length;
      let take = Math.min(room, rest.length);
      // Never end the head inside a surrogate pair.
      if (take > 0 && take < rest.length && isHighSurrogate(rest.charCodeAt(take - 1))) take--;
      this.head += take === rest.length ? rest : copy(rest.slice(0, take));
      rest = rest.slice(take);
      if (rest === '') return;
      this.headFull = true;
    }
    this.pushTail(rest);
  }

  /** Every character appended so far. */
  get totalChars(): number {
    return this.total;
  }

  /** Characters held now (never more than the cap). */
  get retainedChars(): number {
    return this.head.length + this.tailLength;
  }

  /** Characters dropped from the middle. */
  get omittedChars(): number {
    return this.total - this.retainedChars;
  }

  /** Head, a marker naming the omitted count when something was dropped, and tail. */
  toString(): string {
    const tail = this.tail.join('');
    if (this.omittedChars === 0) return this.head + tail;
    return `${this.head}\n[... ${this.omittedChars} characters omitted ...]\n${tail}`;
  }

  private pushTail(text: string): void {
    if (this.tailCap === 0) return;
    // A chunk bigger than the tail: only its end can survive, so do not hold the rest at all.
    const piece = text.length > this.tailCap ? copy(text.slice(text.length - this.tailCap)) : text;
    this.tail.push(piece);
    this.tailLength += piece.length;
    while (this.tailLength > this.tailCap) {
      const first = this.tail[0]!;
      const excess = this.tailLength - this.tailCap;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailLength -= first.length;
      } else {
        // Copy so the kept end does not pin the whole original chunk in memory.
        this.tail[0] = copy(first.slice(excess));
        this.tailLength -= excess;
      }
    }
    if (this.tail.length > 1024) this.tail = [this.tail.join('')];
    const start = this.tail[0];
    // Never start the tail with the second half of a surrogate pair.
    if (start !== undefined && isLowSurrogate(start.charCodeAt(0))) {
      this.tail[0] = start.slice(1);
      this.tailLength -= 1;
    }
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** A flat copy: V8 may keep a slice as a view onto its (large) parent string. */
function copy(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}
