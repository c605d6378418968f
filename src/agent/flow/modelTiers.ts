import type { Model } from '../model/types';

/** Models by tier (LangManus's basic / reasoning / vision); every missing tier falls back to `default`. */
export interface ModelTiers {
  default: Model;
  /** Cheap and fast: routing, research, the final report. */
  basic?: Model;
  /** Slow and careful: planning and re-planning. */
  reasoning?: Model;
  /** Reads images: the browser role's model (screenshots reach it as image parts). */
  vision?: Model;
}

/** Every part of the flow that calls a model. */
export type FlowPart = 'coordinator' | 'lookFirst' | 'planner' | 'updater' | 'coder' | 'researcher' | 'reporter' | 'browser' | 'report' | 'analyst';

/** Which tier each part asks for. */
export const TIER_OF: Record<FlowPart, keyof ModelTiers> = {
  coordinator: 'basic',
  lookFirst: 'basic',
  planner: 'reasoning',
  updater: 'reasoning',
  coder: 'default',
  researcher: 'basic',
  reporter: 'default',
  browser: 'vision',
  report: 'basic',
  analyst: 'default',
};

/** The model a part of the flow uses: its tier when configured, else the default model. */
export function modelFor(tiers: ModelTiers, part: FlowPart): Model {
  return tiers[TIER_OF[part]] ?? tiers.default;
}
