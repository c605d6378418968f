import type { NativeVerdict } from '../toolBlockFilter';
import { aprielFormat } from './apriel';
import { clineXmlFormat } from './clineXml';
import { commandRFormat } from './commandR';
import { deepseekFormat } from './deepseek';
import { fireFunctionFormat } from './fireFunction';
import { functionaryV31Format } from './functionaryV31';
import { functionaryV32Format } from './functionaryV32';
import { glm45Format } from './glm45';
import { graniteFormat } from './granite';
import { harmonyFormat } from './harmony';
import { hermesFormat } from './hermes';
import { kimiK2Format } from './kimiK2';
import { llamaFormat } from './llama';
import { minimaxM2Format } from './minimaxM2';
import { mistralFormat } from './mistral';
import { nemotronFormat } from './nemotron';
import { pythonicFormat } from './pythonic';
import { qwenXmlFormat } from './qwenXml';
import { xlamFormat } from './xlam';
import type { FormatParser, ToolCatalog } from './types';

/**
 * The native formats, most specific first: special tokens before tags; GLM's and Qwen3-Coder's
 * markup sits inside `<tool_call>` and must be read before Hermes (and Functionary's JSON-bodied
 * `<function=name>` before Qwen3-Coder's); xLAM's bare lists before Llama's bare objects, which a
 * multi-line list holds; the bare-JSON, pythonic and XML readers last, as the least certain.
 */
export const TOOL_CALL_FORMATS: readonly FormatParser[] = [
  kimiK2Format,
  deepseekFormat,
  harmonyFormat,
  commandRFormat,
  mistralFormat,
  minimaxM2Format,
  glm45Format,
  functionaryV31Format,
  qwenXmlFormat,
  hermesFormat,
  aprielFormat,
  nemotronFormat,
  fireFunctionFormat,
  graniteFormat,
  functionaryV32Format,
  xlamFormat,
  llamaFormat,
  pythonicFormat,
  clineXmlFormat,
];

/**
 * Reads tool calls that a model wrote as text in its own native format (see TOOL_CALL_FORMATS),
 * for answers that carry no structured calls. The first format found decides; the returned text is
 * the answer without the markup that was read. Names are validated against the catalog; markup that
 * looks like a call but cannot be read becomes a problem note. `undefined` when no format is present.
 */
export function recoverToolCalls(text: string, catalog: ToolCatalog): NativeVerdict | undefined {
  if (catalog.names.size === 0) return undefined;
  for (const format of TOOL_CALL_FORMATS) {
    const match = format.parse(text, catalog);
    if (match && (match.calls.length > 0 || match.problems.length > 0)) return match;
  }
  return undefined;
}

/** The line starts that open any native format's markup, for the streaming filter. */
export function nativeMarkers(catalog: ToolCatalog): string[] {
  return [...new Set(TOOL_CALL_FORMATS.flatMap((format) => format.markers(catalog)))];
}

/**
 * The note sent back when markup could not be read (or named a tool that does not exist), so the
 * model can call again instead of the run ending on the broken text.
 */
export function correctionNote(problems: readonly string[], mode: 'text' | 'native'): string {
  const how =
    mode === 'text'
      ? 'Call tools with a ```tool block holding {"name": ..., "arguments": {...}} as the system prompt describes.'
      : 'Call tools with the tool-calling interface (name and JSON arguments), not as text.';
  return `${problems.join('\n')}\nNothing was run for it. ${how}`;
}
