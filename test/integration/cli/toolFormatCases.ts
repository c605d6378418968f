/**
 * Real-shaped tool calls that local models write as text in their own native formats (shapes from
 * vLLM's and llama.cpp's tool-parser tests, Ollama's templates and the model cards), each with the
 * calls it must turn into. Used by the CLI tests in both tool protocols.
 */

/** A call the example must produce, in order. */
export interface ExpectedCall {
  name: string;
  args: Record<string, unknown>;
}

/** One format: at least three examples (several calls, unicode), one malformed answer, and a `finish` in the format. */
export interface FormatCase {
  format: string;
  examples: Array<{ text: string; calls: ExpectedCall[] }>;
  /** Looks like a call in this format but cannot be read. */
  malformed: string;
  /** Calls `finish` with the summary `done`. */
  finish: string;
}

const write = (path: string, content: string): ExpectedCall => ({ name: 'write_file', args: { path, content } });
const read = (path: string): ExpectedCall => ({ name: 'read_file', args: { path } });
const list = (args: Record<string, unknown>): ExpectedCall => ({ name: 'list_files', args });
/** A nested-JSON call: `edit_file` with a list of objects, whose replacement is itself JSON text. */
const edit = (path: string, search: string, replace: string): ExpectedCall => ({ name: 'edit_file', args: { path, edits: [{ search, replace }] } });

const DS = {
  begin: '<｜tool▁calls▁begin｜>',
  end: '<｜tool▁calls▁end｜>',
  callBegin: '<｜tool▁call▁begin｜>',
  callEnd: '<｜tool▁call▁end｜>',
  sep: '<｜tool▁sep｜>',
};

