import { EXIT, type CliIo } from '../cliIo';
import { UsageError } from '../cliArgs';
import { parseServerStart, type ServerStart } from './serverTask';
import { serveMcp } from './mcpServer';
import { serveHttp, takePortFlag } from './httpServer';
import { serveAcp } from './acpAgent';

/** The server shells' command words. */
export const SERVER_COMMANDS = ['mcp', 'serve', 'acp'] as const;

/** The help of the server shells (also in the CLI's USAGE). */
export const SERVER_USAGE = `Usage: stepwise mcp [run options]             an MCP server on stdio: tool run_task (task, folder, plan, autoApprove)
       stepwise serve [--port N] [run options]  HTTP on 127.0.0.1 with a random token: POST /tasks, SSE events, approvals, stop
       stepwise acp [run options]             an Agent Client Protocol agent on stdio (Zed, JetBrains, Neovim…)
The run options (--model, --base-url, --auto-approve, --allow-command, --config, …) apply to every task;
a task may auto-approve fewer categories than the server was started with, never more.`;

const VERSION = '0.1.0';

/** True when argv names a server shell. */
export function isServerCommand(argv: readonly string[]): boolean {
  return (SERVER_COMMANDS as readonly string[]).includes(argv[0] ?? '');
}

/** Runs `stepwise mcp | serve | acp` until its client goes away; the exit code. */
export async function serverCommand(io: CliIo): Promise<number> {
  const [command, ...rest] = io.argv;
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(SERVER_USAGE + '\n');
    return EXIT.finished;
  }
  let start: ServerStart;
  let port = 0;
  try {
    const taken = command === 'serve' ? takePortFlag(rest) : { args: rest, port: 0 };
    port = taken.port;
    start = await parseServerStart(taken.args, { env: io.env, cwd: io.cwd, stderr: io.stderr });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`stepwise: ${error.message}\n\n${SERVER_USAGE}\n`);
    return EXIT.usage;
  }
  if (command === 'mcp') return serveMcp(start, VERSION, io.signal);
  if (command === 'acp') return serveAcp(start, VERSION, io.signal);
  return serveHttp(start, { port, stdout: io.stdout, signal: io.signal });
}
