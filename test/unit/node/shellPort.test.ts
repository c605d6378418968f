import { strict as assert } from 'node:assert';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pickShell } from '../../../src/node/shell/pickShell';
import { shellCandidates, shellInvocation, type ShellPreference } from '../../../src/node/shell/shellChoice';
import { descendantsOf, parseProcessList } from '../../../src/node/shell/windowsProcesses';
import { renameRetrying } from '../../../src/node/renameRetrying';

const WIN = { platform: 'win32' as const, env: { ProgramFiles: 'C:\\Program Files', SystemRoot: 'C:\\Windows', ComSpec: 'C:\\Windows\\system32\\cmd.exe' } };

describe('shell port: which shell, in which order', () => {
  const table: [NodeJS.Platform, ShellPreference, string[]][] = [
    ['win32', 'auto', ['pwsh', 'Windows PowerShell', 'cmd.exe']],
    ['win32', 'cmd', ['cmd.exe', 'pwsh', 'Windows PowerShell']],
    ['win32', 'powershell', ['Windows PowerShell', 'pwsh', 'cmd.exe']],
    ['win32', 'gitbash', ['Git Bash', 'pwsh', 'Windows PowerShell', 'cmd.exe']],
    ['linux', 'auto', ['bash', 'sh']],
    ['linux', 'sh', ['sh', 'bash']],
    ['darwin', 'cmd', ['bash', 'sh']],
  ];
  for (const [platform, preference, names] of table) {
    it(`${platform} ${preference}: ${names.join(' > ')}`, () => {
      assert.deepEqual(shellCandidates(preference, { ...WIN, platform }).map((c) => c.name), names);
    });
  }

  it('builds argv per dialect: cmd.exe verbatim /d /s /c "…", PowerShell -Command without profile, POSIX -c', () => {
    assert.deepEqual(shellInvocation({ dialect: 'cmd', name: 'cmd.exe', file: 'C:\\cmd.exe' }, 'echo "a b" & exit /b 3'), {
      file: 'C:\\cmd.exe', args: ['/d', '/s', '/c', '"echo "a b" & exit /b 3"'], windowsVerbatimArguments: true,
    });
    const ps = shellInvocation({ dialect: 'powershell', name: 'pwsh', file: 'pwsh' }, 'Get-Date; exit 2');
    assert.deepEqual(ps.args.slice(-2), ['-Command', 'Get-Date; exit 2']);
    assert.ok(ps.args.includes('-NoProfile') && ps.args.includes('-NonInteractive'));
    assert.deepEqual(shellInvocation({ dialect: 'posix', name: 'bash', file: '/bin/bash' }, 'ls').args, ['-c', 'ls']);
  });
});

describe('shell port: pickShell probes PowerShell before choosing it', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'stepwise-shells-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  async function tool(name: string, body: string): Promise<string> {
    const file = path.join(dir, name);
    await writeFile(file, `#!/bin/sh\n${body}\n`);
    await chmod(file, 0o755);
    return file;
  }

  it('takes pwsh when it answers with its version', async () => {
    const pwsh = await tool('pwsh', 'echo 7');
    const cmd = await tool('cmd.exe', 'exit 0');
    const shell = await pickShell('auto', { platform: 'win32', env: { PATH: dir, ComSpec: cmd, SystemRoot: dir, ProgramFiles: dir } });
    assert.deepEqual(shell, { dialect: 'powershell', name: 'pwsh', file: pwsh });
  });

  it('falls back to cmd.exe when PowerShell is a stub that prints nothing (as under Wine)', async () => {
    await tool('pwsh', 'exit 0');
    await tool('powershell', 'exit 0');
    const cmd = await tool('cmd.exe', 'exit 0');
    const shell = await pickShell('auto', { platform: 'win32', env: { PATH: dir, ComSpec: cmd, SystemRoot: dir, ProgramFiles: dir } });
    assert.deepEqual(shell, { dialect: 'cmd', name: 'cmd.exe', file: cmd });
  });

  it('takes the user\'s pick first (cmd even when pwsh works)', async () => {
    await tool('pwsh', 'echo 7');
    const cmd = await tool('cmd.exe', 'exit 0');
    assert.equal((await pickShell('cmd', { platform: 'win32', env: { PATH: dir, ComSpec: cmd, SystemRoot: dir, ProgramFiles: dir } })).name, 'cmd.exe');
  });
});

describe('Windows process trees by parent chain', () => {
  const wmic = '\uFEFFName            ParentProcessID ProcessID\r\nnode.exe        0               32\r\ncmd.exe         32              280\r\nconhost.exe     280             296\r\nping.exe        280             304\r\nsvc host.exe    1               77\r\nping.exe        304             400\r\n';
  it('parses wmic and CIM rows (names with spaces)', () => {
    const rows = parseProcessList(wmic);
    assert.equal(rows.length, 6);
    assert.deepEqual(rows[4], { name: 'svc host.exe', ppid: 1, pid: 77 });
  });
  it('finds every descendant, orphans of an ended parent included, nothing else', () => {
    const rows = parseProcessList(wmic);
    assert.deepEqual(descendantsOf(rows, 280), [296, 304, 400]);
    assert.deepEqual(descendantsOf(rows.filter((r) => r.pid !== 280), 280), [296, 304, 400]);
    assert.deepEqual(descendantsOf(rows, 77), []);
  });
});

describe('atomic replace on Windows: a target held open', () => {
  const busy = (code: string) => Object.assign(new Error(code), { code });
  const deps = (failures: number, code: string, platform: NodeJS.Platform = 'win32') => {
    let calls = 0;
    return { calls: () => calls, deps: { platform, sleep: async () => undefined, rename: async () => { calls++; if (calls <= failures) throw busy(code); } } };
  };
  it('retries EBUSY / EPERM / EACCES until the other program lets go', async () => {
    for (const code of ['EBUSY', 'EPERM', 'EACCES']) {
      const d = deps(3, code);
      await renameRetrying('a', 'b', undefined, d.deps);
      assert.equal(d.calls(), 4, code);
    }
  });
  it('then gives up with a clear error naming the file', async () => {
    const d = deps(100, 'EBUSY');
    await assert.rejects(renameRetrying('a', 'C:\\ws\\held.txt', undefined, d.deps), /C:\\ws\\held\.txt is held open by another program \(EBUSY\); the file was not changed/);
    assert.equal(d.calls(), 10);
  });
  it('does not retry elsewhere, nor other codes', async () => {
    const linux = deps(1, 'EBUSY', 'linux');
    await assert.rejects(renameRetrying('a', 'b', undefined, linux.deps), /EBUSY/);
    assert.equal(linux.calls(), 1);
    const other = deps(1, 'ENOSPC');
    await assert.rejects(renameRetrying('a', 'b', undefined, other.deps), /ENOSPC/);
    assert.equal(other.calls(), 1);
  });
});
