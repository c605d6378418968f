import assert from 'node:assert/strict';
import { workspaceValueAllowed } from '../../../src/host/common/config/settingScope';
import { parseStepwiseConfig } from '../../../src/host/common/config/stepwiseConfig';

describe('stepwise.history.* settings', () => {
  const rows: { name: string; settings: Record<string, unknown>; age: number; size: number; problems: number }[] = [
    { name: 'defaults: 30 days, 200 MB', settings: {}, age: 30, size: 200, problems: 0 },
    { name: '0 keeps everything', settings: { 'history.maxAgeDays': 0, 'history.maxSizeMb': 0 }, age: 0, size: 0, problems: 0 },
    { name: 'custom limits', settings: { 'history.maxAgeDays': 7, 'history.maxSizeMb': 50.5 }, age: 7, size: 50.5, problems: 0 },
    { name: 'negative values are ignored (defaults, reported)', settings: { 'history.maxAgeDays': -1, 'history.maxSizeMb': -5 }, age: 30, size: 200, problems: 2 },
    { name: 'a string is ignored (default, reported)', settings: { 'history.maxAgeDays': 'forever' }, age: 30, size: 200, problems: 1 },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const { config, problems } = parseStepwiseConfig((key) => row.settings[key]);
      assert.deepEqual([config.historyMaxAgeDays, config.historyMaxSizeMb, problems.length], [row.age, row.size, row.problems]);
    });
  }

  it('a workspace cannot set them unless trusted and confirmed (it could make Stepwise delete other projects\' history)', () => {
    for (const key of ['history.maxAgeDays', 'history.maxSizeMb']) {
      assert.equal(workspaceValueAllowed(key, { trusted: false, confirmed: true }), false, key);
      assert.equal(workspaceValueAllowed(key, { trusted: true, confirmed: false }), false, key);
      assert.equal(workspaceValueAllowed(key, { trusted: true, confirmed: true }), true, key);
    }
  });
});
