import { jsonListFormat } from './jsonListBlock';

/** ServiceNow Apriel (1.5 and later): `<tool_calls>[{"name": ..., "arguments": {...}}, ...]</tool_calls>`. */
export const aprielFormat = jsonListFormat({ format: 'Apriel <tool_calls>', open: '<tool_calls>', close: '</tool_calls>' });
