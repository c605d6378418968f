/** Characters of full outputs kept per task; the oldest go first past it (bounded memory). */
export const KEPT_OUTPUT_CHARS = 8_000_000;

/** What a tool may ask of the kept outputs. */
export interface ToolOutputReader {
  /** The full output kept under `key` (a call id, as the cut marker names it), or `undefined` when not kept. */
  get(key: string): string | undefined;
}

/**
 * The full text of tool outputs that reached the model cut to the per-result cap, by call id, so
 * `read_output` can hand over what the cut left out instead of the command being run again.
 * Bounded: past `maxChars` in all the oldest outputs are dropped first.
 */
export class ToolOutputStore implements ToolOutputReader {
  private readonly outputs = new Map<string, string>();
  /** Every key ever kept: a dropped output's key is not reused for another output. */
  private readonly used = new Set<string>();
  private chars = 0;

  constructor(private readonly maxChars = KEPT_OUTPUT_CHARS) {}

  /** Whether an output of `length` characters can be kept at all. */
  canKeep(length: number): boolean {
    return length <= this.maxChars;
  }

  /**
   * The key `put` will keep an output of `callId` under: the call id itself, or with `~2`, `~3`…
   * when a model reuses call ids across turns (some do), so a key always names one output.
   */
  keyFor(callId: string): string {
    if (!this.used.has(callId)) return callId;
    let n = 2;
    while (this.used.has(`${callId}~${n}`)) n++;
    return `${callId}~${n}`;
  }

  /** Keeps `text` under `key` (from `keyFor`); false when it is too big to keep. */
  put(key: string, text: string): boolean {
    if (!this.canKeep(text.length)) return false;
    this.drop(key);
    this.used.add(key);
    this.outputs.set(key, text);
    this.chars += text.length;
    for (const [oldest, kept] of this.outputs) {
      if (this.chars <= this.maxChars) break;
      this.outputs.delete(oldest);
      this.chars -= kept.length;
    }
    return true;
  }

  get(key: string): string | undefined {
    return this.outputs.get(key);
  }

  private drop(key: string): void {
    const kept = this.outputs.get(key);
    if (kept === undefined) return;
    this.outputs.delete(key);
    this.chars -= kept.length;
  }
}
