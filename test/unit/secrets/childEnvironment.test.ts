import assert from 'node:assert/strict';
import { ChildKind, childEnvironment } from '../../../src/agent/secrets/childEnvironment';
import { NEUTRAL_GIT_CONFIG, NEUTRAL_GIT_ENV } from '../../../src/agent/secrets/gitNeutral';
import { Redactor } from '../../../src/agent/secrets/redactor';

// The one builder of every child's environment: secrets leave by name and by value for every kind;
// the user's pass-through stays; git gets its neutral settings whatever the caller or parent says.
const KEY = 'sk-test-childenv-0123456789abcdef';
const parent = {
  PATH: '/usr/bin', HOME: '/home/u', LANG: 'C.UTF-8', SHELL: '/bin/bash', TERM: 'xterm',
  OPENAI_API_KEY: KEY, // by name
  INNOCENT_NAME: `prefix-${KEY}`, // by value: the known key inside an ordinary name
  NPM_TOKEN: 'npm-token-value-123', // by name, but passed through by the user below
  GITHUB_TOKEN: 'ghp-not-passed-1234', // by name
  GIT_DIR: '/elsewhere/.git', GIT_EXTERNAL_DIFF: '/tmp/evil', GIT_CONFIG_PARAMETERS: "'core.fsmonitor'='/tmp/evil'",
  GIT_CONFIG_GLOBAL: '/home/u/.gitconfig-work',
  EDITOR_FLAVOUR: 'vim',
};
const redactor = new Redactor();
redactor.add(KEY);
const rules = { passThrough: ['NPM_TOKEN'], isSecretValue: (v: string) => redactor.contains(v) };

describe('childEnvironment: the one builder of every child environment', () => {
  for (const kind of ChildKind.options) {
    it(`${kind}: no known key by name or value; the user's pass-through stays`, () => {
      const env = childEnvironment({ kind, parent, rules, explicit: { SMUGGLED: KEY, OWN: 'ok' } });
      assert.deepEqual(Object.entries(env).filter(([, v]) => v.includes(KEY)), [], 'no variable holds the key');
      assert.equal(env.OPENAI_API_KEY, undefined);
      assert.equal(env.GITHUB_TOKEN, undefined);
      assert.equal(env.SMUGGLED, undefined, 'an explicit variable holding the key is dropped too');
      assert.equal(env.OWN, 'ok', 'explicit variables are kept');
      assert.equal(env.PATH, '/usr/bin');
      if (kind === 'command' || kind === 'browser' || kind === 'tool') assert.equal(env.NPM_TOKEN, 'npm-token-value-123', 'passed through');
    });
  }

  const bases: Array<[ChildKind, string, boolean]> = [
    ['command', 'EDITOR_FLAVOUR', true], ['browser', 'EDITOR_FLAVOUR', true], ['tool', 'EDITOR_FLAVOUR', true],
    ['server', 'EDITOR_FLAVOUR', false], ['server', 'SHELL', true], ['git', 'EDITOR_FLAVOUR', false], ['git', 'LANG', true],
    ['git', 'GIT_DIR', false], ['git', 'GIT_EXTERNAL_DIFF', false], ['git', 'GIT_CONFIG_PARAMETERS', false], ['git', 'GIT_CONFIG_GLOBAL', true],
  ];
  for (const [kind, name, kept] of bases) {
    it(`${kind}: ${name} is ${kept ? 'kept' : 'not inherited'}`, () => {
      assert.equal(name in childEnvironment({ kind, parent, rules }), kept);
    });
  }

  it('git: the neutral variables and settings come last, so neither caller nor parent undoes them', () => {
    const env = childEnvironment({ kind: 'git', parent: { ...parent, GIT_PAGER: 'less', GIT_ASKPASS: '/tmp/evil' }, explicit: { GIT_TERMINAL_PROMPT: '1', GIT_CONFIG_COUNT: '0' }, gitConfig: [['filter.x.clean', '']] });
    for (const [name, value] of Object.entries(NEUTRAL_GIT_ENV)) assert.equal(env[name], value, name);
    const settings = NEUTRAL_GIT_CONFIG.length + 1;
    assert.equal(env.GIT_CONFIG_COUNT, String(settings));
    assert.equal(env.GIT_CONFIG_KEY_0, 'core.fsmonitor');
    assert.equal(env.GIT_CONFIG_VALUE_0, 'false');
    assert.equal(env[`GIT_CONFIG_KEY_${settings - 1}`], 'filter.x.clean');
    assert.equal(env[`GIT_CONFIG_VALUE_${settings - 1}`], '');
  });

  it('omits a named parent variable (the watchdog must not carry the tag it sweeps)', () => {
    assert.equal('EDITOR_FLAVOUR' in childEnvironment({ kind: 'tool', parent, omit: ['EDITOR_FLAVOUR'] }), false);
  });
});
