import assert from 'node:assert/strict';
import { runTask } from '../../../src/agent/flow/runTask';
import { call, finish, flowModel, harness, requestsOf } from '../flow/flowHarness';

// Acceptance item 2 of issue 21: the model's words are never edited. Random prose (decimals,
// versions, URLs, code, CJK text, sentence ends in odd places, markdown) goes through a real planned
// task into the saved report byte for byte; when it claims the tests pass and the evidence says a
// check failed after the last change, a note stands beside it (a block of its own after the
// section), never inside it, and the reporter is asked once to correct itself.

/** A small seeded generator (mulberry32): the same seed, the same prose, so a failure can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  'toKelvin adds 273 instead of 273.15',
  'Bumped lodash from v4.17.20 to 4.17.21 (see 1.2.3-beta.4)',
  'See https://example.com/docs/v2.1/page.html?q=1.5&x=a.b#sec-3.2 for details',
  '`const k = c + 273.15; return k.toFixed(2);`',
  'e.g. the 3.5 mm jack; i.e. not 2.5. Mr. Smith said so',
  '测试：温度为 273.15 开尔文。修复了 toKelvin 的错误',
  '数字 3.14159 与版本 v0.9.1',
  'Paths like src/app.v2.ts and ./a/b.c.d',
  '**bold** _it_ [link](https://a.b/c.d) | pipe | `x.y`',
  'Ends with dots...',
  'Line one.\nLine two: 1.0.\n\nA new paragraph: 2.5',
  'Résumé naïve café — em dash… ellipsis',
  '$HOME/x && echo "1.2.3"',
  '',
];
const CLAIMS = ['All tests pass.', 'The tests passed (3 passing).', '测试全部通过。'];

function prose(next: () => number, claim: boolean): string {
  const parts: string[] = [];
  const n = 1 + Math.floor(next() * 4);
  for (let i = 0; i < n; i++) parts.push(PIECES[Math.floor(next() * PIECES.length)]!);
  if (claim) parts.splice(Math.floor(next() * (parts.length + 1)), 0, CLAIMS[Math.floor(next() * CLAIMS.length)]!);
  return parts.filter(Boolean).join(next() < 0.5 ? ' ' : '. ') || 'Done 1.5.';
}

const PLAN = { goal: 'Fix toKelvin', thought: 'One step.', steps: [{ title: 'Fix', description: 'Fix toKelvin and run the tests.', role: 'coder' }] };

describe('the report keeps the model\'s prose byte for byte (property, 60 seeds)', () => {
  for (let seed = 1; seed <= 60; seed++) {
    it(`seed ${seed}`, async () => {
      const next = rng(seed);
      const claim = next() < 0.5;
      const checkFails = next() < 0.5;
      const draft = { summary: prose(next, claim), findings: [prose(next, false), prose(next, false)], verification: '', left: [prose(next, false)] };
      const model = flowModel({
        planner: [call('create_plan', PLAN)],
        'step:Fix': [call('write_file', { path: 'src/convert.js', content: 'module.exports = (c) => c + 273.15;\n' }), call('run_command', { command: 'cd . && npm test' }), finish('Fixed.')],
        updater: () => call('keep_plan', {}),
        report: () => call('write_report', draft),
      });
      const h = harness(model, {
        task: 'Fix toKelvin and run the tests',
        planMode: 'always',
        files: { 'package.json': '{"scripts":{"test":"node test.js"}}', 'src/convert.js': 'module.exports = (c) => c + 273;\n' },
        commands: [{ match: 'cd . && npm test', output: [{ stream: 'stdout', chunk: checkFails ? '1 failing\n' : '3 passing\n' }], exitCode: checkFails ? 1 : 0 }],
      });
      const result = await runTask(h.options);
      const saved = h.workspace.text(result.reportPath!)!;
      assert.ok(saved, 'the report was saved');
      // Every piece of prose is in the saved file exactly as the model wrote it.
      assert.ok(saved.includes(`\n\n${draft.summary}\n`), `summary kept:\n${JSON.stringify(draft.summary)}\n---\n${saved}`);
      for (const item of [...draft.findings, ...draft.left]) assert.ok(saved.includes(`- ${item}\n`), `item kept: ${JSON.stringify(item)}\n---\n${saved}`);
      assert.doesNotMatch(saved, /\[no check passed/);
      const note = '> Note: the text above says the tests or checks pass; `cd . && npm test` exited 1 after the last change.';
      if (claim && checkFails) {
        // Beside the summary, in a block of its own; and the reporter was asked once to correct itself.
        assert.ok(saved.includes(`${draft.summary}\n\n${note}\n`), saved);
        assert.equal(requestsOf(model, 'report').length, 2);
        assert.match(requestsOf(model, 'report')[1]!.messages.at(-1)!.content, /`cd \. && npm test` exited 1 after the last change\. Write the report again/);
      } else {
        assert.ok(!saved.includes('> Note:'), saved);
        assert.equal(requestsOf(model, 'report').length, 1);
      }
      assert.equal(result.outcome, checkFails ? 'unverified' : 'finished', result.reason);
    });
  }
});
