import { ContextControl } from '../../../agent/context/contextControl';
import type { RulesInput } from '../../../agent/context/rulesFiles';
import type { ModelPrice } from '../../../agent/model/modelCatalog';
import type { StepwiseConfig } from '../config/stepwiseConfig';

/** What every kind of VS Code run passes to the core about its context: the user's handle, rules, prices, window. */
export interface TaskContextOptions {
  context: ContextControl;
  rules?: RulesInput;
  prices: Record<string, ModelPrice>;
  /** Spread into the agent limits. */
  agentLimits: { contextWindow?: number };
  /** Spread into the flow limits. */
  flowLimits: { taskTokenBudget: number; taskCostBudgetUsd?: number };
}

/**
 * Builds a run's context options from the settings and the files in play (e.g. the active editor's file).
 * The window is `stepwise.contextWindow`, else `reportedWindow` (what the model's provider says, e.g. VS Code's
 * `maxInputTokens`, which may be far below the catalog's window for the same model name), else the catalog's.
 */
export function taskContextOptions(config: StepwiseConfig, filesInPlay: readonly string[], reportedWindow?: number, control = new ContextControl()): TaskContextOptions {
  const window = config.contextWindow > 0 ? config.contextWindow : reportedWindow && reportedWindow > 0 ? reportedWindow : undefined;
  const anyRules = config.rulesAgentsMd || config.rulesStepwise || config.rulesCopilot || config.rulesClaude;
  return {
    context: control,
    ...(anyRules && config.rulesMaxChars > 0
      ? {
          rules: {
            settings: {
              agentsMd: config.rulesAgentsMd,
              stepwiseRules: config.rulesStepwise,
              copilotInstructions: config.rulesCopilot,
              claudeMd: config.rulesClaude,
              maxChars: config.rulesMaxChars,
            },
            filesInPlay,
          },
        }
      : {}),
    prices: config.prices,
    agentLimits: window ? { contextWindow: window } : {},
    flowLimits: { taskTokenBudget: config.taskTokenBudget, ...(config.taskCostBudgetUsd > 0 ? { taskCostBudgetUsd: config.taskCostBudgetUsd } : {}) },
  };
}
