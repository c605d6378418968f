import { jsonListFormat } from './jsonListBlock';
import type { FormatParser } from './types';

const ACTION = jsonListFormat({ format: 'Command <|START_ACTION|>', open: '<|START_ACTION|>', close: '<|END_ACTION|>' });
const THINKING = /<\|START_THINKING\|>([\s\S]*?)(?:<\|END_THINKING\|>|$)/g;
const RESPONSE_TOKENS = /<\|(?:START|END)_RESPONSE\|>/g;

/**
 * Cohere Command R7B / Command A: `<|START_THINKING|>plan<|END_THINKING|><|START_ACTION|>[{"tool_call_id": "0",
 * "tool_name": "x", "parameters": {...}}]<|END_ACTION|>`; the plan moves to thinking and the
 * response tokens around a text answer are dropped. (Command R+'s `Action: ```json [...]``` ` is a
 * fenced JSON list, which the fence reader takes.)
 */
export const commandRFormat: FormatParser = {
  format: ACTION.format,
  markers: () => ['<|START_ACTION|>', '<|START_THINKING|>'],
  parse(text, catalog) {
    const match = ACTION.parse(text, catalog);
    if (!match) return undefined;
    let thinking = '';
    const visible = match.text.replace(THINKING, (_all, plan: string) => {
      thinking += plan.trim();
      return '';
    });
    return { ...match, text: visible.replace(RESPONSE_TOKENS, '').trim(), ...(thinking ? { thinking } : {}) };
  },
};
