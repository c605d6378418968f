import { strict as assert } from 'node:assert';
import { sandboxNotes, type NoteContext } from '../../../src/node/sandbox/sandboxNotes';

const context: NoteContext = { mode: 'workspace-write', workspace: '/home/u/project', hidden: ['/home/u/.ssh', '/var/run/docker.sock'] };

describe('sandboxNotes: what the sandbox blocked, read from the output', () => {
  const cases: Array<{ output: string; command?: string; mode?: NoteContext['mode']; notes: RegExp[] }> = [
    { output: 'bash: /etc/x: Read-only file system', notes: [/^blocked by the sandbox: write outside the workspace$/] },
    { output: 'touch: cannot touch \'a\': Read-only file system', mode: 'read-only', notes: [/write \(the sandbox is read-only\)/] },
    { output: 'cat: /home/u/.ssh/id_rsa: Permission denied', notes: [/\/home\/u\/\.ssh is hidden/] },
    { output: 'cat: /proc/self/root/home/u/.ssh/id_rsa: Permission denied', notes: [/\/home\/u\/\.ssh is hidden/] },
    { output: 'curl: (7) Couldn\'t connect to server', command: 'curl --unix-socket /var/run/docker.sock http://d/v', notes: [/docker\.sock is hidden/] },
    { output: 'curl: (6) Could not resolve host: example.com', notes: [/no network/] },
    { output: 'curl: (7) Failed to connect to 127.0.0.1 port 80 after 0 ms', notes: [/loopback included/] },
    { output: 'blocked by the sandbox: 10.0.0.1 is not an allowed host (allow it with …)', notes: [/host that is not allowed/] },
    { output: 'kill: (4242) - No such process', notes: [/processes outside the sandbox are not visible/] },
    { output: 'x\n[sandbox: 2 process(es) still running when the command ended were ended with it]', notes: [/^cleaned up by the sandbox: 2 process/] },
    { output: 'all tests passed\n', notes: [] },
    { output: 'cat: missing.txt: No such file or directory', notes: [] },
  ];
  for (const c of cases) {
    it(`${c.output.split('\n').at(-1)!.slice(0, 60)} -> ${c.notes.length} note(s)`, () => {
      const notes = sandboxNotes(c.output, { ...context, ...(c.mode ? { mode: c.mode } : {}) }, c.command);
      assert.equal(notes.length, c.notes.length, notes.join('\n'));
      c.notes.forEach((re, i) => assert.match(notes[i]!, re));
    });
  }
});
