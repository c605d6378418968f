import { strict as assert } from 'node:assert';
import { bwrapArguments, INNER_PROXY_SOCKET, type BwrapPlan } from '../../../src/node/sandbox/bwrapArgs';

const base: BwrapPlan = {
  mode: 'workspace-write', workspace: '/home/u/project', tempDir: '/var/tmp/sbx', blankFile: '/var/tmp/sbx/.hidden', cwd: '/home/u/project',
  hidden: [{ path: '/home/u/.ssh', kind: 'dir' }, { path: '/home/u/.netrc', kind: 'file' }, { path: '/home/u/project/.aws', kind: 'dir' }, { path: '/tmp/ssh-agent.sock', kind: 'file' }],
  protectedInWorkspace: ['/home/u/project/.git/hooks'],
};

/** The index of a flag followed by its operands, or -1. */
function at(args: string[], ...seq: string[]): number {
  for (let i = 0; i + seq.length <= args.length; i++) if (seq.every((s, k) => args[i + k] === s)) return i;
  return -1;
}

describe('bwrapArguments: the sandbox as bubblewrap flags', () => {
  const cases: Array<{ name: string; plan: BwrapPlan; present: string[][]; absent: string[][] }> = [
    {
      name: 'workspace-write: every namespace, no capabilities, read-only root, private /tmp, writable workspace',
      plan: base,
      present: [['--unshare-all'], ['--die-with-parent'], ['--cap-drop', 'ALL'], ['--ro-bind', '/', '/'], ['--proc', '/proc'], ['--bind', '/var/tmp/sbx', '/tmp'], ['--bind', '/home/u/project', '/home/u/project'], ['--chdir', '/home/u/project', '--']],
      absent: [['--share-net'], ['--tmpfs', '/tmp'], ['--ro-bind', '/home/u/project', '/home/u/project']],
    },
    {
      name: 'read-only: a throwaway /tmp and the workspace read-only',
      plan: { ...base, mode: 'read-only' },
      present: [['--tmpfs', '/tmp'], ['--ro-bind', '/home/u/project', '/home/u/project']],
      absent: [['--bind', '/var/tmp/sbx', '/tmp'], ['--bind', '/home/u/project', '/home/u/project']],
    },
    {
      name: 'secrets: folders become empty unreadable folders, files an unreadable blank; none inside the workspace or /tmp',
      plan: base,
      present: [['--perms', '0000', '--tmpfs', '/home/u/.ssh'], ['--ro-bind', '/var/tmp/sbx/.hidden', '/home/u/.netrc']],
      absent: [['--tmpfs', '/home/u/project/.aws'], ['/tmp/ssh-agent.sock']],
    },
    {
      name: 'protected workspace paths stay read-only; the proxy socket is bound in only when hosts are allowed',
      plan: { ...base, proxySocket: '/var/tmp/net/proxy.sock' },
      present: [['--ro-bind', '/home/u/project/.git/hooks', '/home/u/project/.git/hooks'], ['--bind', '/var/tmp/net/proxy.sock', INNER_PROXY_SOCKET]],
      absent: [],
    },
    { name: 'no proxy socket without allowed hosts', plan: base, present: [], absent: [[INNER_PROXY_SOCKET]] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const args = bwrapArguments(c.plan);
      for (const seq of c.present) assert.ok(at(args, ...seq) >= 0, `expected ${seq.join(' ')} in ${args.join(' ')}`);
      for (const seq of c.absent) assert.equal(at(args, ...seq), -1, `unexpected ${seq.join(' ')}`);
      assert.equal(args.at(-1), '--', 'the program follows');
    });
  }

  it('order: hidden locations before the workspace (a workspace inside one stays visible), protected paths after it', () => {
    const args = bwrapArguments({ ...base, hidden: [{ path: '/home/u', kind: 'dir' }] });
    const hidden = at(args, '--tmpfs', '/home/u');
    const ws = at(args, '--bind', '/home/u/project', '/home/u/project');
    const hooks = at(args, '--ro-bind', '/home/u/project/.git/hooks', '/home/u/project/.git/hooks');
    assert.ok(hidden >= 0 && hidden < ws && ws < hooks, args.join(' '));
  });
});
