import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { activateStepwise, EXTENSION_ID } from './hostTestSupport';

describe('activation (real VS Code extension host)', () => {
  it('activates and returns its API', async () => {
    const api = await activateStepwise();
    assert.equal(vscode.extensions.getExtension(EXTENSION_ID)?.isActive, true);
    assert.equal(api.controller.isRunning, false);
    console.log(`[test]   (VS Code ${vscode.version}, ${vscode.env.appName}, node ${process.version})`);
  });

  it('registers every contributed command', async () => {
    await activateStepwise();
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    const manifest = JSON.parse(readFileSync(path.join(extension.extensionPath, 'package.json'), 'utf8')) as {
      contributes: { commands: Array<{ command: string }> };
    };
    const contributed = manifest.contributes.commands.map((c) => c.command);
    assert.ok(contributed.length >= 12, 'the manifest contributes the Stepwise commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `commands contributed but not registered: ${missing.join(', ')}`);
  });

  it('offers every built-in tool in a trusted workspace and only read-only ones in Restricted Mode', async () => {
    const api = await activateStepwise();
    const trusted = api.toolNames(true);
    for (const name of ['read_file', 'list_files', 'search_files', 'read_output', 'write_file', 'edit_file', 'run_command', 'ask_user', 'finish']) {
      assert.ok(trusted.includes(name), `${name} is offered in a trusted workspace`);
    }
    const restricted = api.toolNames(false).sort();
    assert.deepEqual(restricted, ['ask_user', 'finish', 'list_files', 'read_file', 'read_output', 'search_files']);
  });
});
