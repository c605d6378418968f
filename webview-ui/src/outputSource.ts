import type { Item, ToolCard } from './viewModel';

/** The earlier call a `read_output` reads (its `call_id`, without the `~N` a reused id gets), when it is on the timeline. */
export function outputSource(items: readonly Item[], args: unknown): ToolCard['readsFrom'] {
  const callId = (args as { call_id?: unknown } | undefined)?.call_id;
  if (typeof callId !== 'string') return undefined;
  const id = callId.replace(/~\d+$/, '');
  const source = items.find((item): item is ToolCard => item.kind === 'tool' && item.callId === id);
  return source ? { name: source.name, args: source.args } : undefined;
}
