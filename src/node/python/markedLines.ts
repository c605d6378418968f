/** A piece of the interpreter's stdout: text to show, or the payload of a marker line. */
export type MarkedPiece = string | { marker: string };

/**
 * Splits a stream into output text and marker lines (`<mark> <payload>\n`), however the chunks
 * fall: text that may be the start of a mark is held back until it is known. The one newline the
 * driver writes before a mark is dropped, so output looks as printed.
 */
export class MarkedLines {
  private buffer = '';

  constructor(private readonly mark: string) {}

  /** Feeds a decoded chunk; returns the pieces now complete, in order. */
  push(chunk: string): MarkedPiece[] {
    this.buffer += chunk;
    const out: MarkedPiece[] = [];
    for (;;) {
      const at = this.buffer.indexOf(this.mark);
      if (at >= 0) {
        const end = this.buffer.indexOf('\n', at);
        const before = this.buffer.slice(0, at);
        if (end < 0) {
          // The newline before the mark stays with it until the marker line is whole.
          const cut = before.endsWith('\n') ? at - 1 : at;
          if (cut > 0) out.push(this.buffer.slice(0, cut));
          this.buffer = this.buffer.slice(cut);
          return out;
        }
        const text = before.endsWith('\n') ? before.slice(0, -1) : before;
        if (text) out.push(text);
        out.push({ marker: this.buffer.slice(at + this.mark.length, end).trim() });
        this.buffer = this.buffer.slice(end + 1);
        continue;
      }
      const keep = this.partialMark();
      const text = this.buffer.slice(0, this.buffer.length - keep);
      this.buffer = this.buffer.slice(this.buffer.length - keep);
      if (text) out.push(text);
      return out;
    }
  }

  /** Length of the longest end of the buffer that could begin a mark (or the newline before one). */
  private partialMark(): number {
    const buffer = this.buffer;
    for (let length = Math.min(buffer.length, this.mark.length); length > 0; length--) {
      if (this.mark.startsWith(buffer.slice(buffer.length - length))) {
        return buffer[buffer.length - length - 1] === '\n' ? length + 1 : length;
      }
    }
    return buffer.endsWith('\n') ? 1 : 0;
  }
}
