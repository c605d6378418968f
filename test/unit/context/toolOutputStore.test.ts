import assert from 'node:assert/strict';
import { o200kCounter } from '../../../src/agent/context/tokenCounter';
import { fitAndKeep, MIN_TOOL_OUTPUT_TOKENS, toolResultBudget } from '../../../src/agent/context/toolOutputBudget';
import { ToolOutputStore } from '../../../src/agent/context/toolOutputStore';
import { truncateHeadTail, type OmittedSpan } from '../../../src/agent/context/truncate';

describe('toolResultBudget: the per-result cap of a run', () => {
  // [configured cap, prompt budget, share, expected cap]
  const rows: Array<[number, number, number | undefined, number]> = [
    [6_000, 100_000, undefined, 5_000], // a twentieth of the default budget
    [6_000, 200_000, undefined, 6_000], // never above the configured cap
    [6_000, 50_000, undefined, 2_500],
    [6_000, 20_000, undefined, 1_000],
    [6_000, 8_000, undefined, MIN_TOOL_OUTPUT_TOKENS], // a tiny window still gets a useful piece
    [300, 100_000, undefined, 300], // a configured cap below the floor is kept
    [300, 1_000, undefined, 300],
    [6_000, 20_000, 1, 6_000], // share 1: the configured cap whatever the budget
    [6_000, 20_000, 0.1, 2_000],
    [6_000, 20_000, 0, MIN_TOOL_OUTPUT_TOKENS],
    [6_000, 20_000, -3, MIN_TOOL_OUTPUT_TOKENS], // nonsense shares are clamped, never a crash
    [6_000, 20_000, 7, 6_000],
    [0, 20_000, undefined, 1],
    [6_000.7, 1e9, undefined, 6_000],
  ];
  for (const [configured, budget, share, expected] of rows) {
    it(`cap ${configured}, budget ${budget}, share ${share ?? 'default'} -> ${expected}`, () => {
      assert.equal(toolResultBudget(configured, budget, share), expected);
    });
  }
});

describe('truncateHeadTail: the lines a cut leaves out', () => {
  const numbered = (n: number, end = '') => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + end;
  // [name, text, max chars, lines in the text]: the span must be exactly the lines not shown whole.
  const rows: Array<[string, string, number, number]> = [
    ['100 lines', numbered(100), 200, 100],
    ['100 lines, final newline', numbered(100, '\n'), 200, 100],
    ['100 lines, tight', numbered(100), 40, 100],
    ['2000 lines', numbered(2000), 3_000, 2000],
    ['nothing kept', numbered(50), 0, 50],
    ['one long line', 'x'.repeat(5_000), 100, 1],
    ['two long lines', `${'a'.repeat(3_000)}\n${'b'.repeat(3_000)}`, 100, 2],
    ['long first line, short rest', `${'a'.repeat(3_000)}\n${numbered(20)}`, 150, 21],
    ['CRLF lines', numbered(80).replace(/\n/g, '\r\n'), 200, 80],
  ];
  for (const [name, text, maxChars, total] of rows) {
    it(name, () => {
      let seen: OmittedSpan | undefined;
      const cut = truncateHeadTail(text, maxChars, (span) => ((seen = span), 'advice'));
      assert.ok(seen, 'the hint saw the span');
      assert.equal(seen.totalLines, total);
      const original = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
      const shownWhole = new Set(cut.text.split('\n'));
      original.forEach((line, i) => {
        const n = i + 1;
        const inSpan = n >= seen!.firstLine && n <= seen!.lastLine;
        // Short numbered lines are unique, so "shown whole" is a set lookup.
        assert.equal(shownWhole.has(line), !inSpan, `line ${n}: ${inSpan ? 'said to be left out but shown' : 'shown only in part or not at all'}`);
      });
    });
  }

  it('names nothing when the text fits', () => {
    let called = false;
    assert.equal(truncateHeadTail('short', 100, () => ((called = true), 'x')).text, 'short');
    assert.equal(called, false);
  });
});

describe('ToolOutputStore', () => {
  it('keeps cut outputs whole, drops the oldest past its size and never reuses a key', () => {
    const store = new ToolOutputStore(100);
    store.put(store.keyFor('a'), 'x'.repeat(60));
    store.put(store.keyFor('b'), 'y'.repeat(30));
    assert.equal(store.get('a'), 'x'.repeat(60));
    store.put(store.keyFor('c'), 'z'.repeat(30));
    assert.equal(store.get('a'), undefined, 'the oldest went first');
    assert.equal(store.get('b'), 'y'.repeat(30));
    // A model that reuses call ids gets a new key for the new output; the old key still names the old one.
    assert.equal(store.keyFor('b'), 'b~2');
    store.put('b~2', 'second');
    assert.equal(store.get('b'), 'y'.repeat(30));
    assert.equal(store.keyFor('a'), 'a~2', 'a dropped key is not reused');
    assert.equal(store.canKeep(101), false);
    assert.equal(store.put('big', 'q'.repeat(101)), false);
    assert.equal(store.get('big'), undefined);
  });

  it('fitAndKeep keeps only what was cut, and names the call and first left-out line', () => {
    const store = new ToolOutputStore();
    const small = fitAndKeep('ok', { id: 'c1', name: 'run_command' }, 100, o200kCounter, store);
    assert.equal(small.text, 'ok');
    assert.equal(store.get('c1'), undefined);
    const log = Array.from({ length: 3_000 }, (_, i) => `PASS test ${i + 1}`).join('\n');
    const cut = fitAndKeep(log, { id: 'c2', name: 'run_command' }, 300, o200kCounter, store);
    assert.equal(store.get('c2'), log);
    const marker = /lines (\d+)-(\d+) of 3000 are left out here; read them with read_output \{"call_id": "c2", "start_line": (\d+)\}/.exec(cut.text);
    assert.ok(marker, cut.text);
    assert.equal(marker[1], marker[3]);
    assert.ok(cut.text.includes(`PASS test ${Number(marker[1]) - 1}\n`), 'the line before the span is shown');
    assert.ok(cut.text.includes(`\nPASS test ${Number(marker[2]) + 1}\n`), 'the line after the span is shown');
    // Too big to keep: the tool's own advice, nothing kept.
    const tiny = new ToolOutputStore(10);
    const fallback = fitAndKeep(log, { id: 'c3', name: 'run_command' }, 300, o200kCounter, tiny);
    assert.match(fallback.text, /run the command again with its output filtered/);
    assert.equal(tiny.get('c3'), undefined);
  });
});
