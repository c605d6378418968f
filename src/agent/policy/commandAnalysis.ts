import type { Invocation } from './commandWrappers';
import type { Redirection } from './shellWalk';

/** What a command line would do, as far as its text shows. */
export interface CommandAnalysis {
  /** Set when the text is not valid shell: nothing else is trusted then. */
  error?: string;
  /** Every program it would start, wrappers and what they wrap included. */
  invocations: Invocation[];
  redirections: Redirection[];
  /** Why parts of it cannot be known before it runs (a program name in a variable, `eval "$x"`, …). */
  opaque: string[];
  /** Program names compare case-insensitively, with or without `.exe` (Windows command lines). */
  foldCase?: boolean;
}
