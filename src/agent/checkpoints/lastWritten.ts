import type { Checkpoint, CheckpointStore, Snapshot } from './checkpointTypes';

/** Checkpoints a restore records around its writes; every other kind is the task's own. */
const RESTORE_KINDS: ReadonlySet<Checkpoint['kind']> = new Set(['before_restore', 'after_restore']);

/**
 * The files the user changed since Stepwise last wrote them: each path is compared with the LAST
 * content Stepwise wrote there — the task's latest checkpoint, or a later restore (or undo of a
 * restore) that wrote that path — never with a "before restore" snapshot, which holds the user's
 * own content. Files over the size cap are compared by fingerprint. `list` must not be empty.
 */
export async function userChangedFiles(store: CheckpointStore, list: readonly Checkpoint[], now: Snapshot): Promise<Set<string>> {
  const lastTask = findLastIndex(list, (c) => !RESTORE_KINDS.has(c.kind));
  const base = list[lastTask] ?? list[0]!;
  // Newest restore first: the first restore found that wrote a path is the one that wrote it last.
  const owner = new Map<string, Checkpoint>();
  for (let i = list.length - 1; i > lastTask; i--) {
    const after = list[i]!;
    if (after.kind !== 'after_restore') continue;
    const at = findLastIndex(list.slice(lastTask + 1, i), (c) => c.kind === 'before_restore');
    const before = at < 0 ? undefined : list[lastTask + 1 + at];
    if (!before) continue;
    for (const p of await written(store, before, after)) if (!owner.has(p)) owner.set(p, after);
  }
  const changed = new Set<string>();
  for (const governor of new Set([base, ...owner.values()])) {
    const governs = (p: string) => (owner.get(p) ?? base) === governor;
    for (const c of await store.changes(governor.tree, now.tree)) if (governs(c.path)) changed.add(c.path);
    for (const p of largeDiffs(governor.large, now.large)) if (governs(p)) changed.add(p);
  }
  return changed;
}

/** What a restore wrote: what differs between its before and after checkpoints. */
async function written(store: CheckpointStore, before: Checkpoint, after: Checkpoint): Promise<string[]> {
  return [...(await store.changes(before.tree, after.tree)).map((c) => c.path), ...largeDiffs(before.large, after.large)];
}

/** Paths whose over-the-cap fingerprint differs between two moments (appeared, changed or gone). */
export function largeDiffs(a: Readonly<Record<string, string>> = {}, b: Readonly<Record<string, string>> = {}): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((p) => a[p] !== b[p]);
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!)) return i;
  return -1;
}
