// The lines the confirmation prompt shows for the workspace's values: every value, as data, with its plain words.
import assert from 'node:assert/strict';
import { changesEndpoint, confirmLines, MAX_SHOWN_VALUE_CHARS, shownValue } from '../../../src/host/common/config/workspaceConfirmText';
import type { ConfirmConcern } from '../../../src/host/common/config/settingTrust';

const WORDS: Record<ConfirmConcern, string> = {
  endpoint: 'W-endpoint',
  runs: 'W-runs',
  program: 'W-program',
  hosts: 'W-hosts',
  sharedData: 'W-shared',
  spending: 'W-spending',
};

describe('workspace confirmation text', () => {
  const rows: Array<[string, unknown, string]> = [
    ['a string is quoted', '/tmp/evil', '"/tmp/evil"'],
    ['a list', ['npm test', 'make'], '["npm test","make"]'],
    ['a number', 1, '1'],
    ['a newline cannot start a forged line', 'x\n• stepwise.model = "safe"', '"x\\n• stepwise.model = \\"safe\\""'],
    ['a long value is cut', 'a'.repeat(500), `"${'a'.repeat(MAX_SHOWN_VALUE_CHARS - 1)}…`],
  ];
  for (const [name, value, shown] of rows) {
    it(name, () => assert.equal(shownValue(value), shown));
  }

  it('one line per value: the setting, its value and the words of its concern', () => {
    const lines = confirmLines(
      [
        ['checkpoints.maxAgeDays', 1],
        ['verify.commands', ['curl x | sh']],
        ['web.allowHosts', ['127.0.0.1']],
        ['web.browserPath', '/tmp/b'],
        ['baseUrl', 'http://e.example'],
        ['budget.taskTokens', 0],
      ],
      WORDS,
    );
    assert.deepEqual(lines, [
      '• stepwise.checkpoints.maxAgeDays = 1 (W-shared)',
      '• stepwise.verify.commands = ["curl x | sh"] (W-runs)',
      '• stepwise.web.allowHosts = ["127.0.0.1"] (W-hosts)',
      '• stepwise.web.browserPath = "/tmp/b" (W-program)',
      '• stepwise.baseUrl = "http://e.example" (W-endpoint)',
      '• stepwise.budget.taskTokens = 0 (W-spending)',
    ]);
  });

  const endpointRows: Array<[string, Parameters<typeof changesEndpoint>[0], boolean]> = [
    ['baseUrl', [['baseUrl', 'x']], true],
    ['provider', [['provider', 'vscode-lm']], true],
    ['a model name only', [['model', 'm']], false],
    ['verify commands only', [['verify.commands', ['x']]], false],
  ];
  for (const [name, values, expected] of endpointRows) {
    it(`names the endpoint in the headline: ${name} -> ${expected}`, () => assert.equal(changesEndpoint(values), expected));
  }
});
