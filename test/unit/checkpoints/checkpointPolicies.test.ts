import assert from 'node:assert/strict';
import { isInsideWorkspace } from '../../../src/agent/checkpoints/checkpointPaths';
import { largeDiffs } from '../../../src/agent/checkpoints/lastWritten';
import { isSecretFile } from '../../../src/agent/checkpoints/secretFiles';

describe('checkpoint policies (tables)', () => {
  const secret: [string, boolean][] = [
    ['.env', true],
    ['app/.env', true],
    ['.env.local', true],
    ['.env.production', true],
    ['.ENV', true],
    ['.envrc', true],
    ['.env.example', false],
    ['config/.env.sample', false],
    ['.env.template', false],
    ['.env.dist', false],
    ['..env.example', false],
    ['env.ts', false],
    ['src/environment.ts', false],
    ['server.pem', true],
    ['certs/tls.key', true],
    ['keystore.p12', true],
    ['cert.pfx', true],
    ['id_rsa', true],
    ['home/.ssh/id_ed25519', true],
    ['id_ed25519.pub', true],
    ['.npmrc', true],
    ['.netrc', true],
    ['_netrc', true],
    ['.pypirc', true],
    ['.git-credentials', true],
    ['credentials', true],
    ['.aws/credentials', true],
    ['credentials.json', true],
    ['client_secret_123.apps.json', true],
    ['secrets.yaml', true],
    ['keys.ts', false],
    ['monkey.txt', false],
    ['README.md', false],
    ['package.json', false],
    ['src/key.ts', false],
  ];
  for (const [p, expected] of secret) {
    it(`${p} is ${expected ? '' : 'not '}a secret file`, () => assert.equal(isSecretFile(p), expected));
  }

  const inside: [string, boolean][] = [
    ['a.txt', true],
    ['..env.example', true],
    ['...', true],
    ['a/..b/c', true],
    ['dir/.hidden', true],
    ['../x', false],
    ['a/../../x', false],
    ['a/../b', false],
    ['..', false],
    ['./a', false],
    ['a//b', false],
    ['/etc/passwd', false],
    ['C:/x', false],
    ['a\\..\\b', false],
    ['', false],
  ];
  for (const [p, expected] of inside) {
    it(`"${p}" is ${expected ? 'inside' : 'outside'} the workspace (by segments)`, () => assert.equal(isInsideWorkspace(p), expected));
  }

  it('large-file fingerprints differ when one appears, changes or goes', () => {
    assert.deepEqual(largeDiffs({ a: '1:x', b: '2:y', c: '3:z' }, { a: '1:x', b: '2:Y', d: '4:w' }).sort(), ['b', 'c', 'd']);
    assert.deepEqual(largeDiffs(undefined, undefined), []);
  });
});
