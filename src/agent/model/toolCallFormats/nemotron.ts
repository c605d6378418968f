import { jsonListFormat } from './jsonListBlock';

/** Llama-3.1-Nemotron (Nano, Super, Ultra): `<TOOLCALL>[{"name": ..., "arguments": {...}}, ...]</TOOLCALL>`. */
export const nemotronFormat = jsonListFormat({ format: 'Nemotron <TOOLCALL>', open: '<TOOLCALL>', close: '</TOOLCALL>' });
