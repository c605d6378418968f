import assert from 'node:assert/strict';
import { findUnknownMarkup, unknownMarkupNote } from '../../../src/agent/model/toolCallFormats/unknownMarkup';

// Issue 23: tool-call-like markup that no parser reads is never an answer. The detector must catch
// the markup of formats Stepwise does not parse, and must leave prose, HTML and example code alone
// (a false positive turns a real answer into a correction and, twice more, a failed task).

const TOOLS = new Set(['read_file', 'write_file', 'finish']);

const markup: Array<[string, string, RegExp]> = [
  ['a special token of an unknown family', 'Sure.<|tool_call_start|>read_file {"path": "a"}<|tool_call_stop|>', /special token <\|tool_call_start\|>/],
  ['a full-width special token', 'Let me look. <｜function▁call｜>read_file', /special token <｜function▁call｜>/],
  ['a python tag with code instead of JSON', '<|python_tag|>print(open("a").read())', /special token <\|python_tag\|>/],
  ['a bracket token', '[TOOL_REQUEST]{"name": "x"}[END_TOOL_REQUEST]', /special token \[TOOL_REQUEST\]/],
  ['an Anthropic-style invoke', '<function_calls>\n<invoke name="read_file">\n<parameter name="path">a</parameter>\n</invoke>\n</function_calls>', /tool-call tag <function_calls/],
  ['a tool_use tag', '<tool_use>\n{"tool": "read_file"}\n</tool_use>', /tool-call tag <tool_use/],
  ['a Gemma-style tool_code tag', '<tool_code>\nread_file(path="a")\n</tool_code>', /tool-call tag <tool_code/],
  ['a tag of an offered tool with attributes', 'Reading: <read_file path="src/a.ts" />', /XML tag named after the tool read_file/],
  ['an offered tool as a recipient', 'assistant to=functions.read_file code<|message|>', /special token|functions\.read_file/],
  ['a recipient without special tokens', 'to=functions.write_file json {"path": "a"}', /call addressed to functions\.write_file/],
  ['a JSON object naming an offered tool in prose', 'I will now call {"tool": "read_file", "path": "a"} to see it.', /JSON object naming the tool read_file/],
  ['a JSON object with the name key, single quotes', "Calling {'name': 'write_file', 'args': {'path': 'a'}}", /JSON object naming the tool write_file/],
];

const prose: Array<[string, string]> = [
  ['HTML in prose', 'Wrap it in a <div class="x"> and close the </div>; <p> works too.'],
  ['a JSON example in a code fence', 'The config is:\n```json\n{"name": "read_file", "arguments": {"path": "a"}}\n```\nDone.'],
  ['markup in inline code', 'Hermes models write `<tool_call>` blocks and Kimi writes `<|tool_call_begin|>`.'],
  ['markup in a tilde fence', 'Example:\n~~~\n<read_file><path>a</path></read_file>\n~~~'],
  ['JSON that names no tool', 'The package is {"name": "stepwise", "version": "0.1.0"}.'],
  ['prose naming a tool', 'I used read_file and write_file; the function read_file returns text.'],
  ['end-of-turn tokens that are not about tools', 'All done.<|im_end|>'],
  ['generics and comparisons', 'Use Map<string, number> when a < b and b > c.'],
  ['a markdown link', '[read_file docs](https://example.com/read_file)'],
];

describe('unknown tool-call markup', () => {
  for (const [label, text, kind] of markup) {
    it(`is found: ${label}`, () => {
      const found = findUnknownMarkup(text, TOOLS);
      assert.ok(found, 'found');
      assert.match(found.kind, kind);
      const note = unknownMarkupNote(found);
      assert.match(note, /not a tool call Stepwise can read/);
      assert.match(note, /nothing was run/);
      assert.match(note, /```tool/);
    });
  }

  for (const [label, text] of prose) {
    it(`is not claimed in ${label}`, () => {
      assert.equal(findUnknownMarkup(text, TOOLS), undefined);
    });
  }

  it('a tag of a tool that is not offered is not claimed; the same tag of an offered one is', () => {
    assert.equal(findUnknownMarkup('<delete_all path="/" />', TOOLS), undefined);
    assert.ok(findUnknownMarkup('<delete_all path="/" />', new Set(['delete_all'])));
  });
});
