import assert from 'node:assert/strict';
import type { AgentEvent, RunOutcome, StepStatus } from '../../../src/shared/events';
import type { HostMessage } from '../../../src/shared/webviewProtocol';
import { ENDING_CASES, type EndingCase } from '../../support/endingCases';
import { chromiumSuite, clearPosted, posted, sendHost, settle } from './harness';
import { wrap } from './scenario';

// Acceptance item 1, the webview half: the table the CLI test runs (test/support/endingCases.ts)
// drives the outcome card: its badge (class and colour) and its actions. Retry only after a
// failure; after the user's Stop, a limit or a partial run: Continue. Screenshots of one card per
// class are saved under test-artifacts/.

const RUN = 'run-endings';
const status: HostMessage = { type: 'status', status: { configured: true, trusted: true, running: false, runId: RUN, model: 'm', history: [] } };

/** What the user must see per outcome, written out here (not read from the shared table it checks). */
const EXPECTED: Record<RunOutcome, { klass: string; title: RegExp; actions: string[] }> = {
  finished: { klass: 'done', title: /^Finished$/, actions: [] },
  incomplete: { klass: 'partial', title: /^Incomplete/, actions: ['continue'] },
  unverified: { klass: 'partial', title: /^Unverified/, actions: ['continue'] },
  cancelled: { klass: 'stopped', title: /^Cancelled$/, actions: ['continue'] },
  budget: { klass: 'failed', title: /budget/, actions: ['continue', 'open-settings'] },
  step_limit: { klass: 'failed', title: /turn limit/, actions: ['continue', 'open-settings'] },
  stuck: { klass: 'failed', title: /circles/, actions: ['continue', 'show-log'] },
  failed: { klass: 'failed', title: /^Failed$/, actions: ['retry-task', 'show-log'] },
  internal: { klass: 'failed', title: /internal/, actions: ['retry-task', 'show-log'] },
};

const HEADER: Record<string, string> = { done: 'Finished', partial: 'Partly done', stopped: 'Stopped', failed: 'Failed' };

/** The status the fact leaves the plan's second step in (plan routes), as the core records it. */
function stepStatus(c: EndingCase): StepStatus {
  if (c.fact === 'user stop') return 'stopped';
  if (c.fact === 'a step skipped by the updater' || c.fact === 'a step skipped by the user') return 'skipped';
  if (c.fact === 'turn limit' || c.fact === 'provider failure') return 'failed';
  return 'completed';
}

/** The events of a run that ended as the cell says, with the facts the core puts on `run_finished`. */
function eventsOf(c: EndingCase): AgentEvent[] {
  const planned = c.route === 'planned' || c.route === 'step retry';
  const steps = [
    { id: '1', title: 'Fix the bug', description: 'Fix it.', role: 'coder', status: 'pending' as const },
    { id: '2', title: 'Run the tests', description: 'Run npm test.', role: 'coder', status: 'pending' as const },
  ];
  const plan: AgentEvent[] = planned
    ? [
        { type: 'plan_created', goal: 'Fix the bug', thought: 'Two steps.', steps },
        { type: 'step_started', stepId: '1' },
        { type: 'step_finished', stepId: '1', status: 'completed', summary: 'Fixed toKelvin: 273.15.' },
        { type: 'step_started', stepId: '2' },
        { type: 'step_finished', stepId: '2', status: stepStatus(c), summary: c.fact === 'user stop' ? 'Stopped by the user.' : 'Ran npm test.' },
      ]
    : [];
  const failedChecks = c.outcome === 'unverified' ? [{ command: 'npm test', exitCode: 1 }] : undefined;
  return [
    { type: 'run_started', task: 'Fix the bug and run the tests', workspace: '/ws', model: 'm' },
    ...plan,
    {
      type: 'run_finished', outcome: c.outcome, reason: `${c.fact}`, turns: 3, runningMs: 1300, waitingMs: 96_700,
      ...(failedChecks ? { failedChecks } : {}), ...(planned ? { stepsCompleted: 1 } : {}),
    },
  ];
}

describe('webviews in Chromium: the ending table drives the outcome badge and actions', function () {
  this.timeout(120_000);
  const { view, shot } = chromiumSuite();
  const shotTaken = new Set<string>();

  for (const c of ENDING_CASES) {
    const expected = EXPECTED[c.outcome];
    it(`${c.route} × ${c.fact}: ${expected.klass} badge, actions [${expected.actions.join(', ')}]`, async () => {
      const page = await view({ view: 'panel' });
      const events = eventsOf(c);
      await sendHost(page, status, { type: 'reset', runId: RUN, task: 'Fix the bug and run the tests' }, { type: 'events', runId: RUN, envelopes: wrap(RUN, events) });
      await settle(page);
      const card = page.locator('.card.outcome');
      assert.equal(await card.count(), 1);
      assert.equal(await card.getAttribute('data-class'), expected.klass);
      // The header's badge says the class too: a partial run is never called "Failed" up there.
      assert.equal((await page.locator('.state-badge').textContent())?.trim(), HEADER[expected.klass]);
      assert.match((await card.locator('.card-title').textContent())?.trim() ?? '', expected.title);
      const actions = await card.locator('.buttons [data-action]').evaluateAll((all) => all.map((b) => b.getAttribute('data-action')));
      assert.deepEqual(actions.filter((a) => a !== 'undo'), expected.actions);
      const durations = (await card.locator('[data-role="durations"]').textContent()) ?? '';
      assert.equal(durations, 'Ran 1.3 s · waited for you 96.7 s');
      if (c.outcome === 'unverified') assert.equal(await card.locator('[data-role="failed-checks"] li').textContent(), 'npm test exited 1 after the last change');
      if (c.fact === 'user stop') {
        // A user's stop is never "Failed", and nothing offers Retry: not the card, not the step.
        assert.doesNotMatch((await page.locator('body').textContent()) ?? '', /\bFailed\b/);
        assert.equal(await page.locator('[data-action="retry"], [data-action="retry-task"]').count(), 0);
      }
      if (c.route === 'planned' || c.route === 'step retry') {
        await clearPosted(page);
        if (expected.actions[0] === 'continue') {
          await card.locator('[data-action="continue"]').click();
          assert.deepEqual(await posted(page), [{ type: 'resumeRun', runId: RUN, text: 'Continue where you stopped.' }]);
        }
      }
      if (!shotTaken.has(expected.klass) && (c.route === 'planned')) {
        shotTaken.add(expected.klass);
        await shot(page, `ending-${expected.klass}-${c.outcome}`);
      }
    });
  }
});
