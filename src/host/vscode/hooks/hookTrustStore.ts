import * as vscode from 'vscode';
import type { HooksConfig, HookSource } from '../../../agent/hooks/hookConfig';
import { hookSources, readWorkspaceHooks, WORKSPACE_HOOKS_FILE, type HookTrust, type WaitingHooks } from '../../common/hooks/workspaceHooks';

/** workspaceState key: fingerprints of the workspace hooks the user trusts in this workspace. */
const TRUSTED_KEY = 'stepwise.trustedHooks';

/**
 * The user's trust in this workspace's hooks (`.stepwise/settings.json`), remembered in
 * workspaceState by fingerprint (a hash: no command is stored). Hooks that wait are asked about
 * once per session, without holding the task: the run that found them goes on without them.
 */
export class HookTrustStore implements HookTrust {
  private readonly asked = new Set<string>();

  constructor(
    private readonly state: vscode.Memento,
    /** Where a hooks file Stepwise cannot use is said (the output channel). */
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  /** Whether the user trusts the hooks with this fingerprint here. */
  isTrusted(fingerprint: string): boolean {
    return this.state.get<string[]>(TRUSTED_KEY, []).includes(fingerprint);
  }

  /** Trusts exactly these hooks (a later change of the file is new hooks to trust). */
  async trust(fingerprint: string): Promise<void> {
    await this.state.update(TRUSTED_KEY, [...this.state.get<string[]>(TRUSTED_KEY, []).filter((f) => f !== fingerprint), fingerprint]);
  }

  /** Forgets every trusted workspace hook of this workspace. */
  async revokeAll(): Promise<void> {
    await this.state.update(TRUSTED_KEY, []);
  }

  /** A run's hooks: the user's, and the workspace's trusted ones; waiting ones are asked about (not awaited). */
  async sourcesFor(user: HooksConfig, root: string): Promise<HookSource[]> {
    const found = hookSources(user, await readWorkspaceHooks(root), this, vscode.workspace.isTrusted);
    if (found.problem) this.warn(`workspace hooks not used: ${found.problem}`);
    if (found.waiting && !this.asked.has(found.waiting.fingerprint)) {
      this.asked.add(found.waiting.fingerprint);
      void this.ask(found.waiting);
    }
    return found.sources;
  }

  private async ask(waiting: WaitingHooks): Promise<void> {
    const trust = vscode.l10n.t('Trust Hooks');
    const keep = vscode.l10n.t("Don't Run");
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('Stepwise: this workspace\'s {0} has hooks that would run commands around the agent\'s actions: {1}. They run only if you trust them (from the next task on).', WORKSPACE_HOOKS_FILE, waiting.commands.join('; ')),
      trust,
      keep,
    );
    if (answer === trust) await this.trust(waiting.fingerprint);
  }
}
