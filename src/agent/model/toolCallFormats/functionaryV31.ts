import { jsonValueEnd, parseTolerantJson } from './tolerantJson';
import { CallCollector, cutSpans, type FormatParser } from './types';

const OPEN = /<function=([^>\n]*)>\s*(?=\{)/g;

/**
 * Functionary v3.1 (Llama 3.1 based) and Llama 3.1's own custom-tool format:
 * `<function=name>{"key": "value"}</function>`. Only JSON bodies are this format's; a body of
 * `<parameter=...>` elements is Qwen3-Coder's and is left to that parser.
 */
export const functionaryV31Format: FormatParser = {
  format: 'Functionary v3.1 <function=name>{...}',
  markers: () => [],
  parse(text, catalog) {
    if (!text.includes('<function=')) return undefined;
    const found = new CallCollector(this.format, catalog);
    const spans: Array<[number, number]> = [];
    for (const match of text.matchAll(OPEN)) {
      const start = match.index + match[0].length;
      const end = jsonValueEnd(text, start);
      const args = end === undefined ? undefined : parseTolerantJson(text.slice(start, end));
      const close = end === undefined ? undefined : /^\s*<\/function>/.exec(text.slice(end));
      const stop = end === undefined ? text.length : end + (close?.[0].length ?? 0);
      spans.push([match.index, stop]);
      if (typeof args !== 'object' || args === null || Array.isArray(args)) found.fail('the arguments after <function=name> are not one complete JSON object', text.slice(match.index, stop));
      else found.add(match[1] ?? '', args);
    }
    if (spans.length === 0) return undefined;
    return found.result(cutSpans(text, spans).trim());
  },
};
