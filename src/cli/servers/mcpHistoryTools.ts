import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { CliIo } from '../cliIo';
import { checkpointsCommand } from '../checkpointsCommand';
import { historyCommand } from '../historyCommand';
import { historyAction } from '../historyActions';
import { restoreCommand } from '../restoreCommand';
import type { ServerStart } from './serverTask';

/** `restore_task`'s arguments: the CLI's `stepwise restore` flags as fields. */
export const RestoreTaskArgs = {
  taskId: z.string().min(1).describe('The task id (from run_task or list_tasks)'),
  folder: z.string().optional().describe("Absolute path of the folder the task ran in (default: the server's folder)"),
  checkpoint: z.string().optional().describe('The checkpoint id to go back to (from list_checkpoints)'),
  beforeStep: z.number().int().positive().optional().describe('Or: go back to before this plan step (1, 2, …)'),
  part: z.enum(['files', 'conversation', 'both']).optional().describe('What to restore (default both)'),
  force: z.boolean().optional().describe("Also overwrite files changed after the task's last checkpoint (the restore itself is checkpointed)"),
};

/** Runs one of the CLI's own commands with its output captured: the tool's answer is what the command says. */
async function captured(start: ServerStart, argv: string[], command: (io: CliIo) => Promise<number>, signal: AbortSignal): Promise<CallToolResult> {
  let out = '';
  let err = '';
  const code = await command({
    argv, env: start.env, cwd: start.workspace, color: false, signal,
    stdout: (text) => (out += text),
    stderr: (text) => (err += text),
  });
  const text = [out.trim(), err.trim()].filter(Boolean).join('\n') || `exit code ${code}`;
  return { isError: code !== 0, content: [{ type: 'text', text }] };
}

/**
 * The optional history tools of `stepwise mcp`: `list_tasks`, `list_checkpoints`, `restore_task`,
 * each one of the CLI's commands (`history list`, `checkpoints`, `restore`) with the same rules —
 * a restore stops at files the user changed since, unless `force`.
 */
export function registerHistoryTools(server: McpServer, start: ServerStart): void {
  server.registerTool('list_tasks', {
    title: 'List stored Stepwise tasks',
    description: 'Stored Stepwise tasks, newest first, as JSON lines (id, task, outcome, time); optional words filter them.',
    inputSchema: { words: z.string().optional().describe('Words the task must contain') },
  }, (args, extra) => captured(start, ['history', 'list', ...(args.words ? args.words.split(/\s+/).filter(Boolean) : []), '--json'], (io) => historyCommand(io, historyAction), extra.signal));

  server.registerTool('list_checkpoints', {
    title: "List a Stepwise task's checkpoints",
    description: 'The checkpoints of a task (JSON), to restore one with restore_task.',
    inputSchema: { taskId: RestoreTaskArgs.taskId, folder: RestoreTaskArgs.folder },
  }, (args, extra) => captured(start, ['checkpoints', args.taskId, '--json', '--workspace', args.folder ?? start.workspace], checkpointsCommand, extra.signal));

  server.registerTool('restore_task', {
    title: "Restore a Stepwise task's checkpoint",
    description: "Puts the folder's files (and/or the task's conversation) back to a checkpoint. Stops, changing nothing, at files changed after the task's last checkpoint unless force is set.",
    inputSchema: RestoreTaskArgs,
  }, (args, extra) => captured(start, [
    'restore', args.taskId, '--workspace', args.folder ?? start.workspace, '--json',
    ...(args.checkpoint !== undefined ? ['--to', args.checkpoint] : []),
    ...(args.beforeStep !== undefined ? ['--before-step', String(args.beforeStep)] : []),
    ...(args.part === 'files' ? ['--files'] : args.part === 'conversation' ? ['--conversation'] : []),
    ...(args.force ? ['--force'] : []),
  ], restoreCommand, extra.signal));
}
