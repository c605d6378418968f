import assert from 'node:assert/strict';
import { applyEdits, type SearchReplace } from '../../../src/agent/tools/edit/applyEdits';
import { gutterLine, hasCopiedGutter, numberLines, stripCopiedGutter } from '../../../src/agent/tools/edit/lineGutter';
import { MemoryWorkspace } from '../../support/memoryWorkspace';
import { ToolHarness } from './toolHarness';

describe('the line-number gutter', () => {
  describe('rendering', () => {
    const cases: Array<[string, number, string, boolean, string]> = [
      ['a window\'s first line is numbered', 1, 'a', true, '1\ta'],
      ['a line between multiples of five has an empty column', 2, 'a', false, '\ta'],
      ['a multiple of five is numbered', 5, 'a', false, '5\ta'],
      ['tabs inside the line stay as they are', 10, '\tif (a)\t{', false, '10\t\tif (a)\t{'],
      ['tabs at the start of an unnumbered line follow the column\'s tab', 7, '\tif (a)', false, '\t\tif (a)'],
      ['an empty line keeps its tab', 3, '', false, '\t'],
      ['an empty numbered line keeps its number and tab', 15, '', false, '15\t'],
      ['a line that is itself number-and-tab data', 4, '7\tapple', false, '\t7\tapple'],
      ['a line that looks like the old gutter', 20, '  9| x', false, '20\t  9| x'],
      ['six digits, not padded', 123455, 'x', false, '123455\tx'],
      ['seven digits on a window\'s first line', 1234567, 'y', true, '1234567\ty'],
    ];
    for (const [name, n, text, first, shown] of cases) {
      it(name, () => assert.equal(gutterLine(n, text, first), shown));
    }

    it('numbers a block on its first line and each fifth line, across a digit boundary, without padding', () => {
      assert.equal(numberLines(['a', '', '\tc', 'd', 'e', 'f', 'g'], 99_998), '99998\ta\n\t\n100000\t\tc\n\td\n\te\n\tf\n\tg');
      assert.equal(numberLines(['x', 'y'], 5), '5\tx\n\ty');
    });
  });

  describe('stripping a gutter a model copied', () => {
    const stripped: Array<[string, string, string]> = [
      ['the tab gutter', '12\tconst a = 1;\n13\tconst b = 2;', 'const a = 1;\nconst b = 2;'],
      ['the old padded gutter', '  9| a\n 10| b', 'a\nb'],
      ['the old gutter keeps the line\'s indentation', '12|     x\n13|   y', '    x\n  y'],
      ['tabs inside lines after the tab gutter', '5\t\tif (x)\t{\n6\t\t\tgo();', '\tif (x)\t{\n\t\tgo();'],
      ['CRLF terminators kept', '7\ta\r\n8\tb\r\n', 'a\r\nb\r\n'],
      ['an empty line with its tab', '3\tx\n4\t\n5\ty', 'x\n\ny'],
      ['an empty line whose tab was trimmed', '3\tx\n4\n5\ty', 'x\n\ny'],
      ['an empty line of the old gutter, trimmed', '3| x\n4|\n5| y', 'x\n\ny'],
      ['a blank line without its number', '3\tx\n\n5\ty', 'x\n\ny'],
      ['six and seven digits', '999999\ta\n1000000\tb', 'a\nb'],
      ['numbers that skip lines still rise', '3\ta\n9\tb', 'a\nb'],
      ['number-and-tab data under the gutter', '2\t2\tpear', '2\tpear'],
      ['a final newline kept', '1\ta\n', 'a\n'],
      ['empty columns between numbers', '4\ta\n5\tb\n\tc\n\t\td', 'a\nb\nc\n\td'],
      ['empty columns above the first number', '\ta\n\tb\n10\tc', 'a\nb\nc'],
      ['an empty line whose column tab was trimmed', '5\tx\n\n\ty', 'x\n\ny'],
      ['a Go block: tabs of indentation kept after the column', '9\tfunc f() {\n10\t\treturn\n\t}', 'func f() {\n\treturn\n}'],
    ];
    for (const [name, block, text] of stripped) {
      it(`strips ${name}`, () => assert.equal(stripCopiedGutter(block)?.text, text));
    }

    const kept: Array<[string, string]> = [
      ['text without numbers', 'const a = 1;'],
      ['a line without a number among numbered ones', '12\ta\nb'],
      ['falling numbers', '13\ta\n12\tb'],
      ['a repeated number', '12\ta\n12\tb'],
      ['numbers alone (content, not gutters)', '1\n2\n3'],
      ['an empty block', ''],
      ["a gutter we never showed ('12: ')", '12: a\n13: b'],
      ['a number later in the line', 'x: 12| y'],
      ['tab-indented lines with no number at all', '\ta\n\tb'],
      ['an unindented line among empty columns', '5\ta\nb\n\tc'],
      ['empty columns above a first number below 1', '\ta\n\tb\n1\tc'],
    ];
    for (const [name, block] of kept) {
      it(`leaves ${name}`, () => assert.equal(stripCopiedGutter(block), undefined));
    }

    it('tells where the copied numbering starts', () => assert.equal(stripCopiedGutter('\n41\ta\n42\tb')?.first, 41));
    it('counts empty columns above the first number as its predecessors', () => assert.equal(stripCopiedGutter('\ta\n\tb\n10\tc')?.first, 8));

    const marked: Array<[string, boolean]> = [
      ['1\ta', true],
      ['x\n 12| y', true],
      ['12', false],
      ['  1,', false],
      ['plain text', false],
    ];
    for (const [block, expected] of marked) {
      it(`sees ${expected ? 'a' : 'no'} copied gutter in ${JSON.stringify(block)}`, () => assert.equal(hasCopiedGutter(block), expected));
    }
  });
});

