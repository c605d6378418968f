import assert from 'node:assert/strict';
import { parseCliArgs, UsageError } from '../../../src/cli/cliArgs';
import { cliApiKey, endpointProblem } from '../../../src/cli/cliModelMaker';

// Issue 23: `--provider anthropic` takes its key from ANTHROPIC_API_KEY and never OpenAI's
// variables; the flags that belong to one provider are refused with the other.

describe('stepwise run --provider', () => {
  const env = { OPENAI_API_KEY: 'sk-openai', OPENAI_BASE_URL: 'http://openai.local/v1', ANTHROPIC_API_KEY: 'sk-ant' };

  it('defaults to openai, with OpenAI’s key and base URL', () => {
    const options = parseCliArgs(['run', 'x'], env, '/w')!;
    assert.equal(options.provider, 'openai');
    assert.equal(options.baseUrl, 'http://openai.local/v1');
    assert.equal(cliApiKey(options, env), 'sk-openai');
  });

  it('anthropic: ANTHROPIC_API_KEY, no OPENAI_BASE_URL, ANTHROPIC_BASE_URL when set', () => {
    const options = parseCliArgs(['run', 'x', '--provider', 'anthropic', '--thinking-budget', '2048'], env, '/w')!;
    assert.equal(options.provider, 'anthropic');
    assert.equal(options.baseUrl, undefined);
    assert.equal(options.thinkingBudget, 2048);
    assert.equal(cliApiKey(options, env), 'sk-ant');
    assert.equal(parseCliArgs(['run', 'x', '--provider', 'anthropic'], { ...env, ANTHROPIC_BASE_URL: 'http://proxy.local' }, '/w')!.baseUrl, 'http://proxy.local');
  });

  it('anthropic without ANTHROPIC_API_KEY says so (neither OPENAI_API_KEY nor STEPWISE_API_KEY is used for it)', () => {
    const others = { OPENAI_API_KEY: 'sk-openai', STEPWISE_API_KEY: 'sk-stepwise' };
    const options = parseCliArgs(['run', 'x', '--provider', 'anthropic'], others, '/w')!;
    const key = cliApiKey(options, others);
    assert.equal(key, undefined);
    assert.match(endpointProblem(options, key) ?? '', /ANTHROPIC_API_KEY/);
  });

  const refused: Array<[string, string[], RegExp]> = [
    ['an unknown provider', ['--provider', 'gemini'], /--provider must be openai or anthropic/],
    ['a thinking budget without anthropic', ['--thinking-budget', '2048'], /needs --provider anthropic/],
    ['a thinking budget under 1024', ['--provider', 'anthropic', '--thinking-budget', '512'], /at least 1024/],
    ['Azure with anthropic', ['--provider', 'anthropic', '--azure-api-version', '2024-10-21'], /exclude each other/],
  ];
  for (const [name, args, message] of refused) {
    it(`refuses ${name}`, () => assert.throws(() => parseCliArgs(['run', 'x', ...args], env, '/w'), (e: unknown) => e instanceof UsageError && message.test(e.message)));
  }
});
