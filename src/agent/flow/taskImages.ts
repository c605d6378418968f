import { MAX_TASK_IMAGE_BYTES, MAX_TASK_IMAGES, type TaskImage, type TaskImageType } from '../../shared/taskImages';
import { IMAGES_SECTION, withAttachedSection } from '../../shared/attachedContext';
import type { Usage } from '../../shared/events';
import { errorMessage, isCancellation } from '../errors';
import type { ChatImage, Model } from '../model/types';
import type { ModelTiers } from './modelTiers';

/** An image that passed `checkTaskImages`: its type is what its bytes say. */
export interface CheckedImage extends ChatImage {
  name: string;
  mimeType: TaskImageType;
  bytes: number;
}

const SIGNATURES: ReadonlyArray<{ type: TaskImageType; test: (b: Uint8Array) => boolean }> = [
  { type: 'image/png', test: (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b[i] === v) },
  { type: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/gif', test: (b) => String.fromCharCode(...b.slice(0, 6)) === 'GIF87a' || String.fromCharCode(...b.slice(0, 6)) === 'GIF89a' },
  { type: 'image/webp', test: (b) => String.fromCharCode(...b.slice(0, 4)) === 'RIFF' && String.fromCharCode(...b.slice(8, 12)) === 'WEBP' },
];

/** The image type the base64 `data` starts with (PNG, JPEG, GIF or WebP magic bytes); `undefined` for anything else or bad base64. */
export function sniffImageType(data: string): TaskImageType | undefined {
  let head: Uint8Array;
  try {
    head = Uint8Array.from(atob(data.slice(0, 16)), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
  return SIGNATURES.find((s) => s.test(head))?.type;
}

/** Decoded size of base64 `data`. */
function decodedBytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/**
 * The images a task may carry: at most `MAX_TASK_IMAGES`, each valid base64 of at most
 * `MAX_TASK_IMAGE_BYTES` whose bytes are PNG, JPEG, GIF or WebP (the claimed type is ignored).
 * Returns the accepted ones and, for each refused one, why in plain words.
 */
export function checkTaskImages(images: readonly TaskImage[]): { accepted: CheckedImage[]; refused: string[] } {
  const accepted: CheckedImage[] = [];
  const refused: string[] = [];
  for (const image of images) {
    const name = image.name || 'image';
    const type = /^[A-Za-z0-9+/]*={0,2}$/.test(image.data) ? sniffImageType(image.data) : undefined;
    const bytes = decodedBytes(image.data);
    if (!type) refused.push(`${name}: not a PNG, JPEG, GIF or WebP image`);
    else if (bytes > MAX_TASK_IMAGE_BYTES) refused.push(`${name}: larger than ${MAX_TASK_IMAGE_BYTES / 1024 / 1024} MB`);
    else if (accepted.length >= MAX_TASK_IMAGES) refused.push(`${name}: more than ${MAX_TASK_IMAGES} images`);
    else accepted.push({ name, mimeType: type, data: image.data, bytes });
  }
  return { accepted, refused };
}

/** The model that reads a task's images: the vision tier, else the default model when it reads images. */
export function imageReader(models: ModelTiers): Model | undefined {
  if (models.vision) return models.vision;
  return models.default.vision ? models.default : undefined;
}

/** The vision model's instructions: a faithful transcription the text-only parts of the flow can work from. */
export const IMAGE_READER_PROMPT = [
  'You read images a user attached to a task for a coding agent that cannot see them.',
  'For each image, in order, write a heading "Image N (name)" and then describe it so the agent can act on it:',
  'transcribe every visible text exactly (code, error messages, logs, labels, numbers) in fenced blocks,',
  'describe layout, UI elements, diagrams and colours where they matter, and say what looks wrong if something does.',
  'Do not solve the task; only report what the images show.',
].join('\n');

/** What `attachTaskImages` did, for the shell to tell the user. */
export interface AttachedImages {
  /** The task with the images' description (or the honest note that nobody could read them) attached. */
  task: string;
  /** That description or note alone (the `<attached-images>` section's body). */
  section: string;
  /** The model that read the images; absent when none did. */
  reader?: string;
  /** One line for the user: which model read the images, or why none did. */
  notice: { level: 'info' | 'warning'; message: string };
  /** The reader's usage, when a model was called. */
  usage?: Usage;
}

/**
 * Attaches the task's images the way the rest of the flow can use them: the vision model (the
 * vision tier, else a default model that reads images) is sent the task's words and the images as
 * `image_url` parts once, and its transcription is appended to the task as attached context, so the
 * router, planner, every step, follow-ups and the stored history all see the same text. Without a
 * model that reads images (or when the call fails) the task says so instead of dropping them
 * silently. Cancellation propagates.
 */
export async function attachTaskImages(task: string, images: readonly CheckedImage[], models: ModelTiers, signal: AbortSignal): Promise<AttachedImages> {
  const names = images.map((image, i) => `${i + 1}. ${image.name} (${image.mimeType}, ${Math.ceil(image.bytes / 1024)} KB)`).join('\n');
  const reader = imageReader(models);
  if (!reader) {
    const message = `The task has ${images.length} attached image(s), but no configured model reads images (set stepwise.models.vision, or stepwise.models.visionCapable when the main model does), so no model saw them.`;
    return withSection(task, `The user attached these images, but no model that can read images is configured, so their content is unknown:\n${names}`, { notice: { level: 'warning', message } });
  }
  try {
    const response = await reader.complete({
      messages: [
        { role: 'system', content: IMAGE_READER_PROMPT },
        { role: 'user', content: `The task: ${task}\n\nThe attached images:\n${names}`, images: images.map(({ mimeType, data }) => ({ mimeType, data })) },
      ],
      tools: [],
      toolChoice: 'none',
      signal,
      maxOutputTokens: 2_000,
    });
    const text = response.text.trim() || '(the vision model returned no description)';
    return withSection(task, `The user attached ${images.length} image(s); ${reader.id} (a vision model) described them:\n${names}\n\n${text}`, {
      reader: reader.id,
      notice: { level: 'info', message: `${reader.id} read the ${images.length} attached image(s); the task carries its description.` },
      ...(response.usage ? { usage: response.usage } : {}),
    });
  } catch (error) {
    if (isCancellation(error) || signal.aborted) throw error;
    const message = `The vision model ${reader.id} could not read the attached image(s): ${errorMessage(error)}`;
    return withSection(task, `The user attached these images, but the vision model could not read them (${errorMessage(error)}):\n${names}`, { notice: { level: 'warning', message } });
  }
}

function withSection(task: string, section: string, rest: Omit<AttachedImages, 'task' | 'section'>): AttachedImages {
  return { task: withAttachedSection(task, IMAGES_SECTION, section), section, ...rest };
}
