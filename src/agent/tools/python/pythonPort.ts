/** One piece of code for the task's Python session. */
export interface PythonRequest {
  code: string;
  /** After this long the running code is interrupted (KeyboardInterrupt); the session is kept when it stops. */
  timeoutMs: number;
  /** Cap on the output kept (head + tail), as for commands. */
  maxOutputChars: number;
  signal: AbortSignal;
  onOutput?: (chunk: string) => void;
}

/**
 * How the code ended: `ok`; `error` (it raised, the traceback is in the output); `interrupted` (the
 * timeout raised KeyboardInterrupt, the session and its variables are kept); `restarted` (the code
 * ignored the interrupt, so the session was ended: the next call starts a new one with no
 * variables); `unavailable` (no Python could be started; `output` says why); `cancelled` (the task
 * was stopped).
 */
export type PythonStatus = 'ok' | 'error' | 'interrupted' | 'restarted' | 'unavailable' | 'cancelled';

/** What one run of code produced. */
export interface PythonResult {
  status: PythonStatus;
  /** stdout and stderr as printed, head and tail kept. */
  output: string;
  omittedChars: number;
  /** Charts `save_chart` wrote during this run, workspace-relative. */
  charts: string[];
  /** True when this run started the session (the first call, or after a restart). */
  fresh: boolean;
}

/**
 * The task's one Python process, state kept between runs. Runs are one at a time (a second waits
 * for the first). The owner ends it with the task (`dispose` in the adapter).
 */
export interface PythonRunner {
  run(request: PythonRequest): Promise<PythonResult>;
}
