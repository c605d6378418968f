/** Opens the context attached to a task by `@mentions`; views show only the words before it. */
export const ATTACHED_CONTEXT_TAG = '<attached-context>';

/** The section of the attached context that carries a task's images (their description). */
export const IMAGES_SECTION = 'attached-images';

/**
 * The task with one more titled section inside its attached context (opening the block when the
 * task has none): how images and other attachments join the task after the `@mentions`.
 */
export function withAttachedSection(task: string, tag: string, body: string): string {
  const section = `<${tag}>\n${body}\n</${tag}>`;
  const close = '\n</attached-context>';
  if (task.endsWith(close) && task.includes(`\n\n${ATTACHED_CONTEXT_TAG}\n`)) return `${task.slice(0, -close.length)}\n\n${section}${close}`;
  return `${task}\n\n${ATTACHED_CONTEXT_TAG}\n${section}\n</attached-context>`;
}

/** The user's own words of a task, without the context attached to it. */
export function taskWords(task: string): string {
  const at = task.indexOf(`\n\n${ATTACHED_CONTEXT_TAG}\n`);
  return at < 0 ? task : task.slice(0, at);
}
