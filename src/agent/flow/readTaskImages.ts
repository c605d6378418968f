import { errorMessage, isCancellation } from '../errors';
import { flowUsage, type FlowContext } from './flowContext';
import { attachTaskImages, type CheckedImage } from './taskImages';

/**
 * The start of a task with images: saves them (when the run has an image store), has the vision
 * model read them once (`attachTaskImages`), tells of it with a `task_images` event (and a
 * warning notice when no model read them), counts the call against the task's budget, and from
 * then on the flow works from the task with the description attached.
 */
export async function readTaskImages(ctx: FlowContext): Promise<void> {
  const o = ctx.options;
  const images = o.taskImages ?? [];
  const saved = await Promise.all(images.map((image, i) => save(ctx, image, i)));
  const attached = await attachTaskImages(o.task, images, o.models, ctx.signal);
  if (attached.usage) flowUsage(ctx)(attached.usage);
  o.events.emit({
    type: 'task_images',
    images: images.map((image, i) => ({ name: image.name, mimeType: image.mimeType, bytes: image.bytes, ...(saved[i] ? { path: saved[i] } : {}) })),
    ...(attached.reader ? { reader: attached.reader } : {}),
    section: attached.section,
  });
  if (attached.notice.level === 'warning') o.events.emit({ type: 'notice', level: 'warning', code: 'other', message: attached.notice.message });
  ctx.options = { ...o, task: attached.task, taskImages: [] };
}

async function save(ctx: FlowContext, image: CheckedImage, index: number): Promise<string | undefined> {
  const store = ctx.options.images;
  if (!store) return undefined;
  const extension = image.mimeType.slice('image/'.length).replace('jpeg', 'jpg');
  const base = image.name.replace(/\.[^.]*$/, '').replace(/[^\w-]/g, '_').slice(0, 60) || 'image';
  try {
    return await store.save({ mimeType: image.mimeType, data: image.data }, `task-${index + 1}-${base}.${extension}`, ctx.signal);
  } catch (error) {
    if (isCancellation(error)) throw error;
    ctx.options.logger.warn(`could not save the task's image ${image.name}: ${errorMessage(error)}`);
    return undefined;
  }
}
