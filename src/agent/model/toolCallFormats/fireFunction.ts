import { jsonListFormat } from './jsonListBlock';

/** FireFunction v2: ` functools[{"name": ..., "arguments": {...}}, ...]` (the list's own end closes it). */
export const fireFunctionFormat = jsonListFormat({ format: 'FireFunction functools[...]', open: 'functools[' });
