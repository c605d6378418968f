/** What the detector looks at in one turn. */
export interface TurnRecord {
  text: string;
  toolCalls: readonly { name: string; arguments: string }[];
}

/** `note`: tell the model to change strategy; `stop`: end the run as stuck. */
export type StuckVerdict =
  | { kind: 'ok' }
  | { kind: 'note'; repeated: string; repeats: number; message: string }
  | { kind: 'stop'; repeated: string; repeats: number; reason: string };

/** Thresholds of the detector. */
export interface StuckOptions {
  /** Consecutive repeats of the same turn (or cycle of turns) before the model gets a note. */
  repeatsBeforeNote: number;
  /** Further repeats after the note before the run stops. */
  repeatsAfterNote: number;
  /** Longest cycle recognised: 1 = A A A, 2 = A B A B A B. */
  maxPeriod: number;
}

/** Note after 3 identical turns in a row, stop after 2 more. */
export const DEFAULT_STUCK_OPTIONS: StuckOptions = { repeatsBeforeNote: 3, repeatsAfterNote: 2, maxPeriod: 2 };

/**
 * Arguments longer than this are compared as sent, trimmed: parsing and re-sorting a 50 MB
 * write_file argument costs a second on every call, and a model that repeats such a call repeats it
 * byte for byte.
 */
export const CANONICAL_MAX_CHARS = 1 << 20;

/** JSON text with object keys sorted and whitespace removed; unparsable or huge text is only trimmed. */
export function canonicalJson(raw: string): string {
  if (raw.length > CANONICAL_MAX_CHARS) return raw.trim();
  try {
    return JSON.stringify(sortKeys(JSON.parse(raw.trim() === '' ? '{}' : raw)));
  } catch {
    return raw.trim();
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/**
 * What makes two turns "the same": their tool calls (name + canonical arguments) when there are
 * any — the wording around identical calls varies without meaning progress — else the text.
 */
export function turnSignature(turn: TurnRecord): string {
  if (turn.toolCalls.length) return turn.toolCalls.map((call) => `${call.name} ${canonicalJson(call.arguments)}`).join(' + ');
  return `text: ${turn.text.replace(/\s+/g, ' ').trim()}`;
}

/** The cycle at the end of `signatures` repeated most often in a row, e.g. `A B A B` -> period 2, 2 repeats. */
export function trailingRepetition(signatures: readonly string[], maxPeriod: number): { period: number; repeats: number } {
  let best = { period: 1, repeats: signatures.length ? 1 : 0 };
  for (let period = 1; period <= maxPeriod && period <= signatures.length; period++) {
    const end = signatures.length;
    let repeats = 1;
    while ((repeats + 1) * period <= end && sameBlock(signatures, end - period, end - (repeats + 1) * period, period)) repeats++;
    if (repeats > best.repeats) best = { period, repeats };
  }
  return best;
}

function sameBlock(items: readonly string[], a: number, b: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (items[a + i] !== items[b + i]) return false;
  return true;
}

/**
 * Spots a run that repeats itself (OpenManus's "stuck" check, widened to short cycles). Pure
 * bookkeeping: feed it every turn; it never looks at tool results, since timing noise in command
 * output would hide a loop.
 */
export class StuckDetector {
  private readonly signatures: string[] = [];
  private noted: { block: string; repeats: number } | undefined;
  private readonly options: StuckOptions;

  constructor(options: Partial<StuckOptions> = {}) {
    this.options = { ...DEFAULT_STUCK_OPTIONS, ...options };
  }

  /** Records one turn and says what to do about it. */
  observe(turn: TurnRecord): StuckVerdict {
    const { repeatsBeforeNote, repeatsAfterNote, maxPeriod } = this.options;
    this.signatures.push(turnSignature(turn));
    const keep = maxPeriod * (repeatsBeforeNote + repeatsAfterNote + 1);
    if (this.signatures.length > keep) this.signatures.splice(0, this.signatures.length - keep);

    const { period, repeats } = trailingRepetition(this.signatures, maxPeriod);
    if (repeats < repeatsBeforeNote) {
      this.noted = undefined;
      return { kind: 'ok' };
    }
    const cycle = this.signatures.slice(-period);
    const block = canonicalRotation(cycle).join(' | ');
    const repeated = describe(cycle);
    if (!this.noted || this.noted.block !== block) {
      this.noted = { block, repeats };
      return {
        kind: 'note',
        repeated,
        repeats,
        message:
          `You have repeated the same action (${repeated}) ${repeats} times in a row without progress. ` +
          'Change strategy: reread the last results, try a different approach or tool, or call finish and explain what blocks you.',
      };
    }
    if (repeats >= this.noted.repeats + repeatsAfterNote) {
      return {
        kind: 'stop',
        repeated,
        repeats,
        reason: `stuck: repeated ${repeated} ${repeats} times in a row, also after a note to change strategy`,
      };
    }
    return { kind: 'ok' };
  }
}

/** A B and B A are the same loop seen at different turns: compare cycles by their smallest rotation. */
function canonicalRotation(cycle: readonly string[]): string[] {
  let best = [...cycle];
  for (let shift = 1; shift < cycle.length; shift++) {
    const rotated = [...cycle.slice(shift), ...cycle.slice(0, shift)];
    if (rotated.join('\u0000') < best.join('\u0000')) best = rotated;
  }
  return best;
}

function describe(block: readonly string[]): string {
  const parts = block.map((signature) => {
    const text = signature.startsWith('text: ') ? `the answer "${signature.slice(6)}"` : `\`${signature}\``;
    return text.length > 200 ? `${text.slice(0, 199)}…` : text;
  });
  return parts.join(' then ');
}
