import { strict as assert } from 'node:assert';
import { neutralRepositorySettings, parseConfigList, type ConfigEntry } from '../../../src/node/git/repositoryConfig';

// Which repository settings are made inert, and to what: the user's own value when they have one.
const local = (name: string, value = '/tmp/evil'): ConfigEntry => ({ scope: 'local', name, value });
const user = (name: string, value: string): ConfigEntry => ({ scope: 'global', name, value });

describe('neutralRepositorySettings', () => {
  const rows: Array<[string, ConfigEntry[], Array<[string, string]>]> = [
    ['a filter driver is blanked and no longer required', [local('filter.x.clean'), local('filter.x.process'), local('filter.x.required', 'true')],
      [['filter.x.clean', ''], ['filter.x.process', ''], ['filter.x.required', 'false']]],
    ["the user's own driver of the same name is kept, required as they set it", [user('filter.lfs.clean', 'git-lfs clean -- %f'), local('filter.lfs.clean')],
      [['filter.lfs.clean', 'git-lfs clean -- %f']]],
    ['a per-command pager', [local('pager.status')], [['pager.status', 'false']]],
    ['ssh command and proxy', [local('core.sshcommand'), local('core.gitproxy')], [['core.sshcommand', 'ssh'], ['core.gitproxy', 'none']]],
    ['credential helper per URL', [local('credential.https://example.com.helper')], [['credential.https://example.com.helper', '']]],
    ['a protocol the repository allows', [local('protocol.ext.allow', 'always')], [['protocol.ext.allow', 'never']]],
    ['merge driver, gpg programs, alternate refs, diff filter', [local('merge.m.driver'), local('gpg.program'), local('gpg.ssh.program'), local('core.alternaterefscommand'), local('interactive.difffilter')],
      [['merge.m.driver', ''], ['gpg.program', ''], ['gpg.ssh.program', ''], ['core.alternaterefscommand', ''], ['interactive.difffilter', '']]],
    ['worktree and unknown scopes are the repository too', [{ scope: 'worktree', name: 'filter.w.smudge', value: 'x' }],
      [['filter.w.smudge', ''], ['filter.w.required', 'false']]],
    ['fixed neutral names, user scopes, our own scope and harmless names are left alone',
      [local('core.fsmonitor'), local('core.hookspath'), user('filter.g.clean', 'x'), { scope: 'command', name: 'filter.c.clean', value: 'x' }, local('user.name', 'me')], []],
  ];
  for (const [name, entries, expected] of rows) it(name, () => assert.deepEqual(neutralRepositorySettings(entries), expected));

  it('parses `git config -z --list --show-scope` output, values with newlines and keys without values', () => {
    const out = 'global\0user.name\nme\0local\0filter.x.clean\nline1\nline2\0local\0core.bare\0';
    assert.deepEqual(parseConfigList(out), [
      { scope: 'global', name: 'user.name', value: 'me' },
      { scope: 'local', name: 'filter.x.clean', value: 'line1\nline2' },
      { scope: 'local', name: 'core.bare', value: '' },
    ]);
  });
});
