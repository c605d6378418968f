import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as vscode from 'vscode';
import { adoptFiles, workspaceId } from '../../../src/host/common/workspace/workspaceIdentity';
import { WorkspaceMemento } from '../../../src/host/vscode/workspaceMemento';

/** A Memento over a Map, as VS Code's globalState / workspaceState behave. */
function memento(initial: Record<string, unknown> = {}): vscode.Memento & { data: Map<string, unknown> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    keys: () => [...data.keys()],
    get: <T>(key: string, fallback?: T) => (data.has(key) ? (data.get(key) as T) : fallback),
    update: async (key: string, value: unknown) => void (value === undefined ? data.delete(key) : data.set(key, value)),
  } as vscode.Memento & { data: Map<string, unknown> };
}

describe('workspace identity: what every window on a folder shares', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(path.join(tmpdir(), 'stepwise-wsid-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('one folder reached by its path, a trailing slash, a relative path or a symlink has one id; another folder another', () => {
    const folder = path.join(root, 'project');
    mkdirSync(folder);
    symlinkSync(folder, path.join(root, 'link'));
    const id = workspaceId(folder);
    assert.match(id, /^[0-9a-f]{20}$/);
    for (const same of [`${folder}/`, path.join(root, 'link'), path.relative(process.cwd(), folder)]) assert.equal(workspaceId(same), id, same);
    mkdirSync(path.join(root, 'other'));
    assert.notEqual(workspaceId(path.join(root, 'other')), id);
  });

  it('case is folded where the file system ignores it (Windows, macOS), not on Linux', () => {
    assert.equal(workspaceId('/Work/Project', 'win32'), workspaceId('/work/project', 'win32'));
    assert.equal(workspaceId('/Work/Project', 'darwin'), workspaceId('/work/project', 'darwin'));
    assert.notEqual(workspaceId('/Work/Project', 'linux'), workspaceId('/work/project', 'linux'));
  });

  it("adopts a window's own history files, never over one the workspace already has", () => {
    const old = path.join(root, 'window-storage', 'history');
    const shared = path.join(root, 'shared', 'history');
    mkdirSync(old, { recursive: true });
    mkdirSync(shared, { recursive: true });
    writeFileSync(path.join(old, 'r1.jsonl'), 'old r1');
    writeFileSync(path.join(old, 'r2.jsonl'), 'old r2');
    writeFileSync(path.join(shared, 'r2.jsonl'), 'shared r2');
    assert.equal(adoptFiles(old, shared), 1);
    assert.equal(readFileSync(path.join(shared, 'r1.jsonl'), 'utf8'), 'old r1');
    assert.equal(readFileSync(path.join(shared, 'r2.jsonl'), 'utf8'), 'shared r2', 'never overwritten');
    assert.equal(adoptFiles(old, shared), 0, 'once');
    assert.equal(adoptFiles(path.join(root, 'missing'), shared), 0);
    assert.equal(adoptFiles(undefined, shared), 0);
  });

  it("a second window's state finds the first window's answers; old per-window answers are read once and kept", async () => {
    const global = memento();
    const first = new WorkspaceMemento(global, memento(), 'abc');
    await first.update('stepwise.confirmed', ['fp1']);
    // A second window on the folder, with a storage folder (workspaceState) of its own.
    const second = new WorkspaceMemento(global, memento(), 'abc');
    assert.deepEqual(second.get('stepwise.confirmed'), ['fp1']);
    assert.equal(new WorkspaceMemento(global, memento(), 'other').get('stepwise.confirmed'), undefined, 'another workspace sees nothing');
    // An answer kept before, in one window's workspaceState, is found and shared from then on.
    const legacy = memento({ 'stepwise.mcpTrust': ['server-a'] });
    assert.deepEqual(new WorkspaceMemento(global, legacy, 'abc').get('stepwise.mcpTrust'), ['server-a']);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(new WorkspaceMemento(global, memento(), 'abc').get('stepwise.mcpTrust'), ['server-a']);
    // Cleared: the old copy does not bring it back.
    await new WorkspaceMemento(global, legacy, 'abc').update('stepwise.mcpTrust', undefined);
    assert.equal(new WorkspaceMemento(global, legacy, 'abc').get('stepwise.mcpTrust'), undefined);
    assert.deepEqual(new WorkspaceMemento(global, legacy, 'abc').keys().includes('stepwise.confirmed'), true);
  });
});
