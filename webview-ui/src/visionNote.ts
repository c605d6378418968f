import type { WebviewIntent } from '../../src/shared/webviewProtocol';
import { button, h, setShown, setText } from './dom';
import type { Translate } from './strings';

/**
 * Says, as soon as a picture is attached and before anything is sent, that no configured model
 * reads images, with a button to the model set-up and one that sends the words alone. While it
 * shows, the chat box does not send the picture (`blocks`).
 */
export class VisionNote {
  readonly element = h('div', { class: 'vision-note', role: 'status', 'aria-live': 'polite', 'data-role': 'vision-note' });
  private readonly words = h('p', { class: 'vision-note-words' });
  private readonly setUp: HTMLButtonElement;
  private readonly sendWithout: HTMLButtonElement;
  private shown = false;

  constructor(post: (intent: WebviewIntent) => boolean, sendWithoutImages: () => void) {
    this.setUp = button('', () => post({ type: 'openSetup' }), { kind: 'primary', action: 'open-setup-vision' });
    this.sendWithout = button('', sendWithoutImages, { kind: 'secondary', action: 'send-without-images' });
    this.element.append(this.words, h('div', { class: 'buttons' }, this.setUp, this.sendWithout));
    setShown(this.element, false);
  }

  /** Shows the note while pictures are attached and the host says no model reads them (`readsImages === false`). */
  render(t: Translate, images: number, readsImages: boolean | undefined): void {
    this.shown = images > 0 && readsImages === false;
    setShown(this.element, this.shown);
    if (!this.shown) return;
    setText(this.words, t('visionNone'));
    setLabel(this.setUp, t('visionSetUp'));
    setLabel(this.sendWithout, t('visionSendWithout'));
  }

  /** True while the attached pictures cannot go with the task: Send is not offered with them. */
  get blocks(): boolean {
    return this.shown;
  }
}

function setLabel(control: HTMLButtonElement, label: string): void {
  if (control.textContent !== label) control.textContent = label;
}
