// Reads what the Stepwise webviews show, tolerating webviews that reload while a test polls.
import type { Frame } from 'playwright-core';

/** The visible text of a webview frame; '' while it reloads (callers poll). */
export async function textOf(frame: Frame): Promise<string> {
  try {
    return await frame.evaluate(() => document.body.innerText);
  } catch {
    return '';
  }
}

/** A plan step as the panel's plan column shows it. */
export interface ShownStep {
  title: string;
  status: string;
}

/** The steps in the panel's plan column (`[]` when it shows no plan or is hidden); `undefined` while the frame reloads. */
export async function shownPlanSteps(panel: Frame): Promise<ShownStep[] | undefined> {
  try {
    return await panel.evaluate(() => {
      const plan = document.querySelector<HTMLElement>('[data-role="plan"]');
      if (!plan || plan.hidden || plan.closest<HTMLElement>('[hidden]') || plan.offsetParent === null) return [];
      return Array.from(plan.querySelectorAll<HTMLElement>('li.step')).map((li) => ({
        title: li.querySelector('.step-title')?.textContent ?? '',
        status: li.dataset.status ?? '',
      }));
    });
  } catch {
    return undefined;
  }
}

/** The step titles in the plan review editor (`[]` when review is not shown). */
export async function reviewTitles(panel: Frame): Promise<string[] | undefined> {
  try {
    return await panel.evaluate(() => {
      const review = document.querySelector<HTMLElement>('[data-role="review"]');
      if (!review || review.hidden || review.offsetParent === null) return [];
      return Array.from(review.querySelectorAll<HTMLInputElement>('li.review-step input.review-title')).map((input) => input.value);
    });
  } catch {
    return undefined;
  }
}
