import type { WebviewIntent } from '../../src/shared/webviewProtocol';
import { button, h } from './dom';
import { icon } from './icons';
import type { Translate } from './strings';

/**
 * The buttons of a running command's card: stop this command alone (the task goes on), or let it
 * run in the background (the call returns now). Intents only; the host finds the process.
 */
export function commandControls(callId: string, t: Translate, post: (intent: WebviewIntent) => void): HTMLElement {
  return h('div', { class: 'buttons command-controls' },
    button(t('stopCommand'), () => post({ type: 'stopCommand', callId }), { kind: 'secondary', icon: icon('stop'), action: 'stop-command' }),
    button(t('backgroundCommand'), () => post({ type: 'backgroundCommand', callId }), { kind: 'secondary', action: 'background-command' }));
}
