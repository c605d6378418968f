import { coerceArguments, xmlValue } from './coerceArguments';
import { CallCollector, cutSpans, type FormatParser } from './types';

const BLOCK = /<tool_call>\s*([A-Za-z0-9_.-]+)\s*((?:<arg_key>[\s\S]*?)?)(?:<\/tool_call>|(?=<tool_call>)|$)/g;
const PAIR = /<arg_key>([\s\S]*?)<\/arg_key>\s*<arg_value>([\s\S]*?)(?:<\/arg_value>|(?=<arg_key>)|$)/g;

/**
 * Zhipu GLM-4.5 / 4.6 / 4.7: `<tool_call>name\n<arg_key>key</arg_key>\n<arg_value>value</arg_value>...</tool_call>`.
 * Values are raw text (the template JSON-encodes non-strings), typed by the tool's schema. Only
 * blocks that start with a bare name are GLM's; a `<tool_call>` holding JSON is left to Hermes.
 */
export const glm45Format: FormatParser = {
  format: 'GLM-4.5 <tool_call>name<arg_key>',
  markers: () => [],
  parse(text, catalog) {
    if (!text.includes('<tool_call>')) return undefined;
    const found = new CallCollector(this.format, catalog);
    const spans: Array<[number, number]> = [];
    for (const match of text.matchAll(BLOCK)) {
      const body = match[2] ?? '';
      spans.push([match.index, match.index + match[0].length]);
      const params: Array<[string, string]> = [];
      for (const pair of body.matchAll(PAIR)) params.push([(pair[1] ?? '').trim(), xmlValue(pair[2] ?? '')]);
      const leftover = body.replace(PAIR, '').trim();
      if (leftover !== '') {
        found.fail('each argument must be <arg_key>name</arg_key><arg_value>value</arg_value>', match[0]);
        continue;
      }
      found.add(match[1]!, coerceArguments(params, catalog.schema(match[1]!)));
    }
    if (spans.length === 0) return undefined;
    return found.result(cutSpans(text, spans).trim());
  },
};
