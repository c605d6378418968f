import assert from 'node:assert/strict';
import { CANONICAL_MAX_CHARS, canonicalJson, StuckDetector, trailingRepetition, turnSignature, type TurnRecord } from '../../../src/agent/loop/stuckDetector';

const call = (name: string, args: object | string): TurnRecord => ({
  text: '',
  toolCalls: [{ name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }],
});

describe('stuckDetector', () => {
  it('canonicalises JSON arguments (key order, spacing), leaving unparsable text as it is', () => {
    assert.equal(canonicalJson('{"b": 1, "a": {"d": [2, {"y":1,"x":0}], "c": null}}'), '{"a":{"c":null,"d":[2,{"x":0,"y":1}]},"b":1}');
    assert.equal(canonicalJson('  {not json '), '{not json');
    // Over CANONICAL_MAX_CHARS the text is kept as sent (no parse of a 50 MB write_file argument).
    const huge = ` {"path":"a","content":"${'x'.repeat(CANONICAL_MAX_CHARS)}"} `;
    assert.equal(canonicalJson(huge), huge.trim());
    assert.equal(canonicalJson(''), '{}');
  });

  it('signs a turn by its calls when it has any, else by its text', () => {
    assert.equal(turnSignature({ text: 'Let me look.', toolCalls: [{ name: 'read_file', arguments: '{"path":"a"}' }] }), 'read_file {"path":"a"}');
    assert.equal(turnSignature({ text: '  Same\n answer ', toolCalls: [] }), 'text: Same answer');
  });

  it('measures the repeated cycle at the end of a sequence', () => {
    assert.deepEqual(trailingRepetition([], 2), { period: 1, repeats: 0 });
    assert.deepEqual(trailingRepetition(['a', 'b', 'b', 'b'], 2), { period: 1, repeats: 3 });
    assert.deepEqual(trailingRepetition(['x', 'a', 'b', 'a', 'b'], 2), { period: 2, repeats: 2 });
    assert.deepEqual(trailingRepetition(['a', 'b', 'c'], 2), { period: 1, repeats: 1 });
  });

  it('notes the third identical turn in a row and stops at the fifth', () => {
    const detector = new StuckDetector();
    const verdicts = [1, 2, 3, 4, 5].map(() => detector.observe(call('read_file', { path: 'a.ts' })).kind);
    assert.deepEqual(verdicts, ['ok', 'ok', 'note', 'ok', 'stop']);
  });

  it('names the call in the note and the reason', () => {
    const detector = new StuckDetector({ repeatsBeforeNote: 2, repeatsAfterNote: 1 });
    detector.observe(call('run_command', { command: 'npm test' }));
    const note = detector.observe(call('run_command', { command: 'npm test' }));
    assert.equal(note.kind, 'note');
    assert.match(note.kind === 'note' ? note.message : '', /`run_command \{"command":"npm test"\}`\) 2 times in a row/);
    const stop = detector.observe(call('run_command', { command: 'npm test' }));
    assert.equal(stop.kind, 'stop');
    assert.match(stop.kind === 'stop' ? stop.reason : '', /^stuck: repeated `run_command \{"command":"npm test"\}` 3 times in a row/);
  });

  it('catches a two-step cycle (A B A B A B)', () => {
    const detector = new StuckDetector();
    const a = call('read_file', { path: 'a.ts' });
    const b = call('search', { pattern: 'foo' });
    const kinds = [a, b, a, b, a, b].map((turn) => detector.observe(turn).kind);
    assert.deepEqual(kinds, ['ok', 'ok', 'ok', 'ok', 'ok', 'note']);
    const verdict = detector.observe(a);
    assert.equal(verdict.kind, 'ok');
    const after = [b, a, b].map((turn) => detector.observe(turn));
    assert.equal(after.at(-1)!.kind, 'stop');
    assert.match(after.at(-1)!.kind === 'stop' ? (after.at(-1) as { reason: string }).reason : '', /read_file.*then.*search/);
  });

  it('does not flag progress: edits that differ between identical test runs', () => {
    const detector = new StuckDetector();
    const kinds: string[] = [];
    for (let i = 0; i < 6; i++) {
      kinds.push(detector.observe(call('edit_file', { path: 'a.ts', search: `v${i}`, replace: `v${i + 1}` })).kind);
      kinds.push(detector.observe(call('run_command', { command: 'npm test' })).kind);
    }
    assert.ok(kinds.every((k) => k === 'ok'));
  });

  it('starts over when the model breaks the loop after a note', () => {
    const detector = new StuckDetector();
    const a = call('echo', { text: 'x' });
    for (let i = 0; i < 3; i++) detector.observe(a);
    assert.equal(detector.observe(call('echo', { text: 'different' })).kind, 'ok');
    const kinds = [1, 2, 3].map(() => detector.observe(a).kind);
    assert.deepEqual(kinds, ['ok', 'ok', 'note']);
  });

  it('catches the same text answer repeated', () => {
    const detector = new StuckDetector();
    const turn: TurnRecord = { text: 'I cannot do that.', toolCalls: [] };
    const kinds = [1, 2, 3, 4, 5].map(() => detector.observe(turn));
    assert.equal(kinds[2]!.kind, 'note');
    assert.match(kinds[4]!.kind === 'stop' ? kinds[4]!.reason : '', /the answer "I cannot do that\."/);
  });
});