export const FORMAT_CASES: FormatCase[] = [
  {
    format: 'Hermes / Qwen <tool_call>',
    examples: [
      {
        text: 'I will create the file.\n<tool_call>\n{"name": "write_file", "arguments": {"path": "out/h1.txt", "content": "héllo wörld\\n"}}\n</tool_call>',
        calls: [write('out/h1.txt', 'héllo wörld\n')],
      },
      {
        text: '<tool_call>\n{"name": "write_file", "arguments": {"path": "out/h2.txt", "content": "日本語のテキスト"}}\n</tool_call>\n<tool_call>\n{"name": "read_file", "arguments": {"path": "out/h1.txt"}}\n</tool_call>',
        calls: [write('out/h2.txt', '日本語のテキスト'), read('out/h1.txt')],
      },
      { text: 'Checking. <tool_call>{"name": "list_files", "arguments": {"path": "out"}}</tool_call>', calls: [list({ path: 'out' })] },
    ],
    malformed: '<tool_call>\n{"name": "write_file", "arguments": {"path": \n</tool_call>',
    finish: '<tool_call>\n{"name": "finish", "arguments": {"summary": "done"}}\n</tool_call>',
  },
  {
    format: 'Qwen3-Coder XML',
    examples: [
      {
        text: '<tool_call>\n<function=write_file>\n<parameter=path>\nout/q1.txt\n</parameter>\n<parameter=content>\nça va? ✓\n</parameter>\n</function>\n</tool_call>',
        calls: [write('out/q1.txt', 'ça va? ✓')],
      },
      {
        text:
          'Two steps.\n<tool_call>\n<function=write_file>\n<parameter=path>\nout/q2.txt\n</parameter>\n<parameter=content>\nline 1\nстрока 2\n</parameter>\n</function>\n</tool_call>\n' +
          '<tool_call>\n<function=read_file>\n<parameter=path>\nout/q1.txt\n</parameter>\n</function>\n</tool_call>',
        calls: [write('out/q2.txt', 'line 1\nстрока 2'), read('out/q1.txt')],
      },
      {
        text: '<tool_call>\n<function=list_files>\n<parameter=path>\nout\n</parameter>\n<parameter=recursive>\ntrue\n</parameter>\n</function>\n</tool_call>',
        calls: [list({ path: 'out', recursive: true })],
      },
    ],
    malformed: '<tool_call>\n<function=write_file>\nout/x.txt with some content\n</function>\n</tool_call>',
    finish: '<tool_call>\n<function=finish>\n<parameter=summary>\ndone\n</parameter>\n</function>\n</tool_call>',
  },
  {
    format: 'Mistral [TOOL_CALLS]',
    examples: [
      {
        text: '[TOOL_CALLS][{"name": "write_file", "arguments": {"path": "out/m1.txt", "content": "Grüße aus Köln"}, "id": "a1b2c3d4e"}]',
        calls: [write('out/m1.txt', 'Grüße aus Köln')],
      },
      {
        text: '[TOOL_CALLS]write_file[ARGS]{"path": "out/m2.txt", "content": "Ωμέγα"}[TOOL_CALLS]read_file[ARGS]{"path": "out/m1.txt"}',
        calls: [write('out/m2.txt', 'Ωμέγα'), read('out/m1.txt')],
      },
      { text: 'Listing.[TOOL_CALLS]list_files{"path": "out"}', calls: [list({ path: 'out' })] },
    ],
    malformed: '[TOOL_CALLS]write_file[ARGS]path=out/x.txt',
    finish: '[TOOL_CALLS][{"name": "finish", "arguments": {"summary": "done"}}]',
  },
  {
    format: 'Llama 3 JSON',
    examples: [
      {
        text: '<|python_tag|>{"name": "write_file", "parameters": {"path": "out/l1.txt", "content": "naïve café"}}<|eom_id|>',
        calls: [write('out/l1.txt', 'naïve café')],
      },
      {
        text: '<|python_tag|>{"name": "write_file", "parameters": {"path": "out/l2.txt", "content": "😀 emoji"}}; {"name": "read_file", "parameters": {"path": "out/l1.txt"}}',
        calls: [write('out/l2.txt', '😀 emoji'), read('out/l1.txt')],
      },
      { text: 'Let me look.\n{"type": "function", "name": "list_files", "parameters": {"path": "out"}}', calls: [list({ path: 'out' })] },
    ],
    malformed: '<|python_tag|>{"function": 12, "parameters": {"path": "out/x.txt"}}',
    finish: '{"name": "finish", "parameters": {"summary": "done"}}',
  },
  {
    format: 'pythonic',
    examples: [
      { text: '[write_file(path="out/p1.txt", content="Ünïcödé\\nline 2")]', calls: [write('out/p1.txt', 'Ünïcödé\nline 2')] },
      {
        text: "I'll do both.\n[write_file(path='out/p2.txt', content='中文内容'), read_file(path=\"out/p1.txt\")]",
        calls: [write('out/p2.txt', '中文内容'), read('out/p1.txt')],
      },
      { text: '<|python_start|>[list_files(path="out", recursive=True)]<|python_end|>', calls: [list({ path: 'out', recursive: true })] },
    ],
    malformed: '[write_file(path="out/x.txt", content=)]',
    finish: '[finish(summary="done")]',
  },
  {
    format: 'DeepSeek',
    examples: [
      {
        text: `${DS.begin}${DS.callBegin}function${DS.sep}write_file\n\`\`\`json\n{"path": "out/d1.txt", "content": "Добрый день"}\n\`\`\`${DS.callEnd}${DS.end}`,
        calls: [write('out/d1.txt', 'Добрый день')],
      },
      {
        text: `${DS.begin}${DS.callBegin}write_file${DS.sep}{"path": "out/d2.txt", "content": "한국어"}${DS.callEnd}${DS.callBegin}read_file${DS.sep}{"path": "out/d1.txt"}${DS.callEnd}${DS.end}`,
        calls: [write('out/d2.txt', '한국어'), read('out/d1.txt')],
      },
      { text: `Let me list them.\n\n${DS.begin}${DS.callBegin}list_files${DS.sep}{"path": "out"}${DS.callEnd}${DS.end}`, calls: [list({ path: 'out' })] },
    ],
    malformed: `${DS.begin}${DS.callBegin}write_file${DS.sep}{"path": ${DS.callEnd}${DS.end}`,
    finish: `${DS.begin}${DS.callBegin}finish${DS.sep}{"summary": "done"}${DS.callEnd}${DS.end}`,
  },
  {
    format: 'GPT-OSS harmony',
    examples: [
      {
        text: '<|channel|>analysis<|message|>The user wants a file.<|end|><|start|>assistant<|channel|>commentary to=functions.write_file <|constrain|>json<|message|>{"path":"out/g1.txt","content":"¡Hola, señor!"}<|call|>',
        calls: [write('out/g1.txt', '¡Hola, señor!')],
      },
      {
        text:
          '<|channel|>commentary to=functions.write_file <|constrain|>json<|message|>{"path":"out/g2.txt","content":"עברית"}<|call|>' +
          '<|start|>assistant<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path":"out/g1.txt"}<|call|>',
        calls: [write('out/g2.txt', 'עברית'), read('out/g1.txt')],
      },
      { text: '<|start|>assistant to=functions.list_files<|channel|>commentary json<|message|>{"path":"out"}<|call|>', calls: [list({ path: 'out' })] },
    ],
    malformed: '<|channel|>commentary to=functions.write_file <|constrain|>json<|message|>{"path": "out/x.txt", <|call|>',
    finish: '<|channel|>commentary to=functions.finish <|constrain|>json<|message|>{"summary":"done"}<|call|>',
  },
  {
    format: 'Cline / Roo XML',
    examples: [
      { text: '<write_file>\n<path>out/c1.txt</path>\n<content>\nbonjour à tous\n</content>\n</write_file>', calls: [write('out/c1.txt', 'bonjour à tous')] },
      {
        text: 'First write, then read.\n\n<write_file>\n<path>out/c2.txt</path>\n<content>Ελληνικά</content>\n</write_file>\n\n<read_file>\n<path>out/c1.txt</path>\n</read_file>',
        calls: [write('out/c2.txt', 'Ελληνικά'), read('out/c1.txt')],
      },
      { text: "I'll list the directory.\n\n<list_files>\n<path>out</path>\n<recursive>true</recursive>\n</list_files>", calls: [list({ path: 'out', recursive: true })] },
    ],
    malformed: '<write_file>\n<path>out/x.txt</path>\n<content>never closed',
    finish: '<finish>\n<summary>done</summary>\n</finish>',
  },
];

