import { jsonListFormat } from './jsonListBlock';

/** IBM Granite 3.x: `<|tool_call|>[{"name": ..., "arguments": {...}}, ...]` (the list's own end closes it). */
export const graniteFormat = jsonListFormat({ format: 'Granite <|tool_call|>', open: '<|tool_call|>' });
