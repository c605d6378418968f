import assert from 'node:assert/strict';
import { applyEdits, type ApplyEditsResult, type SearchReplace } from '../../../src/agent/tools/edit/applyEdits';

function applied(original: string, edits: SearchReplace[]): string {
  const result = applyEdits(original, edits);
  if (!result.ok) assert.fail(`expected the edits to apply, got: ${result.message}`);
  return result.text;
}

function refused(original: string, edits: SearchReplace[]): Extract<ApplyEditsResult, { ok: false }> {
  const result = applyEdits(original, edits);
  if (result.ok) assert.fail(`expected a refusal, got:\n${result.text}`);
  return result;
}

describe('applyEdits', () => {
  describe('exact matches', () => {
    it('replaces a unique substring and reports where it landed', () => {
      const result = applyEdits('a\nb\nc\n', [{ search: 'b\n', replace: 'B1\nB2\n' }]);
      assert.ok(result.ok);
      assert.equal(result.text, 'a\nB1\nB2\nc\n');
      assert.deepEqual(result.applied, [{ index: 0, kind: 'exact', startLine: 2, endLine: 3 }]);
    });

    it('replaces part of a line', () => {
      assert.equal(applied('const x = 1;\n', [{ search: 'x = 1', replace: 'x = 2' }]), 'const x = 2;\n');
    });

    it('deletes with an empty replacement', () => {
      assert.equal(applied('keep\ndrop\nkeep too\n', [{ search: 'drop\n', replace: '' }]), 'keep\nkeep too\n');
    });

    it('refuses an ambiguous match, naming the count and the lines', () => {
      const file = 'function a() {\n  return 0;\n}\nfunction b() {\n  return 0;\n}\n';
      const { index, message } = refused(file, [{ search: 'return 0;', replace: 'return 1;' }]);
      assert.equal(index, 0);
      assert.match(message, /occurs 2 times/);
      assert.match(message, /lines 2, 5/);
      assert.match(message, /more surrounding lines/);
    });

    it('treats overlapping occurrences as ambiguous', () => {
      assert.match(refused('aaa\n', [{ search: 'aa', replace: 'b' }]).message, /occurs 2 times/);
    });
  });

  describe('line endings', () => {
    it('matches an LF search in a CRLF file and writes CRLF', () => {
      const file = 'one\r\ntwo\r\nthree\r\n';
      assert.equal(applied(file, [{ search: 'one\ntwo\n', replace: 'uno\ndos\nextra\n' }]), 'uno\r\ndos\r\nextra\r\nthree\r\n');
    });

    it('keeps CRLF when the match is whitespace-tolerant', () => {
      const file = 'if (x) {\r\n    call();\r\n}\r\n';
      const out = applied(file, [{ search: 'if (x) {\n  call();\n}', replace: 'if (x) {\n  call();\n  more();\n}' }]);
      assert.equal(out, 'if (x) {\r\n    call();\r\n    more();\r\n}\r\n');
    });

    it('keeps a file without a final newline without one', () => {
      const file = 'first\nlast';
      assert.equal(applied(file, [{ search: 'last\n', replace: 'LAST\n' }]), 'first\nLAST');
      assert.equal(applied(file, [{ search: '  last  ', replace: 'end' }]), 'first\nend');
    });

    it('keeps the final newline of a file that has one', () => {
      assert.equal(applied('a\n  b\n', [{ search: 'b', replace: 'c' }]), 'a\n  c\n');
      assert.equal(applied('a\n  b  \n', [{ search: '  b\n', replace: '  c\n' }]), 'a\n  c\n');
    });

    it('deletes the last lines of a file without a final newline cleanly', () => {
      assert.equal(applied('a\r\nb\r\n  c', [{ search: 'b\nc', replace: '' }]), 'a');
    });
  });

  describe('whitespace-tolerant matches', () => {
    it('matches despite trailing whitespace in the file and keeps untouched lines byte for byte', () => {
      const file = 'start\nfoo();   \nbar();\nend\n';
      const result = applyEdits(file, [{ search: 'foo();\nbar();', replace: 'foo();\nbaz();' }]);
      assert.ok(result.ok);
      assert.equal(result.text, 'start\nfoo();   \nbaz();\nend\n');
      assert.equal(result.applied[0]!.kind, 'tolerant');
    });

    it('matches a search sent without the indentation and re-indents the replacement', () => {
      const file = ['class A {', '    run() {', '        step1();', '        step2();', '    }', '}', ''].join('\n');
      const out = applied(file, [
        { search: 'run() {\n    step1();\n    step2();\n}', replace: 'run() {\n    step1();\n    if (ok) {\n        step2();\n    }\n}' },
      ]);
      assert.equal(
        out,
        ['class A {', '    run() {', '        step1();', '        if (ok) {', '            step2();', '        }', '    }', '}', ''].join('\n'),
      );
    });

    it('writes tabs in a tab-indented file when the search used spaces', () => {
      const file = 'func main() {\n\tif x {\n\t\tprintln(1)\n\t}\n}\n';
      const out = applied(file, [
        { search: '    if x {\n        println(1)\n    }', replace: '    if x {\n        println(1)\n        println(2)\n    }\n    done()' },
      ]);
      assert.equal(out, 'func main() {\n\tif x {\n\t\tprintln(1)\n\t\tprintln(2)\n\t}\n\tdone()\n}\n');
    });

    it('writes spaces in a space-indented file when the search used tabs', () => {
      const file = 'def f():\n    if x:\n        return 1\n';
      const out = applied(file, [{ search: '\tif x:\n\t\treturn 1', replace: '\tif x:\n\t\tlog()\n\t\treturn 1' }]);
      assert.equal(out, 'def f():\n    if x:\n        log()\n        return 1\n');
    });

    it('maps a different indent unit (4 spaces in the search, 2 in the file)', () => {
      const file = 'a:\n  b:\n    c: 1\n';
      const out = applied(file, [{ search: '    b:\n        c: 1', replace: '    b:\n        c: 1\n        d:\n            e: 2' }]);
      assert.equal(out, 'a:\n  b:\n    c: 1\n    d:\n      e: 2\n');
    });

    it('keeps doc-comment alignment when re-indenting', () => {
      const file = 'class A {\n\t/**\n\t * Old.\n\t */\n\tm() {}\n}\n';
      const out = applied(file, [{ search: '/**\n * Old.\n */', replace: '/**\n * New.\n * More.\n */' }]);
      assert.equal(out, 'class A {\n\t/**\n\t * New.\n\t * More.\n\t */\n\tm() {}\n}\n');
    });

    it('deletes whole matched lines with an empty replacement', () => {
      assert.equal(applied('a\n  b  \n  c\nd\n', [{ search: 'b\nc', replace: '' }]), 'a\nd\n');
    });

    it('adds a level of tabs when the search dropped the base indentation', () => {
      const file = '\tif (a) {\n\t\tx();\n\t}\n';
      const out = applied(file, [{ search: 'if (a) {\n\tx();\n}', replace: 'if (a) {\n\tx();\n\tif (b) {\n\t\ty();\n\t}\n}' }]);
      assert.equal(out, '\tif (a) {\n\t\tx();\n\t\tif (b) {\n\t\t\ty();\n\t\t}\n\t}\n');
    });

    it('does not take a deeper-indented line for a search that starts with indentation', () => {
      assert.equal(applied('{\n    go();\n}\n', [{ search: '  go();', replace: '  go();\n  next();' }]), '{\n    go();\n    next();\n}\n');
    });

    it('ignores blank lines around the search block that the file lacks', () => {
      const file = 'x = 1\ny = 2\nz = 3\n';
      assert.equal(applied(file, [{ search: '\ny = 2\n\n', replace: '\ny = 20\n\n' }]), 'x = 1\ny = 20\nz = 3\n');
    });

    it('refuses a block that matches several places when whitespace is ignored', () => {
      const file = 'if (a) {\n  go();\n}\nif (a) {\n    go();\n}\n';
      const { message } = refused(file, [{ search: 'if (a) {\n go();\n}', replace: 'x' }]);
      assert.match(message, /matches 2 places when whitespace is ignored/);
      assert.match(message, /lines 1-3, 4-6/);
    });

    it('prefers the one place whose indentation matches the search exactly', () => {
      const file = 'a {\n  go();   \n}\nb {\n    go();\n}\n';
      assert.equal(applied(file, [{ search: '  go();\n', replace: '  stop();\n' }]), 'a {\n  stop();\n}\nb {\n    go();\n}\n');
    });
  });

  describe('no match', () => {
    it('shows the closest region with line numbers and what differs', () => {
      const file = ['import x', '', 'function total(items) {', '  let sum = 0;', '  for (const i of items) sum += i.price;', '  return sum;', '}', ''].join('\n');
      const { message } = refused(file, [
        { search: 'function total(items) {\n  let sum = 0;\n  for (const i of items) sum += i.cost;\n  return sum;\n}', replace: 'x' },
      ]);
      assert.match(message, /not found/);
      assert.match(message, /closest region is lines 3-7 \(4 of 5/);
      assert.match(message, /3\tfunction total\(items\) \{/);
      assert.match(message, /- {3}for \(const i of items\) sum \+= i\.cost;/);
      assert.match(message, /\+ 5\t {2}for \(const i of items\) sum \+= i\.price;/);
    });

    it('finds a region by its identifiers when no line is the same', () => {
      const file = 'alpha();\nconst widgetCount = computeWidgets(config);\nomega();\n';
      const { message } = refused(file, [{ search: 'let widgetCount = computeWidgets(cfg)', replace: 'x' }]);
      assert.match(message, /closest region is lines 2-2/);
    });

    it('says when nothing similar exists', () => {
      assert.match(refused('abc\n', [{ search: 'zzz qqq', replace: 'x' }]).message, /No similar lines/);
    });

    it("points out read_file's line numbers left on some lines of the search", () => {
      const { message } = refused('alpha\nbeta\n', [{ search: '1\talpha\nbeta', replace: 'x' }]);
      assert.match(message, /start with read_file's line numbers/);
    });
  });

  describe('several edits', () => {
    it('applies edits in order, each to the result of the previous ones', () => {
      const out = applied('a\nb\nc\n', [
        { search: 'a', replace: 'x' },
        { search: 'x\nb', replace: 'y' },
      ]);
      assert.equal(out, 'y\nc\n');
    });

    it('reports line numbers in the final text', () => {
      const result = applyEdits('1\n2\n3\n4\n5\n', [
        { search: '4\n', replace: 'four\n' },
        { search: '1\n', replace: 'one\nuno\n' },
      ]);
      assert.ok(result.ok);
      assert.deepEqual(
        result.applied.map((a) => [a.startLine, a.endLine]),
        [
          [5, 5],
          [1, 2],
        ],
      );
    });

    it('applies none when one fails, naming the failed index', () => {
      const result = refused('a\nb\n', [
        { search: 'a', replace: 'x' },
        { search: 'missing', replace: 'y' },
      ]);
      assert.equal(result.index, 1);
      assert.match(result.message, /^edits\[1\] \(in the file as changed by the edits before it\): the search text was not found/);
    });
  });

  describe('invalid edits', () => {
    it('refuses an empty search', () => {
      const { index, message } = refused('a\n', [{ search: '', replace: 'x' }]);
      assert.equal(index, 0);
      assert.match(message, /`search` is empty.*write_file/);
    });

    it('refuses search equal to replace', () => {
      assert.match(refused('a\n', [{ search: 'a', replace: 'a' }]).message, /identical/);
    });

    it('refuses an empty list', () => {
      assert.match(refused('a\n', []).message, /empty/);
    });

    it('refuses a whitespace-only search that is not verbatim in the file', () => {
      assert.match(refused('a\n', [{ search: '   ', replace: 'x' }]).message, /only whitespace/);
    });
  });

  it('edits a 100,000-line file correctly (one tolerant, one exact edit)', () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => `    value_${i} = compute(${i});`);
    const file = lines.join('\n') + '\n';
    const result = applyEdits(file, [
      { search: 'value_70000 = compute(70000);\nvalue_70001 = compute(70001);', replace: 'value_70000 = 0;\nvalue_70001 = compute(70001);' },
      { search: '    value_5 = compute(5);\n', replace: '' },
    ]);
    assert.ok(result.ok);
    const out = result.text.split('\n');
    assert.equal(out.length, 100_000);
    assert.equal(out[69_999], '    value_70000 = 0;');
    assert.equal(out[5], '    value_6 = compute(6);');
    assert.deepEqual(result.applied[0], { index: 0, kind: 'tolerant', startLine: 70_000, endLine: 70_001 });
  });
});
