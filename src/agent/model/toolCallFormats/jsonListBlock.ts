import { callsFromJson } from './callJson';
import { jsonValueEnd } from './tolerantJson';
import { CallCollector, cutSpans, type FormatParser } from './types';

/** How one family wraps a JSON list of `{"name", "arguments"}` calls. */
export interface JsonListShape {
  /** Shown in correction notes. */
  format: string;
  /** The literal token or tag that opens the calls. */
  open: string;
  /** The closing token or tag; optional in the text (models stop at the end-of-turn token instead). Absent: the JSON value's own end closes it. */
  close?: string;
}

/**
 * A parser for formats that wrap a JSON list (or one object) of calls between two markers:
 * Nemotron's `<TOOLCALL>[...]</TOOLCALL>`, Apriel's `<tool_calls>[...]</tool_calls>`, Command's
 * `<|START_ACTION|>[...]<|END_ACTION|>`, FireFunction's `functools[...]`, Granite's `<|tool_call|>[...]`. Every block is read;
 * a block that is not a list of call objects is a problem, quoted.
 */
export function jsonListFormat(shape: JsonListShape): FormatParser {
  return {
    format: shape.format,
    markers: () => [shape.open],
    parse(text, catalog) {
      if (!text.includes(shape.open)) return undefined;
      const found = new CallCollector(shape.format, catalog);
      const spans: Array<[number, number]> = [];
      let at = text.indexOf(shape.open);
      while (at !== -1) {
        // Without a closing token the opener alone is weak (`functools[0]` in prose): a call object must follow.
        if (shape.close === undefined && !/^\s*(?:\[\s*)?\{/.test(text.slice(at + shape.open.length))) {
          at = text.indexOf(shape.open, at + shape.open.length);
          continue;
        }
        const block = readBlock(text, at, shape);
        spans.push([at, block.end]);
        const calls = block.body.trim() === '' ? undefined : callsFromJson(block.body);
        if (!calls) found.fail(`expected a JSON list of {"name": ..., "arguments": {...}} objects after ${shape.open}`, text.slice(at, block.end));
        else for (const call of calls) found.add(call.name, call.arguments);
        at = text.indexOf(shape.open, block.end);
      }
      if (spans.length === 0) return undefined;
      return found.result(cutSpans(text, spans).trim());
    },
  };
}

/** The body after the opener at `at` and where the markup ends (after the closer when there is one). */
function readBlock(text: string, at: number, shape: JsonListShape): { body: string; end: number } {
  const from = at + shape.open.length;
  if (shape.close !== undefined) {
    const close = text.indexOf(shape.close, from);
    const next = text.indexOf(shape.open, from);
    // An unclosed block runs to the next opener or the end of the answer.
    const stop = close !== -1 && (next === -1 || close < next) ? close : next !== -1 ? next : text.length;
    return { body: text.slice(from, stop), end: stop === close ? close + shape.close.length : stop };
  }
  // An opener that ends with `[` (`functools[`) is the start of the list itself.
  const open = shape.open.endsWith('[') ? from - 1 : from + Math.max(0, text.slice(from).search(/\S/));
  if (text[open] !== '[' && text[open] !== '{') return { body: text.slice(from), end: text.length };
  const end = jsonValueEnd(text, open);
  return end === undefined ? { body: text.slice(open), end: text.length } : { body: text.slice(open, end), end };
}