/** Kimi K2's call: `functions.<name>:<index>` then the JSON arguments. */
const kimi = (name: string, index: number, args: string) => `<|tool_call_begin|>functions.${name}:${index}<|tool_call_argument_begin|>${args}<|tool_call_end|>`;
const kimiSection = (...calls: string[]) => `<|tool_calls_section_begin|>\n${calls.join('\n')}\n<|tool_calls_section_end|>`;
/** GLM-4.5's call: the name, then key/value element pairs. */
const glm = (name: string, pairs: Array<[string, string]>) =>
  `<tool_call>${name}\n${pairs.map(([k, v]) => `<arg_key>${k}</arg_key>\n<arg_value>${v}</arg_value>\n`).join('')}</tool_call>`;
/** MiniMax M2's calls: invokes with named parameters inside one block. */
const minimax = (...invokes: string[]) => `<minimax:tool_call>\n${invokes.join('')}</minimax:tool_call>`;
const invoke = (name: string, params: Array<[string, string]>) =>
  `<invoke name="${name}">\n${params.map(([k, v]) => `<parameter name="${k}">${v}</parameter>\n`).join('')}</invoke>\n`;
const fn31 = (name: string, args: string) => `<function=${name}>${args}</function>`;
const action = (json: string) => `<|START_ACTION|>${json}<|END_ACTION|>`;
const nemo = (json: string) => `<TOOLCALL>${json}</TOOLCALL>`;
const apriel = (json: string) => `<tool_calls>${json}</tool_calls>`;
/** A JSON string holding nested JSON: `{"<a>": {"<b>": [<c>]}}`, escaped for a JSON string literal. */
const nested = (a: string, b: string, c: string) => `{\\"${a}\\": {\\"${b}\\": [${c}]}}`;
const unnested = (a: string, b: string, c: string) => `{"${a}": {"${b}": [${c.replace(/\\"/g, '"')}]}}`;
const listJson = (calls: string[]) => `[${calls.join(', ')}]`;
const call = (name: string, args: string) => `{"name": "${name}", "arguments": ${args}}`;
const unclosed = '{"path": "out/x.txt", "content": "never closed}]';

