import { strict as assert } from 'node:assert';
import { analyzeCommand } from '../../../src/agent/policy/analyzeCommand';
import { judgeCommand, type CommandVerdict } from '../../../src/agent/policy/commandPolicy';
import type { ShellSyntax } from '../../../src/agent/policy/shellSyntax';
import { decodeEncodedCommand } from '../../../src/agent/policy/windowsCommand';
import { nodeShellSyntax } from '../../../src/node/shellWasm';
import type { Expected } from './commandPolicyTable';
import { WINDOWS_ALLOW, WINDOWS_DENY, WINDOWS_TABLE } from './windowsCommandTable';

const expectedOf = (verdict: CommandVerdict): Expected => (verdict.kind !== 'ask' ? verdict.kind : verdict.visible ? 'ask' : 'hidden');

describe('command policy: cmd.exe and PowerShell (table)', () => {
  let syntax: ShellSyntax;
  before(async () => {
    syntax = await nodeShellSyntax();
  });

  it('covers every verdict in both dialects', () => {
    for (const dialect of ['cmd', 'powershell'] as const) {
      for (const kind of ['deny', 'allow', 'ask', 'hidden'] as const) assert.ok(WINDOWS_TABLE.some((r) => r[0] === dialect && r[2] === kind), `${dialect} ${kind}`);
    }
  });

  for (const [dialect, command, expected, construct] of WINDOWS_TABLE) {
    it(`${dialect.padEnd(10)} ${expected.padEnd(6)} ${construct}: ${JSON.stringify(command)}`, () => {
      const verdict = judgeCommand(analyzeCommand(syntax, command, dialect), { allow: WINDOWS_ALLOW, deny: WINDOWS_DENY }, 'C:\\ws');
      assert.equal(expectedOf(verdict), expected, JSON.stringify(verdict));
    });
  }

  it('the same line read as bash would not see the cmd.exe chain the same way (the dialect matters)', () => {
    // `^&` is cmd's escape; bash reads `^` as a word and `&` as an operator.
    const asBash = judgeCommand(analyzeCommand(syntax, 'echo a ^& shutdown /s'), { allow: WINDOWS_ALLOW, deny: WINDOWS_DENY }, '/ws');
    assert.equal(asBash.kind, 'deny');
  });

  it('names the deny pattern and the program, as written', () => {
    const verdict = judgeCommand(analyzeCommand(syntax, 'cmd /c "echo a && Remove-Item -Recurse x"', 'cmd'), { allow: [], deny: WINDOWS_DENY }, 'C:\\ws');
    assert.deepEqual(verdict, { kind: 'deny', pattern: 'Remove-Item *', command: 'remove-item -Recurse x' });
  });

  it('decodes -EncodedCommand as UTF-16LE base64 and refuses anything else', () => {
    assert.equal(decodeEncodedCommand(Buffer.from('Get-Date', 'utf16le').toString('base64')), 'Get-Date');
    assert.equal(decodeEncodedCommand('not base64!'), undefined);
    assert.equal(decodeEncodedCommand(Buffer.from('abc').toString('base64')), undefined);
  });
});
