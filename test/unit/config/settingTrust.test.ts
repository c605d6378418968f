// The one settings trust table against everything that repeats or depends on it: the settings package.json
// contributes, its Restricted Mode list, the README's table, the config reader's keys and the CLI's --config keys.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CliFileConfig } from '../../../src/cli/cliConfig';
import { SETTING_KEYS } from '../../../src/host/common/config/stepwiseConfig';
import { restrictedConfigurations, SETTING_TRUST, settingTrust, settingsOfClass, type SettingKey } from '../../../src/host/common/config/settingTrust';
import { README_BEGIN, README_END, trustDocs, trustTableMarkdown, withReadmeTable, withRestrictedConfigurations } from '../../../scripts/settingTrustDocs';

const ROOT = path.resolve(__dirname, '../../..');
interface Contributed {
  scope?: string;
}
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
  contributes: { configuration: { properties: Record<string, Contributed> } | Array<{ properties: Record<string, Contributed> }> };
};

/** Every `stepwise.*` setting package.json contributes, without the prefix. */
function contributedSettings(): Map<string, Contributed> {
  const sections = Array.isArray(pkg.contributes.configuration) ? pkg.contributes.configuration : [pkg.contributes.configuration];
  const out = new Map<string, Contributed>();
  for (const section of sections) for (const [key, value] of Object.entries(section.properties)) out.set(key.replace(/^stepwise\./, ''), value);
  return out;
}

const tableKeys = (): string[] => Object.keys(SETTING_TRUST).sort();

describe('settings trust table: every contributed setting has exactly one class', () => {
  it('every contributed stepwise.* setting is in the table (a new setting without a class fails here)', () => {
    const missing = [...contributedSettings().keys()].filter((key) => !Object.hasOwn(SETTING_TRUST, key));
    assert.deepEqual(missing, [], `add these to SETTING_TRUST in src/host/common/config/settingTrust.ts: ${missing.join(', ')}`);
  });

  it('every table entry is a contributed setting (no stale rows)', () => {
    const contributed = contributedSettings();
    assert.deepEqual(tableKeys().filter((key) => !contributed.has(key)), []);
  });

  it('the config reader reads exactly the table\'s settings', () => {
    assert.deepEqual([...new Set(Object.values(SETTING_KEYS))].sort(), tableKeys());
  });

  it('a key the table does not know is user-only (deny by default)', () => {
    assert.equal(settingTrust('web.proxyUrl').trust, 'user-only');
    assert.equal(settingTrust('constructor').trust, 'user-only', 'no prototype key counts as a row');
    assert.equal(settingTrust('__proto__').trust, 'user-only');
  });

  // Settings the issue names, or that name a program, a host, a command, an endpoint, spending or shared data.
  const NEVER_SAFE: string[] = [
    'verify.commands', 'web.browserPath', 'web.allowHosts', 'web.denyHosts', 'web.searxngUrl',
    'checkpoints.enabled', 'checkpoints.maxAgeDays', 'checkpoints.maxSizeMB', 'checkpoints.maxFileSizeMB',
    'history.maxAgeDays', 'history.maxSizeMb', 'mcpServers', 'provider', 'baseUrl', 'model',
    'models.basic', 'models.reasoning', 'models.vision', 'approvals.autoApprove', 'commands.allow',
    'commands.deny', 'env.passThrough', 'toolProtocol', 'budget.taskTokens', 'budget.taskCostUsd', 'prices',
  ];
  for (const key of NEVER_SAFE) {
    it(`${key} is never workspace-safe`, () => {
      assert.ok(Object.hasOwn(SETTING_TRUST, key), `${key} is a row`);
      assert.notEqual(settingTrust(key).trust, 'workspace-safe');
    });
  }

  it('a setting whose name says program, path, URL, host, command, server, model, approval, env, budget, price, checkpoint or history is not workspace-safe', () => {
    // A new setting of this kind has to be classified consciously; these are safe for the reason in their row.
    const reviewed = new Set(['models.visionCapable', 'maxInputTokens']);
    const risky = /url|path|host|command|server|provider|model|approv|env|budget|price|checkpoint|history|program|browser|proxy|key|token|secret/i;
    const wrong = settingsOfClass('workspace-safe').filter((key) => risky.test(key) && !reviewed.has(key));
    assert.deepEqual(wrong, []);
  });

  it('the user-only settings (but mcpServers, a separate workspace source) have application scope in package.json, and only they', () => {
    const contributed = contributedSettings();
    const application = [...contributed].filter(([, value]) => value.scope === 'application').map(([key]) => key).sort();
    assert.deepEqual(application, settingsOfClass('user-only').filter((key) => key !== 'mcpServers'));
  });

  it('every row says why it has its class', () => {
    for (const key of tableKeys()) assert.ok(SETTING_TRUST[key as SettingKey].why.length > 10, key);
  });
});

