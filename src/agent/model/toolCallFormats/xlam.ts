import { callFromObject, type ParsedCallJson } from './callJson';
import { jsonValueEnd, parseTolerantJson } from './tolerantJson';
import { CallCollector, cutSpans, type FormatParser } from './types';

/**
 * Salesforce xLAM: a bare JSON list of calls, `[{"name": "x", "arguments": {...}}, ...]`, on a line
 * of its own (xLAM-2), or `{"tool_calls": [...]}` (xLAM-1). Only lists whose every call names an
 * offered tool count, so a JSON list in an answer stays text.
 */
export const xlamFormat: FormatParser = {
  format: 'xLAM [{"name", "arguments"}]',
  markers: () => ['[{"name"', '{"tool_calls"'],
  parse(text, catalog) {
    const found = new CallCollector(this.format, catalog);
    const spans: Array<[number, number]> = [];
    for (const match of text.matchAll(/(?:^|\n)[ \t]*(\[\s*\{\s*"name"|\{\s*"tool_calls"\s*:)/g)) {
      const start = match.index + match[0].length - match[1]!.length;
      const end = jsonValueEnd(text, start);
      const calls = end === undefined ? undefined : listCalls(parseTolerantJson(text.slice(start, end)));
      if (!calls) {
        // Unreadable, but naming an offered tool right at the start: an attempt, worth a note.
        const named = /^\[\s*\{\s*"name"\s*:\s*"([^"]+)"/.exec(text.slice(start));
        if (named && catalog.names.has(named[1]!)) {
          found.fail('the list of calls is not valid JSON', text.slice(start, end));
          spans.push([start, end ?? text.length]);
        }
        continue;
      }
      if (!calls.every((call) => catalog.names.has(call.name))) continue;
      for (const call of calls) found.add(call.name, call.arguments);
      spans.push([start, end ?? text.length]);
    }
    if (spans.length === 0) return undefined;
    return found.result(cutSpans(text, spans).trim());
  },
};

function listCalls(value: unknown): ParsedCallJson[] | undefined {
  const list = Array.isArray(value) ? value : (value as { tool_calls?: unknown } | undefined)?.tool_calls;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const calls = list.map(callFromObject);
  return calls.every((call): call is ParsedCallJson => call !== undefined) ? calls : undefined;
}
