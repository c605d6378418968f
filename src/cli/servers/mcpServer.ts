import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ApprovalCategory, type EventEnvelope } from '../../shared/events';
import { PlanMode } from '../../shared/vocabulary';
import { runServerTask, type ServerStart, type ServerTaskResult } from './serverTask';
import { progressLine } from './progressLine';
import { registerHistoryTools } from './mcpHistoryTools';
import { loadServerSdks } from './loadServerSdks';

/** The `run_task` tool's arguments: zod shapes the SDK turns into the tool's JSON schema. */
export const RunTaskArgs = {
  task: z.string().min(1).describe('What Stepwise should do, in plain words'),
  folder: z.string().optional().describe("Absolute path of the folder to work in (default: the server's folder)"),
  plan: PlanMode.optional().describe('auto: Stepwise decides; always: plan first; never: act directly'),
  autoApprove: z.array(ApprovalCategory).optional()
    .describe('Categories to approve without asking, limited to those the server was started with (--auto-approve); the rest are denied'),
};

interface ProgressExtra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification: (notification: { method: 'notifications/progress'; params: { progressToken: string | number; progress: number; message?: string } }) => Promise<void>;
}

/** The tool's answer: the outcome, the summary, why it stopped, and the task id for history. */
export function taskAnswer(result: ServerTaskResult): CallToolResult {
  if (!result.finished) return { isError: true, content: [{ type: 'text', text: `The task did not start: ${result.problem ?? 'unknown reason'}` }] };
  const { outcome, summary, reason } = result.finished;
  const lines = [`Outcome: ${outcome}`, ...(result.runId ? [`Task id: ${result.runId}`] : []), ...(reason ? [`Reason: ${reason}`] : []), '', summary ?? ''];
  return { isError: outcome === 'failed', content: [{ type: 'text', text: lines.join('\n').trim() }] };
}

/** Sends a progress notification for each event worth a line, when the caller asked for progress. */
function progressReporter(extra: ProgressExtra): (envelope: EventEnvelope) => void {
  const token = extra._meta?.progressToken;
  let count = 0;
  return (envelope) => {
    const message = progressLine(envelope.event);
    if (token === undefined || message === undefined) return;
    count += 1;
    void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: count, message } }).catch(() => undefined);
  };
}

/**
 * `stepwise mcp`: an MCP server on stdio (the official SDK's server side) with one tool,
 * `run_task`, which runs a task through the same `runCli` as `stepwise run`. Approvals beyond the
 * auto-approved categories are denied (nobody to ask), with the reason the model and caller see.
 * Resolves when the client closes stdin; running tasks are cancelled then.
 */
export async function serveMcp(start: ServerStart, version: string, signal: AbortSignal): Promise<number> {
  const { McpServer, StdioServerTransport } = loadServerSdks();
  const server = new McpServer({ name: 'stepwise', version });
  const running = new Set<AbortController>();
  // One task at a time, in call order: tasks would share folders, checkpoints and commands.
  let queue: Promise<unknown> = Promise.resolve();
  server.registerTool('run_task', {
    title: 'Run a Stepwise task',
    description: `Runs a task with Stepwise (plan-and-act coding agent) in a folder and returns its outcome and summary. Auto-approved here: ${start.autoApprove.join(', ') || 'nothing'}.`,
    inputSchema: RunTaskArgs,
  }, async (args, extra) => {
    const controller = new AbortController();
    const stop = () => controller.abort();
    extra.signal.addEventListener('abort', stop, { once: true });
    running.add(controller);
    const turn = queue;
    let release: () => void = () => undefined;
    queue = new Promise<void>((resolve) => (release = resolve));
    try {
      await turn;
      const result = await runServerTask(start, { task: args.task, workspace: args.folder, planMode: args.plan, autoApprove: args.autoApprove }, {
        onEnvelope: progressReporter(extra as unknown as ProgressExtra),
        signal: controller.signal,
      });
      return taskAnswer(result);
    } finally {
      release();
      running.delete(controller);
      extra.signal.removeEventListener('abort', stop);
    }
  });
  registerHistoryTools(server, start);
  const closed = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.connect(new StdioServerTransport());
  await closed;
  for (const controller of running) controller.abort();
  // Every task ends (commands stopped, history written) before the process does.
  await queue;
  await server.close();
  return 0;
}
