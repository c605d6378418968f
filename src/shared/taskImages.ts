import { z } from 'zod';

/** Image types a task may carry (what vision endpoints accept); checked by magic bytes in the core, never trusted from a webview. */
export const TASK_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type TaskImageType = (typeof TASK_IMAGE_TYPES)[number];

/** Images one task may carry. */
export const MAX_TASK_IMAGES = 4;
/** Decoded bytes of one image. */
export const MAX_TASK_IMAGE_BYTES = 5 * 1024 * 1024;

/** An image the user pasted or dropped into the chat box: its name, claimed type and base64 data (no `data:` prefix). */
export const TaskImage = z.object({
  name: z.string().max(260),
  mimeType: z.enum(TASK_IMAGE_TYPES),
  data: z.string().min(8).max(Math.ceil(MAX_TASK_IMAGE_BYTES / 3) * 4 + 4),
});
export type TaskImage = z.infer<typeof TaskImage>;
