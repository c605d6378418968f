import assert from 'node:assert/strict';
import { parseStepwiseConfig } from '../../../src/host/common/config/stepwiseConfig';
import { taskContextOptions } from '../../../src/host/common/task/taskContextOptions';

const configWith = (values: Record<string, unknown>) => parseStepwiseConfig((key) => values[key]).config;

describe("a run's context window", () => {
  // [stepwise.contextWindow, the window the provider reports (VS Code's maxInputTokens), what the run gets]
  const table: Array<[number, number | undefined, number | undefined]> = [
    [0, undefined, undefined], // nothing known: the model catalog decides
    [0, 64_000, 64_000], // a VS Code model set in settings.json by hand: its own limit, not the catalog's larger one
    [32_768, 64_000, 32_768], // the setting (the set-up saves it) wins
    [32_768, undefined, 32_768],
  ];
  for (const [setting, reported, expected] of table) {
    it(`setting ${setting}, reported ${reported ?? 'nothing'} -> ${expected ?? 'the catalog'}`, () => {
      const options = taskContextOptions(configWith({ contextWindow: setting }), [], reported);
      assert.equal(options.agentLimits.contextWindow, expected);
    });
  }
});
