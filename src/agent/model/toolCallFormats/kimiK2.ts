import { parseTolerantJson } from './tolerantJson';
import { CallCollector, cutSpans, type FormatParser } from './types';

const SECTION = /<\|tool_calls?_section_begin\|>([\s\S]*?)(?:<\|tool_calls?_section_end\|>|$)/g;
const CALL = /<\|tool_call_begin\|>([\s\S]*?)<\|tool_call_argument_begin\|>([\s\S]*?)(?:<\|tool_call_end\|>|(?=<\|tool_call_begin\|>)|$)/g;
/** `functions.read_file:0` → `read_file`; K2's ids carry the namespace and the call's index. */
const CALL_ID = /^\s*(?:functions\.)?([A-Za-z0-9_.-]+?)(?::\d+)?\s*$/;

/**
 * Moonshot Kimi K2 (Instruct and Thinking):
 * `<|tool_calls_section_begin|><|tool_call_begin|>functions.name:0<|tool_call_argument_begin|>{...}<|tool_call_end|>...<|tool_calls_section_end|>`
 * (some servers print `tool_call_section` in the singular).
 */
export const kimiK2Format: FormatParser = {
  format: 'Kimi K2 <|tool_calls_section_begin|>',
  markers: () => ['<|tool_calls_section_begin|>', '<|tool_call_section_begin|>', '<|tool_call_begin|>'],
  parse(text, catalog) {
    if (!/<\|tool_calls?_section_begin\|>/.test(text)) return undefined;
    const found = new CallCollector(this.format, catalog);
    const spans: Array<[number, number]> = [];
    for (const section of text.matchAll(SECTION)) {
      spans.push([section.index, section.index + section[0].length]);
      const body = section[1] ?? '';
      let calls = 0;
      for (const call of body.matchAll(CALL)) {
        calls++;
        const id = CALL_ID.exec(call[1] ?? '');
        const args = parseTolerantJson(call[2] ?? '');
        if (!id) found.fail('the call id before <|tool_call_argument_begin|> must be functions.<name>:<index>', call[0]);
        else if (typeof args !== 'object' || args === null || Array.isArray(args)) found.fail('the arguments after <|tool_call_argument_begin|> are not a JSON object', call[0]);
        else found.add(id[1]!, args);
      }
      if (calls === 0 && body.trim() !== '') found.fail('each call must be <|tool_call_begin|>functions.<name>:<index><|tool_call_argument_begin|>{...}<|tool_call_end|>', body);
    }
    return found.result(cutSpans(text, spans).trim());
  },
};
