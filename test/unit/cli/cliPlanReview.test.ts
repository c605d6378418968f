import assert from 'node:assert/strict';
import { cliPlanReview, parseReviewAnswer, type ReviewAnswer } from '../../../src/cli/cliPlanReview';
import type { Plan } from '../../../src/shared/plan';

describe('the CLI plan review', () => {
  const rows: Array<[string, number, ReviewAnswer['kind'], number[]?]> = [
    ['', 3, 'run'],
    ['y', 3, 'run'],
    ['YES', 3, 'run'],
    ['  yes  ', 3, 'run'],
    ['n', 3, 'cancel'],
    ['No', 3, 'cancel'],
    ['skip 2', 3, 'skip', [2]],
    ['s 3', 3, 'skip', [3]],
    ['skip 3 1', 3, 'skip', [1, 3]],
    ['skip 2,3', 3, 'skip', [2, 3]],
    ['SKIP 2, 2', 3, 'skip', [2]],
    ['skip 4', 3, 'unclear'],
    ['skip 0', 3, 'unclear'],
    ['skip 1 2 3', 3, 'unclear'],
    ['skip', 3, 'unclear'],
    ['skip two', 3, 'unclear'],
    ['skip 1.5', 3, 'unclear'],
    ['maybe', 3, 'unclear'],
    ['nope', 3, 'unclear'],
    ['yes please', 3, 'unclear'],
  ];
  for (const [answer, count, kind, steps] of rows) {
    it(`${JSON.stringify(answer)} on a ${count}-step plan → ${kind}${steps ? ` ${steps.join(',')}` : ''}`, () => {
      const parsed = parseReviewAnswer(answer, count);
      assert.equal(parsed.kind, kind);
      if (steps) assert.deepEqual(parsed.kind === 'skip' && parsed.steps, steps);
    });
  }

  const plan: Plan = {
    goal: 'Notes',
    thought: '',
    steps: [
      { id: 's1', title: 'A', description: 'a', role: 'coder', status: 'pending' },
      { id: 's2', title: 'B', description: 'b', role: 'coder', status: 'pending' },
    ],
  };

  it('asks again after an unclear answer, then marks the named step skipped', async () => {
    const answers = ['skip 5', 'skip 2'];
    const written: string[] = [];
    const review = cliPlanReview({ ask: async () => answers.shift()! }, (t) => written.push(t));
    const out = await review(plan, new AbortController().signal);
    assert.deepEqual(out?.steps.map((s) => s.status), ['pending', 'skipped']);
    assert.match(written.join(''), /There is no step 5; the plan has steps 1 to 2\./);
    assert.match(written.join(''), /Skipping step 2: B/);
  });

  it('cancels on n and runs the plan unchanged on y', async () => {
    assert.equal(await cliPlanReview({ ask: async () => 'n' }, () => {})(plan, new AbortController().signal), undefined);
    assert.equal(await cliPlanReview({ ask: async () => 'y' }, () => {})(plan, new AbortController().signal), plan);
  });
});
