import { parseArgs } from 'node:util';
import type { Checkpoint, CheckpointStore, FileChange } from '../agent/checkpoints/checkpointTypes';
import { openTaskStore } from './cliCheckpointStore';
import type { CliIo } from './cliIo';

export { openCliCheckpoints } from './cliCheckpointStore';

const USAGE = 'Usage: stepwise checkpoints <task-id> [--json] [--workspace DIR]';

/** A checkpoint as listed: where it was taken and what changed between it and the next one. */
export interface ListedCheckpoint {
  id: string;
  kind: Checkpoint['kind'];
  step?: number;
  stepTitle?: string;
  callId?: string;
  tool?: string;
  time: string;
  label?: string;
  /** Files that changed after this checkpoint, up to the next one (empty for the last). */
  filesChanged: FileChange[];
}

/** `stepwise checkpoints <task-id>`: lists a task's checkpoints (table, or JSON with `--json`). Returns the exit code. */
export async function checkpointsCommand(io: CliIo): Promise<number> {
  let values, positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: io.argv.slice(1),
      allowPositionals: true,
      options: { json: { type: 'boolean' }, workspace: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    io.stderr(`stepwise: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    io.stdout(USAGE + '\n');
    return 0;
  }
  if (positionals.length !== 1) {
    io.stderr(`stepwise: give one task id\n${USAGE}\n`);
    return 2;
  }
  const opened = await openTaskStore(io.env, positionals[0]!, values.workspace ?? io.cwd);
  if (!opened.ok) {
    io.stderr(`stepwise: ${opened.message}\n`);
    return opened.code;
  }
  if (opened.recovered) io.stderr(`stepwise: ${opened.recovered}\n`);
  const listed = await listCheckpoints(opened.store);
  if (values.json) {
    io.stdout(JSON.stringify(listed, null, 2) + '\n');
    return 0;
  }
  io.stdout(renderTable(listed));
  return 0;
}

/** The task's checkpoints with the files changed after each. */
export async function listCheckpoints(store: CheckpointStore): Promise<ListedCheckpoint[]> {
  const list = await store.list();
  const out: ListedCheckpoint[] = [];
  for (let i = 0; i < list.length; i++) {
    const cp = list[i]!;
    const next = list[i + 1];
    out.push({
      id: cp.id,
      kind: cp.kind,
      ...(cp.stepNumber !== undefined ? { step: cp.stepNumber } : {}),
      ...(cp.stepTitle ? { stepTitle: cp.stepTitle } : {}),
      ...(cp.callId ? { callId: cp.callId } : {}),
      ...(cp.tool ? { tool: cp.tool } : {}),
      ...(cp.label ? { label: cp.label } : {}),
      time: new Date(cp.time).toISOString(),
      filesChanged: next ? await store.changes(cp.tree, next.tree) : [],
    });
  }
  return out;
}

const KIND_TEXT: Record<Checkpoint['kind'], string> = {
  task_start: 'task start',
  step: 'step start',
  tool: 'before tool call',
  finish: 'at finish',
  task_end: 'task end',
  before_restore: 'before restore',
  after_restore: 'after restore',
};

function renderTable(listed: readonly ListedCheckpoint[]): string {
  const rows = listed.map((c) => [
    c.id,
    c.step !== undefined ? `${c.step}${c.stepTitle ? ` ${c.stepTitle.slice(0, 24)}` : ''}` : '-',
    c.tool ? `${c.tool} ${c.callId ?? ''}`.trim() : c.label ?? KIND_TEXT[c.kind],
    c.time.replace('T', ' ').slice(0, 19),
    c.filesChanged.length ? c.filesChanged.map((f) => `${f.status === 'added' ? '+' : f.status === 'deleted' ? '-' : '~'}${f.path}`).join(' ') : '-',
  ]);
  const head = ['ID', 'STEP', 'TOOL CALL', 'TIME (UTC)', 'FILES CHANGED AFTER'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ') + '\n';
  return line(head) + rows.map(line).join('');
}
