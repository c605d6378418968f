import { coerceArguments, xmlValue } from './coerceArguments';
import { CallCollector, cutSpans, type FormatParser } from './types';

const BLOCK = /<minimax:tool_call>([\s\S]*?)(?:<\/minimax:tool_call>|$)/g;
const INVOKE = /<invoke\s+name\s*=\s*["']?([^"'>]*)["']?\s*>([\s\S]*?)(?:<\/invoke>|(?=<invoke[\s>])|$)/g;
const PARAMETER = /<parameter\s+name\s*=\s*["']?([^"'>]*)["']?\s*>([\s\S]*?)(?:<\/parameter>|(?=<parameter[\s>])|$)/g;

/**
 * MiniMax M2: `<minimax:tool_call><invoke name="x"><parameter name="k">value</parameter></invoke>...</minimax:tool_call>`;
 * values are raw text, typed by the tool's schema.
 */
export const minimaxM2Format: FormatParser = {
  format: 'MiniMax M2 <minimax:tool_call>',
  markers: () => ['<minimax:tool_call>'],
  parse(text, catalog) {
    if (!text.includes('<minimax:tool_call>')) return undefined;
    const found = new CallCollector(this.format, catalog);
    const spans: Array<[number, number]> = [];
    for (const block of text.matchAll(BLOCK)) {
      spans.push([block.index, block.index + block[0].length]);
      const body = block[1] ?? '';
      if (body.replace(INVOKE, '').trim() !== '') found.fail('each call must be <invoke name="tool"><parameter name="key">value</parameter></invoke>', block[0]);
      for (const invoke of body.matchAll(INVOKE)) {
        const name = (invoke[1] ?? '').trim();
        const inner = invoke[2] ?? '';
        if (inner.replace(PARAMETER, '').trim() !== '') {
          found.fail(`each argument of ${name} must be <parameter name="key">value</parameter>`, invoke[0]);
          continue;
        }
        const params: Array<[string, string]> = [];
        for (const param of inner.matchAll(PARAMETER)) params.push([(param[1] ?? '').trim(), xmlValue(param[2] ?? '')]);
        found.add(name, coerceArguments(params, catalog.schema(name)));
      }
    }
    return found.result(cutSpans(text, spans).trim());
  },
};
