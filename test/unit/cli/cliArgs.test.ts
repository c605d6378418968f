import { strict as assert } from 'node:assert';
import { parseCliArgs, UsageError } from '../../../src/cli/cliArgs';
import { cliRules } from '../../../src/cli/cliConfig';

describe('parseCliArgs', () => {
  const env = { STEPWISE_MODEL: 'env-model', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' };

  it('takes defaults from the environment and the current folder', () => {
    const options = parseCliArgs(['run', 'fix the tests'], env, '/work/here');
    assert.ok(options);
    assert.equal(options.task, 'fix the tests');
    assert.equal(options.workspace, '/work/here');
    assert.equal(options.model, 'env-model');
    assert.equal(options.baseUrl, 'http://127.0.0.1:1/v1');
    assert.deepEqual(cliRules(options).autoApprove, ['read']);
    assert.equal(options.maxSteps, 60);
    assert.equal(options.planMode, 'auto');
    assert.equal(options.json, false);
  });

  it('lets flags win over the environment', () => {
    const options = parseCliArgs(
      ['run', 'x', '--model', 'flag-model', '--base-url', 'http://127.0.0.1:2/v1', '--auto-approve', 'read,edit,edit', '--max-steps', '5', '--plan', '--json', '--tool-protocol', 'text'],
      env,
      '/',
    );
    assert.ok(options);
    assert.equal(options.model, 'flag-model');
    assert.equal(options.baseUrl, 'http://127.0.0.1:2/v1');
    assert.deepEqual(options.autoApprove, ['read', 'edit']);
    assert.equal(options.maxSteps, 5);
    assert.equal(options.planMode, 'always');
    assert.equal(options.json, true);
    assert.equal(options.toolProtocol, 'text');
  });

  it('returns undefined for --help', () => {
    assert.equal(parseCliArgs(['--help'], {}, '/'), undefined);
  });

  const bad: Array<[string[], RegExp]> = [
    [[], /Missing command/],
    [['go', 'x'], /Unknown command "go"/],
    [['run'], /one quoted argument/],
    [['run', 'a', 'b'], /one quoted argument/],
    [['run', 'x', '--max-steps', '0'], /--max-steps needs a positive whole number/],
    [['run', 'x', '--auto-approve', 'read,delete'], /unknown category "delete"/],
    [['run', 'x', '--plan', '--no-plan'], /exclude each other/],
    [['run', 'x', '--tool-protocol', 'xml'], /--tool-protocol/],
    [['run', 'x', '--review', 'maybe'], /--review must be auto or ask/],
    [['run', 'x', '--bogus'], /bogus/],
    [['run', 'x', '--retry-step', '1'], /--retry-step N goes with `stepwise resume/],
    [['resume', 'abc', '--retry-step', ' '], /--retry-step N goes with `stepwise resume/],
    [['resume', 'abc', 'do more', '--retry-step', '2'], /give no instruction with it/],
  ];

  it('resume --retry-step N names the step to run again', () => {
    const options = parseCliArgs(['resume', 'abc', '--retry-step', '2'], {}, '/');
    assert.equal(options?.retryStep, '2');
    assert.equal(options?.taskId, 'abc');
    assert.equal(parseCliArgs(['resume', 'abc'], {}, '/')?.retryStep, undefined);
  });
  for (const [argv, message] of bad) {
    it(`refuses ${JSON.stringify(argv)} with a usage error`, () => {
      assert.throws(() => parseCliArgs(argv, {}, '/'), (error: unknown) => error instanceof UsageError && message.test(error.message));
    });
  }

  it('reads the web flags and keys: repeatable hosts, SearXNG, browser path, vision', () => {
    const options = parseCliArgs(
      ['run', 'x', '--web-allow-host', 'localhost', '--web-allow-host', '127.0.0.1,intranet.example', '--web-deny-host', '*.ads.example', '--searxng-url', 'http://127.0.0.1:8888', '--browser-path', '/opt/chrome', '--vision', '--vision-model', 'eyes', '--auto-approve', 'read,web'],
      { ...env, TAVILY_API_KEY: 'tvly-1', BRAVE_API_KEY: ' b-2 ' },
      '/',
    );
    assert.ok(options);
    assert.deepEqual(options.web.allowHosts, ['localhost', '127.0.0.1', 'intranet.example']);
    assert.deepEqual(options.web.denyHosts, ['*.ads.example']);
    assert.equal(options.web.searxngUrl, 'http://127.0.0.1:8888');
    assert.equal(options.web.browserPath, '/opt/chrome');
    assert.equal(options.web.tavilyKey, 'tvly-1');
    assert.equal(options.web.braveKey, 'b-2');
    assert.equal(options.web.vision, true);
    assert.equal(options.web.visionModel, 'eyes');
    assert.deepEqual(options.autoApprove, ['read', 'web']);
  });

  it('has no web search and a non-vision model by default', () => {
    const options = parseCliArgs(['run', 'x'], env, '/');
    assert.ok(options);
    assert.deepEqual(JSON.parse(JSON.stringify(options.web)), { allowHosts: [], denyHosts: [], vision: false });
  });
});
