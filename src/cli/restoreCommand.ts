import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Checkpoint } from '../agent/checkpoints/checkpointTypes';
import { checkpointBeforeStep, restoreCheckpoint } from '../agent/checkpoints/restoreCheckpoint';
import { taskFolder } from '../node/checkpoints/gitCheckpointStore';
import { openTaskStore } from './cliCheckpointStore';
import type { CliIo } from './cliIo';

const USAGE = 'Usage: stepwise restore <task-id> (--to ID | --before-step N) [--files | --conversation] [--force] [--workspace DIR] [--json]';

/** Where the conversation of a task is cut: `stepwise resume` continues from the events before `seq`. */
export const CONVERSATION_CUT_FILE = 'conversation-cut.json';

interface RestoreArgs {
  taskId: string;
  to?: string;
  beforeStep?: number;
  files: boolean;
  conversation: boolean;
  force: boolean;
  workspace?: string;
  json: boolean;
}

function parse(argv: string[]): RestoreArgs | string {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        to: { type: 'string' },
        'before-step': { type: 'string' },
        files: { type: 'boolean' },
        conversation: { type: 'boolean' },
        force: { type: 'boolean' },
        workspace: { type: 'string' },
        json: { type: 'boolean' },
      },
    });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const { values: v, positionals } = parsed;
  if (positionals.length !== 1) return 'give one task id';
  if ((v.to === undefined) === (v['before-step'] === undefined)) return 'give exactly one of --to and --before-step';
  const step = v['before-step'] === undefined ? undefined : Number(v['before-step']);
  if (step !== undefined && (!Number.isInteger(step) || step < 1)) return '--before-step needs a step number (1, 2, …)';
  if (v.files && v.conversation) return '--files and --conversation exclude each other (give neither for both)';
  return {
    taskId: positionals[0]!,
    ...(v.to !== undefined ? { to: v.to } : {}),
    ...(step !== undefined ? { beforeStep: step } : {}),
    files: !v.conversation,
    conversation: !v.files,
    force: v.force ?? false,
    ...(v.workspace !== undefined ? { workspace: v.workspace } : {}),
    json: v.json ?? false,
  };
}

/**
 * `stepwise restore`: puts the workspace's files (and/or cuts the conversation) back to a
 * checkpoint. Files the user changed after the task's latest checkpoint stop the restore (exit 4,
 * listed, nothing changed) unless `--force`. Returns the exit code.
 */
export async function restoreCommand(io: CliIo): Promise<number> {
  const args = parse(io.argv.slice(1));
  if (typeof args === 'string') {
    io.stderr(`stepwise: ${args}\n${USAGE}\n`);
    return 2;
  }
  const opened = await openTaskStore(io.env, args.taskId, args.workspace ?? io.cwd);
  if (!opened.ok) {
    io.stderr(`stepwise: ${opened.message}\n`);
    return opened.code;
  }
  if (opened.recovered) io.stderr(`stepwise: ${opened.recovered}\n`);
  const list = await opened.store.list();
  const target = args.to !== undefined ? list.find((c) => c.id === args.to) : checkpointBeforeStep(list, args.beforeStep!);
  if (!target) {
    const which = args.to !== undefined ? `checkpoint ${args.to}` : `a checkpoint before step ${args.beforeStep}`;
    io.stderr(`stepwise: task ${args.taskId} has no ${which} (see stepwise checkpoints ${args.taskId})\n`);
    return 2;
  }
  const report: Record<string, unknown> = { target: target.id };
  if (args.files) {
    const result = await restoreCheckpoint(opened.store, { target, force: args.force, now: Date.now(), signal: io.signal });
    if (!result.ok) {
      if (result.reason === 'conflict') {
        io.stderr(
          `stepwise: not restored: you changed these files after the task's last checkpoint; nothing was changed.\n` +
            result.conflicts.map((p) => `  ${p}\n`).join('') +
            `Pass --force to take the checkpoint's version of them (the restore is checkpointed, so it can be undone).\n`,
        );
        if (args.json) io.stdout(JSON.stringify({ ok: false, conflicts: result.conflicts }) + '\n');
        return 4;
      }
      io.stderr(`stepwise: not restored (nothing was changed): ${result.reason === 'failed' ? result.message : result.blocked.join(', ')}\n`);
      return 1;
    }
    Object.assign(report, { changed: result.changed, before: result.before.id, after: result.after.id });
    if (!args.json) {
      io.stdout(`Restored ${result.changed.length} file(s) to ${describe(target)}.\n`);
      for (const c of result.changed) io.stdout(`  ${c.status === 'added' ? 'created' : c.status === 'deleted' ? 'removed' : 'restored'} ${c.path}\n`);
      io.stdout(`Undo: stepwise restore ${args.taskId} --to ${result.before.id} --files\n`);
    }
  }
  if (args.conversation) {
    const file = path.join(taskFolder(opened.home, args.taskId), CONVERSATION_CUT_FILE);
    await writeFile(file, JSON.stringify({ checkpoint: target.id, seq: target.seq ?? 0 }) + '\n');
    report.conversationCutAtSeq = target.seq ?? 0;
    if (!args.json) io.stdout(`The conversation now ends before ${describe(target)}; \`stepwise resume ${args.taskId}\` continues from there.\n`);
  }
  if (args.json) io.stdout(JSON.stringify({ ok: true, ...report }) + '\n');
  return 0;
}

function describe(c: Checkpoint): string {
  if (c.kind === 'step') return `${c.id} (before step ${c.stepNumber}${c.stepTitle ? ` "${c.stepTitle}"` : ''})`;
  if (c.kind === 'tool') return `${c.id} (before ${c.tool ?? 'a tool call'}${c.callId ? ` ${c.callId}` : ''})`;
  return `${c.id} (${c.label ?? c.kind.replace('_', ' ')})`;
}
