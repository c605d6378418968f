/** Base of Stepwise's errors; `name` follows the subclass so logs and `instanceof` agree. */
export class StepwiseError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * A problem the model can correct (bad path, missing file, ambiguous edit...). Tools throw it and
 * the registry turns it into an error result; it never ends a run.
 */
export class ToolError extends StepwiseError {}

/** A path that leaves the workspace (`..`, outside absolute path, symlink out). */
export class PathOutsideWorkspaceError extends ToolError {}

/** Nothing exists at the path. */
export class FileNotFoundError extends ToolError {}

/** A search pattern that is not a valid regular expression. */
export class InvalidPatternError extends ToolError {}

/** The user (or the host) cancelled; propagates to the run's edge. */
export class CancelledError extends StepwiseError {
  constructor(message = 'Cancelled') {
    super(message);
  }
}

/** True for our cancellation and for the platform's AbortError. */
export function isCancellation(error: unknown): boolean {
  return error instanceof CancelledError || (error instanceof Error && error.name === 'AbortError');
}

/** Throws `CancelledError` when the signal is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}

/** Message of any thrown value, for error results and logs. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
