import { PermissionMode } from '../../src/shared/sandboxModes';
import type { WebviewIntent } from '../../src/shared/webviewProtocol';
import { h, setShown } from './dom';
import type { AppState } from './store';

/** The label of each permission mode in the switch (string keys). */
const LABELS: Record<PermissionMode, 'permissionAsk' | 'permissionAuto' | 'permissionReadOnly' | 'permissionFull'> = {
  ask: 'permissionAsk',
  auto: 'permissionAuto',
  'read-only': 'permissionReadOnly',
  full: 'permissionFull',
};

/**
 * The chat box's permission switch: shows the mode commands and edits follow now and changes it
 * (`setPermissionMode`; the host saves it as the user's setting, and the status brings it back).
 * Under it, a warning for full access, or why the sandbox cannot run here.
 */
export class PermissionSwitch {
  readonly select: HTMLSelectElement;
  readonly note: HTMLElement;

  constructor(private readonly post: (intent: WebviewIntent) => boolean) {
    this.select = h('select', { class: 'permission-mode', 'data-role': 'permission-mode' });
    for (const mode of PermissionMode.options) this.select.appendChild(h('option', { value: mode }));
    this.select.addEventListener('change', () => {
      const mode = PermissionMode.safeParse(this.select.value);
      if (mode.success) this.post({ type: 'setPermissionMode', mode: mode.data });
    });
    this.note = h('div', { class: 'permission-note', 'data-role': 'permission-note', role: 'note' });
  }

  /** Shows the host's mode (the select follows the status, so a refused change does not stay shown). */
  render(state: AppState): void {
    const t = state.t;
    const mode = state.status.permissionMode ?? 'ask';
    for (const option of Array.from(this.select.options)) option.textContent = t(LABELS[option.value as PermissionMode]);
    if (this.select.value !== mode) this.select.value = mode;
    this.select.setAttribute('aria-label', t('permissionLabel'));
    this.select.title = t('permissionLabel');
    this.select.dataset.mode = mode;
    const unavailable = state.status.sandboxUnavailable;
    const text = mode === 'full' ? t('permissionFullWarning') : unavailable ? t('permissionNoSandbox', unavailable) : '';
    if (this.note.textContent !== text) this.note.textContent = text;
    this.note.dataset.kind = mode === 'full' ? 'warning' : 'info';
    setShown(this.note, text !== '');
  }
}
