import { z } from 'zod';
import { CancelledError, throwIfAborted } from '../../errors';
import { truncateHeadTail } from '../../context/truncate';
import { COMMAND_MAX_OUTPUT_CHARS } from '../builtins/runCommand';
import { rejectionResult } from '../builtins/rejection';
import { defineTool, type AnyTool, type ToolResult } from '../tool';
import type { PythonResult, PythonRunner } from './pythonPort';

/** The tool's name, for the roles and tasks that are offered it. */
export const PYTHON_EXECUTE = 'python_execute';
/** Default and maximum time one run may take, in seconds. */
export const PYTHON_DEFAULT_TIMEOUT_S = 60;
export const PYTHON_MAX_TIMEOUT_S = 600;
const MAX_TITLE_CHARS = 80;

/** Arguments of `python_execute`. */
export const PythonExecuteArgs = z.object({
  code: z.string().min(1).describe('Python 3 code; the value of a last bare expression is printed'),
  timeout_seconds: z.number().int().min(1).max(PYTHON_MAX_TIMEOUT_S).optional().describe(`default ${PYTHON_DEFAULT_TIMEOUT_S}`),
});
export type PythonExecuteArgs = z.infer<typeof PythonExecuteArgs>;

/** The approval title: "Run Python: <first line>", shortened. */
function title(code: string): string {
  const lines = code.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const first = lines[0] ?? '';
  const shown = first.length > MAX_TITLE_CHARS ? `${first.slice(0, MAX_TITLE_CHARS - 3)}...` : first;
  return `Run Python: \`${shown}\`${lines.length > 1 ? ` (+${lines.length - 1} lines)` : ''}`;
}

/** The first line of the result: how the run ended, so the model knows whether its variables survive. */
function outcome(result: PythonResult, timeoutS: number): string {
  const fresh = result.fresh ? ' (new Python session: no earlier variables)' : '';
  switch (result.status) {
    case 'ok': return `ok${fresh}`;
    case 'error': return `error: the code raised an exception (traceback below); the session and its variables are kept${fresh}`;
    case 'interrupted': return `timed out after ${timeoutS}s: interrupted (KeyboardInterrupt); the session and its variables are kept`;
    case 'restarted': return `timed out after ${timeoutS}s and ignored the interrupt: the Python session was ended; the next call starts a new one (all variables lost)`;
    default: return `Python is not available`;
  }
}

/**
 * `python_execute` over the task's session (OpenManus's tool, LangManus's REPL): asks approval as a
 * `command` (the code shows in full), then runs the code in the one Python process of the task, so
 * variables, imports and data frames stay between calls. Output streams as `tool_output` and is
 * capped like a command's; a timeout interrupts the code and keeps the session when it can.
 * Charts saved with `save_chart` are named in the result (the report embeds them). Cancellation
 * throws `CancelledError`.
 */
export function pythonExecuteTool(runner: PythonRunner): AnyTool {
  return defineTool({
    name: PYTHON_EXECUTE,
    description:
      'Run Python 3 code in this task\'s own Python session: variables, imports and data stay between calls (like a notebook). ' +
      'pandas and matplotlib when installed. Helpers: save_chart("name") saves the current matplotlib figure as a PNG for the report; ' +
      'show_table(df, n=10) prints a data frame as a markdown table. Print only small results.',
    category: 'command',
    parameters: PythonExecuteArgs,
    async execute(args, context): Promise<ToolResult> {
      const decision = await context.requestApproval({ category: 'command', title: title(args.code), detail: `${args.code}\n\ncwd: ${context.workspace.root}` });
      if (!decision.approved) return rejectionResult('the Python code (it did not run)', decision);
      throwIfAborted(context.signal);
      const timeoutS = args.timeout_seconds ?? PYTHON_DEFAULT_TIMEOUT_S;
      const result = await runner.run({
        code: args.code,
        timeoutMs: timeoutS * 1000,
        maxOutputChars: COMMAND_MAX_OUTPUT_CHARS,
        signal: context.signal,
        onOutput: (chunk) => context.emit({ type: 'tool_output', callId: context.callId, stream: 'stdout', chunk }),
      });
      if (result.status === 'cancelled' || context.signal.aborted) throw new CancelledError();
      const capped = truncateHeadTail(result.output, COMMAND_MAX_OUTPUT_CHARS);
      const omitted = result.omittedChars + capped.omittedChars;
      const head = outcome(result, timeoutS) + (omitted > 0 ? ` (${omitted} characters of output omitted from the middle)` : '');
      const output = capped.text.trim() === '' ? '(no output)' : capped.text.trimEnd();
      const charts = result.charts.length ? `\nCharts saved: ${result.charts.join(', ')}` : '';
      const failed = result.status !== 'ok';
      return { content: `${head}\n${output}${charts}`, ...(failed ? { isError: true } : {}) };
    },
  });
}