describe('applyEdits with line numbers copied from read output', () => {
  const table: Array<{ name: string; file: string; edits: SearchReplace[]; result: string; numbersRemoved?: boolean }> = [
    { name: 'tab-numbered search, plain replace', file: 'a\nb\nc\n', edits: [{ search: '2\tb', replace: 'B' }], result: 'a\nB\nc\n', numbersRemoved: true },
    { name: 'old-gutter search', file: 'a\nb\nc\n', edits: [{ search: '  2| b\n  3| c\n', replace: 'x\n' }], result: 'a\nx\n', numbersRemoved: true },
    { name: 'search and replace both numbered from the same line', file: 'a\nb\nc\n', edits: [{ search: '2\tb\n3\tc', replace: '2\tB\n3\tC' }], result: 'a\nB\nC\n', numbersRemoved: true },
    { name: 'a CRLF file', file: 'a\r\nb\r\nc\r\n', edits: [{ search: '2\tb\r\n3\tc', replace: '2\tB\r\n3\tC' }], result: 'a\r\nB\r\nC\r\n', numbersRemoved: true },
    {
      name: 'tabs inside the lines',
      file: 'x\n\tif (a)\t{\n\t\tgo();\n\t}\n',
      edits: [{ search: '2\t\tif (a)\t{\n3\t\t\tgo();', replace: '2\t\tif (b)\t{\n3\t\t\tgo();' }],
      result: 'x\n\tif (b)\t{\n\t\tgo();\n\t}\n',
      numbersRemoved: true,
    },
    { name: 'an empty line numbered', file: 'a\n\nb\nc\n', edits: [{ search: '1\ta\n2\t\n3\tb', replace: 'x' }], result: 'x\nc\n', numbersRemoved: true },
    { name: 'an empty line whose tab was trimmed', file: 'a\n\nb\nc\n', edits: [{ search: '1\ta\n2\n3\tb', replace: 'x' }], result: 'x\nc\n', numbersRemoved: true },
    { name: 'six-digit numbers', file: 'foo\nbar\nbaz\n', edits: [{ search: '123456\tfoo\n123457\tbar', replace: 'qux' }], result: 'qux\nbaz\n', numbersRemoved: true },
    { name: 'whitespace drift after the numbers are out', file: 'def f():\n    return 1\n', edits: [{ search: '2\t  return 1', replace: '2\t  return 2' }], result: 'def f():\n    return 2\n', numbersRemoved: true },
    { name: 'number-and-tab data found as written (no stripping)', file: '1\tapple\n2\tpear\n', edits: [{ search: '2\tpear', replace: '2\tplum' }], result: '1\tapple\n2\tplum\n' },
    { name: 'number-and-tab data under a copied gutter', file: '1\tapple\n2\tpear\n', edits: [{ search: '2\t2\tpear', replace: '2\t2\tplum' }], result: '1\tapple\n2\tplum\n', numbersRemoved: true },
    { name: 'a file that holds gutter-like lines matches them verbatim', file: '12\tx\n13\ty\n', edits: [{ search: '12\tx', replace: '12\tz' }], result: '12\tz\n13\ty\n' },
  ];
  for (const { name, file, edits, result, numbersRemoved } of table) {
    it(name, () => {
      const out = applyEdits(file, edits);
      if (!out.ok) assert.fail(out.message);
      assert.equal(out.text, result);
      assert.equal(out.applied[0]!.numbersRemoved, numbersRemoved);
    });
  }

  const refusals: Array<{ name: string; file: string; edits: SearchReplace[]; message: RegExp }> = [
    { name: 'a replace numbered from another line', file: 'a\nb\nc\n', edits: [{ search: '2\tb', replace: '7\tB' }], message: /taken out of `search`, and then `replace` still starts some lines with line numbers/ },
    { name: 'a replace numbered on some lines only', file: 'a\nb\nc\n', edits: [{ search: '2\tb\n3\tc', replace: '2\tB\nnew\n3\tC' }], message: /`replace` still starts some lines with line numbers/ },
    { name: 'numbers taken out and still not found', file: 'a\nb\nc\n', edits: [{ search: '2\tzzz\n3\tqqq', replace: 'x' }], message: /taken out of `search`, and then the search text was not found/ },
    { name: 'numbers taken out leave search and replace the same', file: 'a\nb\n', edits: [{ search: '2\tb', replace: '2| b' }], message: /taken out of `search`, and then `search` and `replace` are identical/ },
  ];
  for (const { name, file, edits, message } of refusals) {
    it(`refuses ${name}`, () => {
      const out = applyEdits(file, edits);
      assert.equal(out.ok, false);
      if (!out.ok) assert.match(out.message, message);
    });
  }
});