/** The formats of issue 23 (Kimi K2, GLM-4.5, MiniMax M2, Functionary, FireFunction, Command, Nemotron, Apriel, xLAM). */
function NEW_FORMAT_CASES(): FormatCase[] {
  return [
    {
      format: 'Kimi K2',
      examples: [
        { text: `I will write it.\n${kimiSection(kimi('write_file', 0, '{"path": "out/k1.txt", "content": "月之暗面 ✓"}'))}`, calls: [write('out/k1.txt', '月之暗面 ✓')] },
        {
          text: kimiSection(kimi('write_file', 0, '{"path": "out/k2.txt", "content": "Ünïcode\\nzweite Zeile"}'), kimi('read_file', 1, '{"path": "out/k1.txt"}')),
          calls: [write('out/k2.txt', 'Ünïcode\nzweite Zeile'), read('out/k1.txt')],
        },
        {
          text: kimiSection(
            kimi('edit_file', 2, `{"path": "out/k1.txt", "edits": [{"search": "月之暗面", "replace": "${nested('k', 'i', '1, 2')}"}]}`),
            kimi('list_files', 3, '{"path": "out"}'),
          ),
          calls: [edit('out/k1.txt', '月之暗面', unnested('k', 'i', '1, 2')), list({ path: 'out' })],
        },
      ],
      malformed: kimiSection(kimi('write_file', 0, '{"path": "out/x.txt", ')),
      finish: kimiSection(kimi('finish', 0, '{"summary": "done"}')),
    },
    {
      format: 'GLM-4.5 / 4.6',
      examples: [
        { text: glm('write_file', [['path', 'out/z1.txt'], ['content', '智谱清言，你好']]), calls: [write('out/z1.txt', '智谱清言，你好')] },
        {
          text: `Two calls.\n${glm('write_file', [['path', 'out/z2.txt'], ['content', 'Ελληνικά\nline 2']])}\n${glm('read_file', [['path', 'out/z1.txt']])}`,
          calls: [write('out/z2.txt', 'Ελληνικά\nline 2'), read('out/z1.txt')],
        },
        {
          text:
            glm('edit_file', [['path', 'out/z1.txt'], ['edits', `[{"search": "你好", "replace": "${nested('g', 'l', '\\"m\\"')}"}]`]]) +
            glm('list_files', [['path', 'out'], ['recursive', 'true']]),
          calls: [edit('out/z1.txt', '你好', unnested('g', 'l', '\\"m\\"')), list({ path: 'out', recursive: true })],
        },
      ],
      malformed: '<tool_call>write_file\n<arg_key>path</arg_key>out/x.txt\n</tool_call>',
      finish: glm('finish', [['summary', 'done']]),
    },
    {
      format: 'MiniMax M2',
      examples: [
        {
          text: `Writing the file now.\n${minimax(invoke('write_file', [['path', 'out/n1.txt'], ['content', 'MiniMax：你好，世界 🌏']]))}`,
          calls: [write('out/n1.txt', 'MiniMax：你好，世界 🌏')],
        },
        {
          text: minimax(invoke('write_file', [['path', 'out/n2.txt'], ['content', 'Türkçe: ğüşöç']]), invoke('read_file', [['path', 'out/n1.txt']])),
          calls: [write('out/n2.txt', 'Türkçe: ğüşöç'), read('out/n1.txt')],
        },
        {
          text: minimax(
            invoke('edit_file', [['path', 'out/n1.txt'], ['edits', `[{"search": "🌏", "replace": "${nested('a', 'b', 'true, null')}"}]`]]),
            invoke('list_files', [['path', 'out']]),
          ),
          calls: [edit('out/n1.txt', '🌏', unnested('a', 'b', 'true, null')), list({ path: 'out' })],
        },
      ],
      malformed: minimax('<invoke name="write_file">\npath=out/x.txt\n</invoke>\n'),
      finish: minimax(invoke('finish', [['summary', 'done']])),
    },
    {
      format: 'Functionary v3.1',
      examples: [
        { text: fn31('write_file', '{"path": "out/f1.txt", "content": "Función ñandú"}'), calls: [write('out/f1.txt', 'Función ñandú')] },
        {
          text: `Writing, then reading.\n${fn31('write_file', '{"path": "out/f2.txt", "content": "日本語\\n二行目"}')}${fn31('read_file', '{"path": "out/f1.txt"}')}`,
          calls: [write('out/f2.txt', '日本語\n二行目'), read('out/f1.txt')],
        },
        {
          text: `${fn31('edit_file', `{"path": "out/f1.txt", "edits": [{"search": "ñandú", "replace": "${nested('x', 'y', '1')}"}]}`)}\n${fn31('list_files', '{"path": "out"}')}`,
          calls: [edit('out/f1.txt', 'ñandú', unnested('x', 'y', '1')), list({ path: 'out' })],
        },
      ],
      malformed: '<function=write_file>{"path": "out/x.txt", "content": "never closed</function>',
      finish: fn31('finish', '{"summary": "done"}'),
    },
    {
      format: 'Functionary v3.2',
      examples: [
        {
          text: 'all\nI will write the file.>>>write_file\n{"path": "out/v1.txt", "content": "Ça marche — très bien"}',
          calls: [write('out/v1.txt', 'Ça marche — très bien')],
        },
        {
          text: '>>>write_file\n{"path": "out/v2.txt", "content": "Русский текст"}>>>read_file\n{"path": "out/v1.txt"}',
          calls: [write('out/v2.txt', 'Русский текст'), read('out/v1.txt')],
        },
        {
          text: `edit_file\n{"path": "out/v1.txt", "edits": [{"search": "très bien", "replace": "${nested('deep', 'er', 'false')}"}]}>>>list_files\n{"path": "out"}`,
          calls: [edit('out/v1.txt', 'très bien', unnested('deep', 'er', 'false')), list({ path: 'out' })],
        },
      ],
      malformed: '>>>write_file\npath=out/x.txt',
      finish: '>>>finish\n{"summary": "done"}',
    },
    {
      format: 'FireFunction v2',
      examples: [
        {
          text: ` functools${listJson([call('write_file', '{"path": "out/w1.txt", "content": "Fireworks 🎆 ünïcode"}')])}`,
          calls: [write('out/w1.txt', 'Fireworks 🎆 ünïcode')],
        },
        {
          text: `functools${listJson([call('write_file', '{"path": "out/w2.txt", "content": "हिन्दी पाठ"}'), call('read_file', '{"path": "out/w1.txt"}')])}`,
          calls: [write('out/w2.txt', 'हिन्दी पाठ'), read('out/w1.txt')],
        },
        {
          text: `Editing.\nfunctools${listJson([
            call('edit_file', `{"path": "out/w1.txt", "edits": [{"search": "🎆", "replace": "${nested('fire', 'works', '1, 2')}"}]}`),
            call('list_files', '{"path": "out"}'),
          ])}`,
          calls: [edit('out/w1.txt', '🎆', unnested('fire', 'works', '1, 2')), list({ path: 'out' })],
        },
      ],
      malformed: `functools[{"name": "write_file", "arguments": ${unclosed}`,
      finish: `functools${listJson([call('finish', '{"summary": "done"}')])}`,
    },
    {
      format: 'Command R7B / A',
      examples: [
        {
          text: `<|START_THINKING|>I will write the file.<|END_THINKING|>${action(
            '[\n    {"tool_call_id": "0", "tool_name": "write_file", "parameters": {"path": "out/r1.txt", "content": "Cohere: façade, naïve"}}\n]',
          )}`,
          calls: [write('out/r1.txt', 'Cohere: façade, naïve')],
        },
        {
          text: action(
            '[{"tool_call_id": "0", "tool_name": "write_file", "parameters": {"path": "out/r2.txt", "content": "Tiếng Việt"}}, {"tool_call_id": "1", "tool_name": "read_file", "parameters": {"path": "out/r1.txt"}}]',
          ),
          calls: [write('out/r2.txt', 'Tiếng Việt'), read('out/r1.txt')],
        },
        {
          text: action(
            `[{"tool_call_id": "0", "tool_name": "edit_file", "parameters": {"path": "out/r1.txt", "edits": [{"search": "naïve", "replace": "${nested('cmd', 'a', 'null')}"}]}}, ` +
              '{"tool_call_id": "1", "tool_name": "list_files", "parameters": {"path": "out"}}]',
          ),
          calls: [edit('out/r1.txt', 'naïve', unnested('cmd', 'a', 'null')), list({ path: 'out' })],
        },
      ],
      malformed: action('[{"tool_call_id": "0", "tool_name": "write_file", "parameters": '),
      finish: action('[{"tool_call_id": "0", "tool_name": "finish", "parameters": {"summary": "done"}}]'),
    },
    {
      format: 'Nemotron <TOOLCALL>',
      examples: [
        { text: nemo(listJson([call('write_file', '{"path": "out/t1.txt", "content": "Nemotron — Ωμέγα"}')])), calls: [write('out/t1.txt', 'Nemotron — Ωμέγα')] },
        {
          text: `Doing both.\n${nemo(listJson([call('write_file', '{"path": "out/t2.txt", "content": "Svenska: åäö"}'), call('read_file', '{"path": "out/t1.txt"}')]))}`,
          calls: [write('out/t2.txt', 'Svenska: åäö'), read('out/t1.txt')],
        },
        {
          text: nemo(
            listJson([
              call('edit_file', `{"path": "out/t1.txt", "edits": [{"search": "Ωμέγα", "replace": "${nested('n', 'e', '\\"m\\"')}"}]}`),
              call('list_files', '{"path": "out", "recursive": true}'),
            ]),
          ),
          calls: [edit('out/t1.txt', 'Ωμέγα', unnested('n', 'e', '\\"m\\"')), list({ path: 'out', recursive: true })],
        },
      ],
      malformed: nemo(`[{"name": "write_file", "arguments": ${unclosed}`),
      finish: nemo(listJson([call('finish', '{"summary": "done"}')])),
    },
    {
      format: 'Apriel <tool_calls>',
      examples: [
        { text: `Here is the plan.\n${apriel(listJson([call('write_file', '{"path": "out/a1.txt", "content": "Apriel «guillemets»"}')]))}`, calls: [write('out/a1.txt', 'Apriel «guillemets»')] },
        {
          text: apriel(listJson([call('write_file', '{"path": "out/a2.txt", "content": "Português: ação"}'), call('read_file', '{"path": "out/a1.txt"}')])),
          calls: [write('out/a2.txt', 'Português: ação'), read('out/a1.txt')],
        },
        {
          text: apriel(
            listJson([call('edit_file', `{"path": "out/a1.txt", "edits": [{"search": "«guillemets»", "replace": "${nested('ap', 'ri', '\\"el\\"')}"}]}`), call('list_files', '{"path": "out"}')]),
          ),
          calls: [edit('out/a1.txt', '«guillemets»', unnested('ap', 'ri', '\\"el\\"')), list({ path: 'out' })],
        },
      ],
      malformed: apriel(`[{"name": "write_file", "arguments": ${unclosed}`),
      finish: apriel(listJson([call('finish', '{"summary": "done"}')])),
    },
    {
      format: 'Granite 3 <|tool_call|>',
      examples: [
        { text: `<|tool_call|>${listJson([call('write_file', '{"path": "out/i1.txt", "content": "Granite: ½ ¾ ∑"}')])}`, calls: [write('out/i1.txt', 'Granite: ½ ¾ ∑')] },
        {
          text: `Both.<|tool_call|>${listJson([call('write_file', '{"path": "out/i2.txt", "content": "Suomi: äö"}'), call('read_file', '{"path": "out/i1.txt"}')])}`,
          calls: [write('out/i2.txt', 'Suomi: äö'), read('out/i1.txt')],
        },
        {
          text: `<|tool_call|>${listJson([call('edit_file', `{"path": "out/i1.txt", "edits": [{"search": "∑", "replace": "${nested('i', 'b', '\\"m\\"')}"}]}`), call('list_files', '{"path": "out"}')])}`,
          calls: [edit('out/i1.txt', '∑', unnested('i', 'b', '\\"m\\"')), list({ path: 'out' })],
        },
      ],
      malformed: `<|tool_call|>[{"name": "write_file", "arguments": ${unclosed}`,
      finish: `<|tool_call|>${listJson([call('finish', '{"summary": "done"}')])}`,
    },
    {
      format: 'xLAM',
      examples: [
        { text: listJson([call('write_file', '{"path": "out/x1.txt", "content": "xLAM: Ünïcödé ✓"}')]), calls: [write('out/x1.txt', 'xLAM: Ünïcödé ✓')] },
        {
          text: `[\n  ${call('write_file', '{"path": "out/x2.txt", "content": "Čeština"}')},\n  ${call('read_file', '{"path": "out/x1.txt"}')}\n]`,
          calls: [write('out/x2.txt', 'Čeština'), read('out/x1.txt')],
        },
        {
          text: `{"tool_calls": ${listJson([call('edit_file', `{"path": "out/x1.txt", "edits": [{"search": "✓", "replace": "${nested('x', 'l', '\\"am\\"')}"}]}`), call('list_files', '{"path": "out"}')])}}`,
          calls: [edit('out/x1.txt', '✓', unnested('x', 'l', '\\"am\\"')), list({ path: 'out' })],
        },
      ],
      malformed: `[{"name": "write_file", "arguments": ${unclosed}`,
      finish: listJson([call('finish', '{"summary": "done"}')]),
    },
  ];
}

// Appended after the helpers above are initialised.
FORMAT_CASES.push(...NEW_FORMAT_CASES());
