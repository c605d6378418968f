import type { RunOutcome } from '../../src/shared/events';

/** The routes a task can end by. */
export type EndingRoute = 'direct' | 'planned' | 'follow-up' | 'resume' | 'step retry';

/** The facts that decide an ending. */
export type EndingFact =
  | 'budget reached'
  | 'turn limit'
  | 'verify fails'
  | "the agent's own test run fails after the last change"
  | 'a step skipped by the updater'
  | 'a step skipped by the user'
  | 'user stop'
  | 'provider failure';

/** One cell of the table: a route and a fact, the one outcome and exit code they end with. */
export interface EndingCase {
  route: EndingRoute;
  fact: EndingFact;
  outcome: RunOutcome;
  exit: number;
}

/** The one outcome each fact ends with, whatever the route (a plan's turn limit is a step's, planned or retried: its recovery stops the task, `failed`). */
const BY_FACT: Record<EndingFact, [RunOutcome, number]> = {
  'budget reached': ['budget', 1],
  'turn limit': ['step_limit', 1],
  'verify fails': ['unverified', 3],
  "the agent's own test run fails after the last change": ['unverified', 3],
  'a step skipped by the updater': ['incomplete', 3],
  'a step skipped by the user': ['incomplete', 3],
  'user stop': ['cancelled', 130],
  'provider failure': ['failed', 1],
};

const PLAN_ONLY = new Set<EndingFact>(['a step skipped by the updater', 'a step skipped by the user']);
const ROUTES: EndingRoute[] = ['direct', 'planned', 'follow-up', 'resume', 'step retry'];

/** Cells with no plan step to skip are left out: a direct run, a follow-up on a finished plan and a direct resume have no steps. */
function applies(route: EndingRoute, fact: EndingFact): boolean {
  return !PLAN_ONLY.has(fact) || route === 'planned' || route === 'step retry';
}

/**
 * The table of acceptance item 1: every route × every fact that applies to it → one outcome and
 * exit code. The CLI test runs every cell through the built CLI; the webview test renders every
 * cell's outcome card and checks its badge and actions.
 */
export const ENDING_CASES: readonly EndingCase[] = ROUTES.flatMap((route) =>
  (Object.keys(BY_FACT) as EndingFact[])
    .filter((fact) => applies(route, fact))
    .map((fact) => {
      // A plan's step at its turn limit is a failed step: its recovery stops the task (a step retry runs the same plan).
      const [outcome, exit] = (route === 'planned' || route === 'step retry') && fact === 'turn limit' ? (['failed', 1] as [RunOutcome, number]) : BY_FACT[fact];
      return { route, fact, outcome, exit };
    }),
);