describe('read_file, then edit_file with lines copied from what it showed', () => {
  /** The lines read_file showed for [from, to], exactly as shown (gutter included). */
  async function copied(h: ToolHarness, path: string, from: number, to: number): Promise<string> {
    const read = await h.call('read_file', { path, start_line: from, end_line: to });
    assert.equal(read.isError, undefined, read.content);
    return read.content.split('\n').filter((line) => /^\d*\t/.test(line)).join('\n');
  }

  const files: Array<[string, string, number]> = [
    ['an LF file with tabs and an empty line', ['function f() {', '\tconst a = 1;\t// one', '', '\treturn a;', '}', ''].join('\n'), 2],
    ['a CRLF file', ['one', 'two', '', 'three', 'four', ''].join('\r\n'), 2],
    ['a window across a fifth line, its middle lines unnumbered', ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', ''].join('\n'), 3],
  ];
  for (const [name, text, from] of files) {
    it(`${name}: the copied window is found and only its text changes`, async () => {
      const workspace = new MemoryWorkspace({ 'f.txt': text });
      const h = new ToolHarness({ workspace });
      const search = await copied(h, 'f.txt', from, from + 2);
      assert.match(search, new RegExp(`^${from}\\t`));
      const replace = search.replace(/^(\d+\t)(.*)$/m, '$1$2 // changed');
      const result = await h.call('edit_file', { path: 'f.txt', edits: [{ search, replace }] });
      assert.equal(result.isError, undefined, result.content);
      assert.match(result.content, /read_file line numbers taken out of the text/);
      const eol = text.includes('\r\n') ? '\r\n' : '\n';
      const lines = text.split(eol);
      lines[from - 1] += ' // changed';
      assert.equal(workspace.text('f.txt'), lines.join(eol));
    });
  }

  it('a file of over 100,000 lines: six-digit numbers copied from a late window', async () => {
    const lines = Array.from({ length: 100_010 }, (_, i) => `row ${i + 1}`);
    const workspace = new MemoryWorkspace({ 'big.txt': lines.join('\n') + '\n' });
    const h = new ToolHarness({ workspace });
    const search = await copied(h, 'big.txt', 100_001, 100_002);
    assert.equal(search, '100001\trow 100001\n\trow 100002');
    const result = await h.call('edit_file', { path: 'big.txt', edits: [{ search, replace: 'gone' }] });
    assert.equal(result.isError, undefined, result.content);
    assert.deepEqual(workspace.text('big.txt')!.split('\n').slice(99_999, 100_002), ['row 100000', 'gone', 'row 100003']);
  });
});
