import type * as vscode from 'vscode';

/**
 * A `vscode.Memento` for one workspace kept in the extension's global state under the workspace's
 * identity (`workspaceId`), so a second window on the same folder, which VS Code may give a storage
 * folder of its own, reads the same confirmations and trust. A value only the window's own
 * `workspaceState` has (kept before) is read from there and copied over on first read.
 */
export class WorkspaceMemento implements vscode.Memento {
  private readonly prefix: string;

  constructor(
    private readonly global: vscode.Memento,
    private readonly legacy: vscode.Memento | undefined,
    id: string,
  ) {
    this.prefix = `stepwise.workspace.${id}.`;
  }

  keys(): readonly string[] {
    const own = this.global.keys().filter((k) => k.startsWith(this.prefix)).map((k) => k.slice(this.prefix.length));
    return [...new Set([...own, ...(this.legacy?.keys() ?? [])])];
  }

  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  get<T>(key: string, defaultValue?: T): T | undefined {
    const value = this.global.get<T>(this.prefix + key);
    if (value !== undefined) return value;
    const old = this.legacy?.get<T>(key);
    if (old !== undefined) {
      void this.global.update(this.prefix + key, old);
      return old;
    }
    return defaultValue;
  }

  /** Writes the workspace's value (and the window's old copy, so a cleared value does not come back from it). */
  async update(key: string, value: unknown): Promise<void> {
    await Promise.all([this.global.update(this.prefix + key, value), this.legacy?.get(key) !== undefined ? this.legacy.update(key, value) : undefined]);
  }
}
