import { MAX_TASK_IMAGE_BYTES, MAX_TASK_IMAGES, TASK_IMAGE_TYPES, type TaskImage } from '../../src/shared/taskImages';
import { button, h, replaceChildren, setShown, setText } from './dom';
import { icon } from './icons';
import type { Translate } from './strings';

/**
 * The images attached to the next task (pasted or dropped into the chat box), shown as thumbnails
 * with a remove button each. Only a first check happens here (type, size, count) so the user hears
 * at once; the core checks the bytes again before any model sees them.
 */
export class Attachments {
  readonly element = h('div', { class: 'attachments', 'data-role': 'attachments' });
  private readonly list = h('ul', { class: 'attachment-list', role: 'list' });
  private readonly note = h('div', { class: 'attachment-note', role: 'status', 'aria-live': 'polite', 'data-role': 'attachment-note' });
  private images: TaskImage[] = [];
  private t: Translate | undefined;

  constructor(private readonly onChange: () => void) {
    this.element.append(this.list, this.note);
    setShown(this.list, false);
  }

  /** The attached images, in order. */
  get current(): readonly TaskImage[] {
    return this.images;
  }

  /** Reads image files (pasted or dropped) and attaches those that fit; says why for the others. */
  async add(files: readonly File[]): Promise<void> {
    const t = this.t;
    const problems: string[] = [];
    for (const file of files) {
      const name = file.name || 'image';
      if (!(TASK_IMAGE_TYPES as readonly string[]).includes(file.type)) problems.push(t ? t('imageWrongType', name) : name);
      else if (file.size > MAX_TASK_IMAGE_BYTES) problems.push(t ? t('imageTooLarge', name, String(MAX_TASK_IMAGE_BYTES / 1024 / 1024)) : name);
      else if (this.images.length >= MAX_TASK_IMAGES) problems.push(t ? t('imageTooMany', String(MAX_TASK_IMAGES)) : name);
      else this.images.push({ name, mimeType: file.type as TaskImage['mimeType'], data: await base64Of(file) });
    }
    this.say(problems.join(' '));
    this.draw();
    this.onChange();
  }

  /** Drops every attachment (after the task was sent). */
  clear(): void {
    this.images = [];
    this.say('');
    this.draw();
  }

  /** Shows a short line under the thumbnails (why something was not attached); '' clears it. */
  say(text: string): void {
    setText(this.note, text);
    setShown(this.note, text !== '');
  }

  /** Redraws with the current language. */
  render(t: Translate): void {
    if (t === this.t) return;
    this.t = t;
    this.draw();
  }

  private draw(): void {
    const t = this.t;
    setShown(this.list, this.images.length > 0);
    replaceChildren(this.list, ...this.images.map((image, index) => {
      const label = t ? t('removeImage', image.name) : image.name;
      const remove = button('', () => this.remove(index), { kind: 'icon', icon: icon('cross'), title: label, action: 'remove-image' });
      remove.setAttribute('aria-label', label);
      return h('li', { class: 'attachment', 'data-role': 'attachment', title: image.name },
        h('img', { class: 'attachment-thumb', src: `data:${image.mimeType};base64,${image.data}`, alt: image.name }),
        remove);
    }));
  }

  private remove(index: number): void {
    const removed = this.images.splice(index, 1)[0];
    this.draw();
    if (removed && this.t) this.say(this.t('imageRemoved', removed.name));
    this.onChange();
  }
}

/** The file's bytes as base64 (without the `data:` prefix). */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('could not read the file'));
    reader.readAsDataURL(file);
  });
}

/** The image files among pasted or dropped items. */
export function imageFiles(data: DataTransfer | null): File[] {
  if (!data) return [];
  return Array.from(data.files).filter((file) => file.type.startsWith('image/'));
}

/** `file:`/`vscode-*:` URIs dragged from the Explorer or an editor tab (`text/uri-list`), without comments. */
export function droppedUris(data: DataTransfer | null): string[] {
  const list = data?.getData('text/uri-list') ?? '';
  return list.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#')).slice(0, 50);
}
