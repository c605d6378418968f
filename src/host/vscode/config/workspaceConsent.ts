import * as vscode from 'vscode';
import { changesEndpoint, confirmLines } from '../../common/config/workspaceConfirmText';
import type { ConfirmConcern } from '../../common/config/settingTrust';
import { endpointOrigin } from '../../common/model/endpointOrigin';
import { resolveBaseUrl } from '../model/modelProvider';
import { currentWorkspaceConfirmValues, currentWorkspaceFingerprint, readConfig } from './readConfig';

/**
 * workspaceState key of the confirmed fingerprints. The name is the one the endpoint-only
 * confirmation used: a workspace that sets only its endpoint keeps its earlier yes.
 */
const CONFIRMED_KEY = 'stepwise.confirmedWorkspaceEndpoints';

/** What each concern of a `workspace-confirm` setting means to the user, in their language. */
function concernWords(): Record<ConfirmConcern, string> {
  return {
    endpoint: vscode.l10n.t('where your code and key are sent'),
    runs: vscode.l10n.t('commands run without asking'),
    program: vscode.l10n.t('a program Stepwise starts'),
    hosts: vscode.l10n.t('which addresses the web tools reach'),
    sharedData: vscode.l10n.t('data shared by all your projects'),
    spending: vscode.l10n.t('how much a task may spend'),
  };
}

/**
 * The user's confirmation of the workspace's `workspace-confirm` settings (the trust table's class:
 * endpoint, verify commands, browser program, web hosts, checkpoint and history retention,
 * budgets): a trusted workspace's values of that class are used only after the user said yes once
 * for this workspace to the values listed (remembered in workspaceState; any change asks again).
 * Refusing keeps the user's own values for this session.
 */
export class WorkspaceSettingsConsent {
  private readonly refused = new Set<string>();
  private asking: Promise<void> | undefined;

  constructor(
    private readonly state: vscode.Memento,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Whether the user confirmed the workspace values with this fingerprint. */
  isConfirmed(fingerprint: string): boolean {
    return this.state.get<string[]>(CONFIRMED_KEY, []).includes(fingerprint);
  }

  /**
   * Asks (modal) when the trusted workspace sets values not yet confirmed or refused; resolves once
   * answered (two runs starting together share one question). Nothing to ask in Restricted Mode:
   * the workspace's values of this class are ignored there.
   */
  confirmIfNeeded(): Promise<void> {
    this.asking ??= this.ask().finally(() => (this.asking = undefined));
    return this.asking;
  }

  private async ask(): Promise<void> {
    if (!vscode.workspace.isTrusted) return;
    const fingerprint = currentWorkspaceFingerprint();
    if (!fingerprint || this.isConfirmed(fingerprint) || this.refused.has(fingerprint)) return;
    const values = currentWorkspaceConfirmValues();
    const { message, ownNote } = this.headline(changesEndpoint(values));
    const use = vscode.l10n.t('Use the Workspace Settings');
    const keep = vscode.l10n.t('Use My Own Settings');
    const detail = [vscode.l10n.t('The workspace settings (.vscode/settings.json) set:'), ...confirmLines(values, concernWords()), '', ownNote].join('\n');
    const answer = await vscode.window.showWarningMessage(message, { modal: true, detail }, use, keep);
    if (answer === use) await this.state.update(CONFIRMED_KEY, [...this.state.get<string[]>(CONFIRMED_KEY, []), fingerprint]);
    else this.refused.add(fingerprint);
  }

  /** The prompt's first line (the endpoint's origin when the workspace moves it) and what happens without a yes. */
  private headline(endpoint: boolean): { message: string; ownNote: string } {
    if (!endpoint) {
      return {
        message: vscode.l10n.t('This workspace sets Stepwise settings that need your yes.'),
        ownNote: vscode.l10n.t('Without your yes, your own settings are used.'),
      };
    }
    const origin = (provider: string, baseUrl: string): string =>
      provider === 'vscode-lm' ? vscode.l10n.t('a VS Code language model') : endpointOrigin(baseUrl);
    const wanted = readConfig(() => true).config;
    const mine = readConfig(() => false, true).config;
    return {
      message: vscode.l10n.t('This workspace sends your code and key to {0}.', origin(wanted.provider, resolveBaseUrl(wanted, this.env))),
      ownNote: vscode.l10n.t('Without your yes, your own settings are used (your endpoint: {0}).', origin(mine.provider, resolveBaseUrl(mine, this.env))),
    };
  }
}
