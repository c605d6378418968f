import type { StepwiseConfig } from '../../common/config/stepwiseConfig';

/**
 * Whether the task's images would reach a model that reads them (as `ModelProvider.resolve` builds the
 * tiers): the vision tier, or the main model marked vision-capable. A VS Code language model in use
 * (`lmInUse`) takes no images here; without one the endpoint's tiers apply.
 */
export function readsImages(config: Pick<StepwiseConfig, 'modelVision' | 'modelVisionCapable'>, lmInUse: boolean): boolean {
  if (lmInUse) return false;
  return Boolean(config.modelVision) || config.modelVisionCapable;
}
