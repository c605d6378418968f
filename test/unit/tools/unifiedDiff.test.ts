import assert from 'node:assert/strict';
import { diffLines } from '../../../src/shared/lineDiff';
import { diffStats, unifiedDiff } from '../../../src/agent/tools/edit/unifiedDiff';

/** Lines that keep their `\n` (the last may lack it). */
function linesWithEol(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * Applies a unified diff to `before` the way `patch` does: checks every context and removed line
 * against the old text, honours `\ No newline at end of file`, and returns the new text.
 */
function applyPatch(before: string, diff: string): string {
  const old = linesWithEol(before);
  const out: string[] = [];
  let cursor = 0;
  const lines = diff.split('\n').slice(2);
  if (lines[lines.length - 1] === '') lines.pop();
  let i = 0;
  while (i < lines.length) {
    const header = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$/.exec(lines[i]!);
    assert.ok(header, `bad hunk header: ${lines[i]}`);
    const aStart = Number(header[1]);
    const aCount = header[2] === undefined ? 1 : Number(header[2]);
    const from = aCount === 0 ? aStart : aStart - 1;
    while (cursor < from) out.push(old[cursor++]!);
    i++;
    while (i < lines.length && !lines[i]!.startsWith('@@')) {
      const line = lines[i]!;
      const body = line.slice(1);
      const lacksNewline = lines[i + 1] === '\\ No newline at end of file';
      if (line.startsWith(' ') || line.startsWith('-')) {
        assert.equal(old[cursor], lacksNewline ? body : `${body}\n`, `old line ${cursor + 1} differs`);
        if (line.startsWith(' ')) out.push(old[cursor]!);
        cursor++;
      } else if (line.startsWith('+')) {
        out.push(lacksNewline ? body : `${body}\n`);
      } else assert.fail(`unexpected diff line: ${line}`);
      i += lacksNewline ? 2 : 1;
    }
  }
  while (cursor < old.length) out.push(old[cursor++]!);
  return out.join('');
}

/** A small deterministic PRNG (mulberry32) so the random cases are reproducible. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('unifiedDiff', () => {
  it('renders a hunk with three lines of context and correct ranges', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'].join('\n') + '\n';
    const after = before.replace('5\n', 'five\n');
    assert.equal(
      unifiedDiff('src/n.txt', before, after),
      ['--- a/src/n.txt', '+++ b/src/n.txt', '@@ -2,7 +2,7 @@', ' 2', ' 3', ' 4', '-5', '+five', ' 6', ' 7', ' 8', ''].join('\n'),
    );
  });

  it('is empty for equal texts', () => {
    assert.equal(unifiedDiff('a', 'x\n', 'x\n'), '');
  });

  it('diffs a created file against /dev/null', () => {
    assert.equal(unifiedDiff('new.txt', '', 'a\nb\n', { created: true }), '--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n');
  });

  it('marks a missing final newline', () => {
    assert.equal(unifiedDiff('f', 'a\nb', 'a\nb\n'), '--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n');
  });

  it('merges nearby changes into one hunk and keeps distant ones apart', () => {
    const before = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const after = before.replace('line 5\n', 'five\n').replace('line 9\n', 'nine\n').replace('line 35\n', 'x\n');
    const diff = unifiedDiff('f', before, after);
    assert.deepEqual(
      diff.split('\n').filter((l) => l.startsWith('@@')),
      ['@@ -2,11 +2,11 @@', '@@ -32,7 +32,7 @@'],
    );
    assert.equal(applyPatch(before, diff), after);
    assert.deepEqual(diffStats(diff), { added: 3, removed: 3 });
  });

  it('shows a line-ending change as a changed line without the CR in the display', () => {
    const diff = unifiedDiff('f', 'a\r\nb\r\n', 'a\r\nb\n');
    assert.equal(diff, '--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n');
  });

  it('handles edits at the very start and end, and blank first lines', () => {
    for (const [before, after] of [
      ['\n\nx\n', 'y\n\nx\n'],
      ['a\nb\nc', 'a\nb\nc\nd'],
      ['a\n', ''],
      ['', 'a'],
      ['\n', '\n\n'],
    ] as const) {
      const diff = unifiedDiff('f', before, after);
      assert.equal(applyPatch(before, diff), after, JSON.stringify({ before, after, diff }));
    }
  });

  it('round-trips random edits through a patch applier', () => {
    const random = prng(42);
    const pick = (n: number): number => Math.floor(random() * n);
    const vocabulary = ['a', 'b', 'c', '', '}', 'return x;', '  if (y) {'];
    for (let round = 0; round < 300; round++) {
      const before = Array.from({ length: pick(30) }, () => vocabulary[pick(vocabulary.length)]!);
      const after = [...before];
      for (let k = pick(6); k > 0; k--) {
        const at = pick(after.length + 1);
        const op = pick(3);
        if (op === 0) after.splice(at, 1);
        else if (op === 1) after.splice(at, 0, vocabulary[pick(vocabulary.length)]!);
        else after[at] = `changed ${round}`;
      }
      const beforeText = before.join('\n') + (random() < 0.5 ? '\n' : '');
      const afterText = after.join('\n') + (random() < 0.5 ? '\n' : '');
      const diff = unifiedDiff('f', beforeText, afterText);
      if (beforeText === afterText) assert.equal(diff, '');
      else assert.equal(applyPatch(beforeText, diff), afterText, JSON.stringify({ beforeText, afterText, diff }));
    }
  });

  it('diffs a small change in a 100,000-line file to one small hunk', () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => `row ${i}`);
    const before = lines.join('\n') + '\n';
    const after = before.replace('row 77777\n', 'row 77777 changed\n');
    const diff = unifiedDiff('big', before, after);
    assert.equal(diff.split('\n').filter((l) => l.startsWith('@@')).join(), '@@ -77775,7 +77775,7 @@');
    assert.equal(applyPatch(before, diff), after);
  });
});

describe('diffLines', () => {
  it('finds a minimal edit script', () => {
    const changes = diffLines(['a', 'b', 'c', 'a', 'b', 'b', 'a'], ['c', 'b', 'a', 'b', 'a', 'c']);
    const edits = changes.reduce((n, c) => n + (c.aEnd - c.aStart) + (c.bEnd - c.bStart), 0);
    assert.equal(edits, 5);
  });

  it('reports one replacement for entirely different texts beyond the distance cap', () => {
    const a = Array.from({ length: 3000 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 3000 }, (_, i) => `b${i}`);
    assert.deepEqual(diffLines(a, b), [{ aStart: 0, aEnd: 3000, bStart: 0, bEnd: 3000 }]);
  });
});
