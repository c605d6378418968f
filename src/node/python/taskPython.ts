import path from 'node:path';
import type { Logger } from '../../agent/ports';
import { DEFAULT_REPORT_DIR } from '../../agent/flow/reportPath';
import { pythonExecuteTool } from '../../agent/tools/python/pythonExecute';
import type { AnyTool } from '../../agent/tools/tool';
import { PythonSession } from './pythonSession';

/** What a shell needs to give a task its Python session. */
export interface TaskPythonOptions {
  /** The workspace folder (the code's working directory). */
  root: string;
  /** The task's run id: its charts get a folder of their own, so a later task cannot overwrite them. */
  runId: string;
  /** Workspace-relative folder of reports (default `.stepwise/reports`); charts go under `<reportDir>/charts/`. */
  reportDir?: string;
  /** An interpreter the user chose (`STEPWISE_PYTHON`); else PATH's `python3`, then `python`. */
  python?: string;
  logger?: Logger;
}

/** A task's Python tools and how to end them. */
export interface TaskPython {
  tools: AnyTool[];
  dispose(): Promise<void>;
}

/**
 * One task's `python_execute`: the tool over a new `PythonSession` whose charts are saved in the
 * report's folder (`<reportDir>/charts/<run>/`, so the saved report embeds them by a relative
 * link). The shell registers `tools` and calls `dispose` when the task ends, which ends the
 * interpreter and everything it started.
 */
export function taskPython(options: TaskPythonOptions): TaskPython {
  const reportDir = (options.reportDir ?? DEFAULT_REPORT_DIR).replace(/\/+$/, '') || '.';
  const chartsDir = path.resolve(options.root, reportDir, 'charts', options.runId.slice(0, 8));
  const session = new PythonSession({ cwd: options.root, chartsDir, python: options.python?.trim() || undefined, logger: options.logger });
  return { tools: [pythonExecuteTool(session)], dispose: () => session.dispose() };
}
