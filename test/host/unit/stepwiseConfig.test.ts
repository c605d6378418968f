import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_AUTO_APPROVE, DEFAULT_COMMAND_ALLOW, DEFAULT_COMMAND_DENY, DEFAULT_ENV_PASS_THROUGH } from '../../../src/agent/policy/defaults';
import { parseCliArgs } from '../../../src/cli/cliArgs';
import { cliRules } from '../../../src/cli/cliConfig';
import { parseStepwiseConfig } from '../../../src/host/common/config/stepwiseConfig';
import { DEFAULT_LIMITS } from '../../../src/agent/loop/runTypes';
import { DEFAULT_MAX_FILE_BYTES } from '../../../src/node/checkpoints/gitSnapshot';
import { DEFAULT_PRUNE } from '../../../src/node/checkpoints/pruneCheckpoints';

describe('stepwise.* settings', () => {
  it('gives defaults when nothing is set', () => {
    const { config, problems } = parseStepwiseConfig(() => undefined);
    assert.deepEqual(problems, []);
    assert.equal(config.provider, 'openai-compatible');
    assert.equal(config.maxTurns, 60);
    assert.deepEqual(config.autoApprove, ['read']);
    assert.equal(config.planMode, 'auto');
  });

  it('reads valid values by their setting keys', () => {
    const values: Record<string, unknown> = {
      'approvals.autoApprove': ['read', 'edit'],
      'commands.allow': ['npm test'],
      'plan.review': 'ask',
      'models.reasoning': 'o3',
      maxTurns: 12,
    };
    const { config, problems } = parseStepwiseConfig((key) => values[key]);
    assert.deepEqual(problems, []);
    assert.deepEqual(config.autoApprove, ['read', 'edit']);
    assert.deepEqual(config.commandsAllow, ['npm test']);
    assert.equal(config.planReview, 'ask');
    assert.equal(config.modelReasoning, 'o3');
    assert.equal(config.maxTurns, 12);
  });

  it('replaces an invalid value by its default and reports it', () => {
    const values: Record<string, unknown> = { maxTurns: -3, 'approvals.autoApprove': ['read', 'everything'], provider: 'vscode-lm' };
    const { config, problems } = parseStepwiseConfig((key) => values[key]);
    assert.equal(config.maxTurns, 60);
    assert.deepEqual(config.autoApprove, ['read']);
    assert.equal(config.provider, 'vscode-lm');
    assert.equal(problems.length, 2);
    assert.ok(problems.some((p) => p.startsWith('stepwise.maxTurns')));
    assert.ok(problems.some((p) => p.startsWith('stepwise.approvals.autoApprove')));
  });
});

describe('approval defaults: one set, in the core', () => {
  const manifest = JSON.parse(readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as {
    contributes: { configuration: Array<{ properties: Record<string, { default?: unknown }> }> | { properties: Record<string, { default?: unknown }> } };
  };
  const sections = Array.isArray(manifest.contributes.configuration) ? manifest.contributes.configuration : [manifest.contributes.configuration];
  const defaultOf = (key: string) => sections.map((s) => s.properties[key]).find((p) => p !== undefined)?.default;

  it("package.json contributes the core's defaults, and the settings and the CLI use them", () => {
    assert.deepEqual(defaultOf('stepwise.commands.deny'), DEFAULT_COMMAND_DENY);
    assert.deepEqual(defaultOf('stepwise.commands.allow'), DEFAULT_COMMAND_ALLOW);
    assert.deepEqual(defaultOf('stepwise.approvals.autoApprove'), DEFAULT_AUTO_APPROVE);
    assert.deepEqual(defaultOf('stepwise.env.passThrough'), DEFAULT_ENV_PASS_THROUGH);
    const { config } = parseStepwiseConfig(() => undefined);
    assert.deepEqual([config.commandsDeny, config.commandsAllow, config.autoApprove], [DEFAULT_COMMAND_DENY, DEFAULT_COMMAND_ALLOW, DEFAULT_AUTO_APPROVE]);
    const cli = cliRules(parseCliArgs(['run', 'x'], {}, '/')!);
    assert.deepEqual([cli.commandsDeny, cli.commandsAllow, cli.autoApprove], [DEFAULT_COMMAND_DENY, DEFAULT_COMMAND_ALLOW, DEFAULT_AUTO_APPROVE]);
  });

  it("the turn limit, the input-token budget and the checkpoint limits are the core's, in package.json, the settings and the CLI", () => {
    const core: Array<[string, number]> = [
      ['stepwise.maxTurns', DEFAULT_LIMITS.maxTurns],
      ['stepwise.maxInputTokens', DEFAULT_LIMITS.maxInputTokens],
      ['stepwise.checkpoints.maxAgeDays', DEFAULT_PRUNE.maxAgeDays],
      ['stepwise.checkpoints.maxSizeMB', DEFAULT_PRUNE.maxSizeMB],
      ['stepwise.checkpoints.maxFileSizeMB', DEFAULT_MAX_FILE_BYTES / (1024 * 1024)],
    ];
    for (const [key, value] of core) assert.equal(defaultOf(key), value, key);
    const { config } = parseStepwiseConfig(() => undefined);
    assert.deepEqual(
      [config.maxTurns, config.maxInputTokens, config.checkpointsMaxAgeDays, config.checkpointsMaxSizeMB, config.checkpointsMaxFileSizeMB],
      core.map(([, value]) => value),
    );
    const cli = parseCliArgs(['run', 'x'], {}, '/')!;
    assert.ok(cli.command === 'run');
    assert.deepEqual([cli.maxSteps, cli.maxInputTokens], [DEFAULT_LIMITS.maxTurns, DEFAULT_LIMITS.maxInputTokens]);
  });
});
