import assert from 'node:assert/strict';
import { applyRemaining } from '../../../src/agent/flow/planUpdater';
import { planFromDrafts } from '../../../src/agent/flow/planReview';
import type { Plan } from '../../../src/shared/plan';

// A step given to a custom role keeps it through the plan updater and the user's review.
const PLAN: Plan = {
  goal: 'g', thought: 't',
  steps: [
    { id: '1', title: 'Build', description: 'b', role: 'coder', status: 'completed' },
    { id: '2', title: 'Review', description: 'r', role: 'coder', agent: 'reviewer', status: 'pending' },
  ],
};

describe('custom roles through plan updates and review', () => {
  const cases: Array<{ name: string; role: string; agent?: string; want: { role: string; agent?: string }; notice?: RegExp }> = [
    { name: 'the updater names the custom role', role: 'reviewer', want: { role: 'coder', agent: 'reviewer' } },
    { name: 'a step carried whole (a split keeps the rest as it was)', role: 'coder', agent: 'reviewer', want: { role: 'coder', agent: 'reviewer' } },
    { name: 'a built-in role replaces it', role: 'researcher', want: { role: 'researcher' } },
    { name: 'an unknown member runs as coder, said so', role: 'nobody', want: { role: 'coder' }, notice: /unknown member "nobody"/ },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { plan, notices } = applyRemaining(PLAN, [{ id: '2', title: 'Review', description: 'r', role: c.role, ...(c.agent ? { agent: c.agent } : {}) }], 8, ['reviewer']);
      const step = plan.steps[1]!;
      assert.deepEqual({ role: step.role, ...(step.agent ? { agent: step.agent } : {}) }, c.want);
      if (c.notice) assert.match(notices.join('\n'), c.notice);
      else assert.deepEqual(notices, []);
    });
  }

  it('review: an untouched step keeps its custom role; a step given another role in review loses it', () => {
    const same = planFromDrafts(PLAN, [{ id: '1', title: 'Build', description: 'b', role: 'coder' }, { id: '2', title: 'Review', description: 'r', role: 'coder' }]);
    assert.equal(same.steps[1]!.agent, 'reviewer');
    const changed = planFromDrafts(PLAN, [{ id: '2', title: 'Review', description: 'r', role: 'researcher' }]);
    assert.equal(changed.steps[0]!.agent, undefined);
    assert.equal(changed.steps[0]!.role, 'researcher');
  });
});