describe('what is derived from the table', () => {
  it('package.json restrictedConfigurations is exactly every setting that is not workspace-safe', () => {
    assert.deepEqual(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations, restrictedConfigurations());
    const restricted = new Set(restrictedConfigurations());
    for (const key of tableKeys()) assert.equal(restricted.has(`stepwise.${key}`), settingTrust(key).trust !== 'workspace-safe', key);
  });

  it('the README lists every setting with its class, as the table says', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const block = readme.slice(readme.indexOf(README_BEGIN) + README_BEGIN.length, readme.indexOf(README_END)).trim();
    assert.equal(block, trustTableMarkdown(), 'run npx tsx scripts/settingTrustDocs.ts');
    const classWords = { 'user-only': 'user only', 'workspace-confirm': 'workspace after your yes', 'workspace-safe': 'workspace' };
    for (const key of tableKeys()) assert.ok(block.includes(`| \`stepwise.${key}\` | ${classWords[settingTrust(key).trust]} |`), key);
  });

  it('scripts/settingTrustDocs.ts --check finds nothing to change', () => {
    for (const doc of trustDocs(ROOT)) assert.equal(doc.current, doc.wanted, `${doc.file}: run npx tsx scripts/settingTrustDocs.ts`);
  });

  it('the generator notices a stale README and a stale package.json (the check can fail)', () => {
    const staleReadme = `a\n${README_BEGIN}\n| \`stepwise.verify.commands\` | workspace | x |\n${README_END}\nb`;
    assert.notEqual(withReadmeTable(staleReadme), staleReadme);
    assert.ok(withReadmeTable(staleReadme).startsWith(`a\n${README_BEGIN}\n| setting |`));
    assert.ok(withReadmeTable(staleReadme).endsWith(`${README_END}\nb`));
    assert.throws(() => withReadmeTable('no markers'), /markers/);
    const stalePkg = '{\n  "x": {\n    "restrictedConfigurations": [\n      "stepwise.baseUrl"\n    ]\n  }\n}\n';
    const fixed = withRestrictedConfigurations(stalePkg);
    assert.deepEqual((JSON.parse(fixed) as { x: { restrictedConfigurations: string[] } }).x.restrictedConfigurations, restrictedConfigurations());
    assert.ok(fixed.includes('    "restrictedConfigurations": [\n      "stepwise.approvals.autoApprove",'), 'keeps the file\'s indentation');
  });
});

describe('the CLI: its --config keys (a file the user names) are settings of the table', () => {
  it('every --config key is a row of the table', () => {
    const keys: string[] = [];
    for (const [group, schema] of Object.entries(CliFileConfig.shape)) {
      // A key that is a setting itself (`hooks`, keyed by event names) is its own row.
      if (Object.hasOwn(SETTING_TRUST, group)) {
        keys.push(group);
        continue;
      }
      const inner = (schema as unknown as { unwrap(): { shape: Record<string, unknown> } }).unwrap().shape;
      for (const name of Object.keys(inner)) keys.push(`${group}.${name}`);
    }
    assert.ok(keys.length > 0);
    for (const key of keys) assert.ok(Object.hasOwn(SETTING_TRUST, key), key);
  });
});
