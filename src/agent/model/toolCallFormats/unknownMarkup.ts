import { shorten } from './types';

/** Tool-call-like markup that no parser read: what kind it is, and the piece of text that shows it. */
export interface UnknownMarkup {
  /** In words, e.g. `a special token <|tool_call|>`. */
  kind: string;
  snippet: string;
}

/** Fenced code blocks and inline code spans: markup shown as an example there is discussion, not a call. */
const CODE = /^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[ \t]*$|(?![\s\S]))|`[^`\n]+`/gm;
/** Special tokens of chat templates whose name is about tools: `<|tool_call_begin|>`, `<｜tool▁sep｜>`, `<|python_tag|>`. */
const SPECIAL_TOKEN = /<[|｜][^|｜<>\s]*(?:tool|call|func|action|invoke|python|plugin|arg)[^|｜<>\s]*[|｜]>/i;
/** Bracket tokens in the style of Mistral's `[TOOL_CALLS]`. */
const BRACKET_TOKEN = /\[(?:TOOL|TOOLS|FUNCTION|FUNC|CALL)(?:_[A-Z]+)*\]/;
/** Tags that only ever wrap tool calls, in any family's spelling. */
const CALL_TAG = /<\/?(?:[\w-]+:)?(?:tool[_-]?calls?|tool[_-]?use|tool[_-]?code|function[_-]?calls?|toolcall|invoke\s+name\s*=|function\s*=|parameter\s*=|arg_key|arg_value)(?=[\s>=/])/i;

/**
 * The first piece of tool-call-like markup in an answer that no format parser accepted (code
 * blocks and inline code excluded): a special token about tools, a `[TOOL_...]` token, a tag that
 * only wraps calls, a tag named after an offered tool, `functions.<tool>`, or a JSON object whose
 * name field is an offered tool. `undefined` for ordinary prose, HTML, and JSON that names no tool.
 */
export function findUnknownMarkup(text: string, toolNames: ReadonlySet<string>): UnknownMarkup | undefined {
  const prose = text.replace(CODE, ' ');
  const token = SPECIAL_TOKEN.exec(prose) ?? BRACKET_TOKEN.exec(prose);
  if (token) return { kind: `a special token ${token[0]}`, snippet: around(prose, token.index) };
  const tag = CALL_TAG.exec(prose);
  if (tag) return { kind: `a tool-call tag ${tag[0].replace(/\s*=$/, '=')}`, snippet: around(prose, tag.index) };
  const names = [...toolNames].map(escape).join('|');
  if (names === '') return undefined;
  const named = new RegExp(`<\\/?(${names})(?=[\\s>/])`).exec(prose);
  if (named) return { kind: `an XML tag named after the tool ${named[1]}`, snippet: around(prose, named.index) };
  const recipient = new RegExp(`\\bfunctions\\.(${names})\\b`).exec(prose);
  if (recipient) return { kind: `a call addressed to functions.${recipient[1]}`, snippet: around(prose, recipient.index) };
  const json = new RegExp(`["'](?:name|tool|tool_name|function|recipient_name)["']\\s*:\\s*["'](?:functions\\.)?(${names})["']`).exec(prose);
  if (json) return { kind: `a JSON object naming the tool ${json[1]}`, snippet: around(prose, Math.max(0, prose.lastIndexOf('{', json.index))) };
  return undefined;
}

/**
 * The correction for unknown markup: what was seen, why nothing ran, and how to call instead. The
 * loop does not know the tool protocol, so it names both ways; the model knows which it was given.
 */
export function unknownMarkupNote(found: UnknownMarkup): string {
  return (
    `Your answer contains ${found.kind} (in \`${found.snippet}\`), which is not a tool call Stepwise can read, so nothing was run and it was not taken as your final answer. ` +
    'Call tools through the tool-calling interface (a tool name and JSON arguments), or, when the system prompt describes ```tool blocks, ' +
    'with one such block: ```tool\n{"name": "tool_name", "arguments": {...}}\n``` . When the task is done, call finish (or answer in plain text without call markup).'
  );
}

function around(text: string, index: number): string {
  return shorten(text.slice(index, index + 160));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
