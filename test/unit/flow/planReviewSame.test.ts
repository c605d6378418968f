import { strict as assert } from 'node:assert';
import { acceptReviewedPlan, planFromDrafts, samePlan } from '../../../src/agent/flow/planReview';
import type { Plan } from '../../../src/shared/plan';
import type { PlanStepDraft } from '../../../src/shared/webviewProtocol';

// The planner builds steps from the model's JSON, so key order is the model's, descriptions may end in
// spaces, and steps carry estimates the review view never sends back. Running it unchanged is no edit.
const shown: Plan = {
  goal: 'Fix toKelvin',
  thought: 'small',
  steps: [
    // Keys in the model's order (role before description), a trailing newline, an estimate.
    { title: 'Read the code', role: 'coder', description: 'Look at convert.js\n', id: '1', status: 'pending', estimate: 40_000 },
    { id: '2', title: 'Fix it ', description: 'Use 273.15', role: 'coder', status: 'pending' },
  ] as Plan['steps'],
};

/** What the review view sends back for an untouched plan: ids kept, text trimmed, no estimates. */
const untouched: PlanStepDraft[] = shown.steps.map((s) => ({ id: s.id, title: s.title.trim(), description: s.description.trim(), role: s.role }));

/** The plan run would adopt from `drafts`, as runTask gets it. */
function reviewed(drafts: PlanStepDraft[]): Plan {
  const accepted = acceptReviewedPlan(planFromDrafts(shown, drafts), 20, shown);
  assert.ok(accepted.ok);
  return accepted.plan;
}

describe('plan review: only a real edit is an edit', () => {
  const rows: Array<{ name: string; drafts: PlanStepDraft[]; same: boolean }> = [
    { name: 'untouched (key order, trimmed text, estimates not sent)', drafts: untouched, same: true },
    { name: 'a reworded title', drafts: untouched.map((d, i) => (i === 1 ? { ...d, title: 'Fix toKelvin' } : d)), same: false },
    { name: 'a changed description', drafts: untouched.map((d, i) => (i === 0 ? { ...d, description: 'Read convert.js and its tests' } : d)), same: false },
    { name: 'another role', drafts: untouched.map((d, i) => (i === 0 ? { ...d, role: 'researcher' } : d)), same: false },
    { name: 'steps reordered', drafts: [untouched[1]!, untouched[0]!], same: false },
    { name: 'a step deleted', drafts: [untouched[0]!], same: false },
    { name: 'a step added', drafts: [...untouched, { title: 'Run the tests', description: '', role: 'coder' }], same: false },
  ];
  for (const row of rows) {
    it(`${row.name}: ${row.same ? 'the same plan' : 'edited'}`, () => {
      assert.equal(samePlan(shown, reviewed(row.drafts)), row.same);
    });
  }

  it('a kept step keeps its estimate', () => {
    assert.equal(reviewed(untouched).steps[0]!.estimate, 40_000);
  });
});
