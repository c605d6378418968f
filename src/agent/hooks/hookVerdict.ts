import { z } from 'zod';
import type { HookEvent } from './hookConfig';

/** What one hook process did: its exit, its two streams kept apart, and whether it was ended. */
export interface HookProcessResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  cancelled: boolean;
}

/** What a hook decided: go on (maybe with context for the model), block (the reason goes to the model), or it failed (told to the user, never blocks). */
export type HookVerdict =
  | { kind: 'continue'; context?: string }
  | { kind: 'block'; reason: string }
  | { kind: 'error'; message: string };

/** The JSON a hook may print on stdout with exit 0 (Claude Code's fields; unknown ones are ignored). */
const HookJson = z.looseObject({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  decision: z.string().optional(),
  reason: z.string().optional(),
  hookSpecificOutput: z
    .looseObject({
      permissionDecision: z.string().optional(),
      permissionDecisionReason: z.string().optional(),
      additionalContext: z.string().optional(),
    })
    .optional(),
});

/** Events whose plain (non-JSON) stdout becomes context for the model, as in Claude Code. */
const STDOUT_IS_CONTEXT: ReadonlySet<HookEvent> = new Set(['UserPromptSubmit', 'SessionStart']);

/**
 * Claude Code's contract, read from one hook's process: exit 2 blocks and its stderr is the reason
 * the model sees; exit 0 continues, and JSON on stdout may block (`decision: "block"`,
 * `permissionDecision: "deny"`, `continue: false`) or add context (`additionalContext`); any other
 * exit, a timeout or a start failure is an error the user is told of, and the task goes on.
 */
export function hookVerdict(event: HookEvent, result: HookProcessResult, timeoutS: number): HookVerdict {
  if (result.timedOut) return { kind: 'error', message: `timed out after ${timeoutS} s and was ended` };
  if (result.cancelled) return { kind: 'error', message: 'cancelled' };
  if (result.exitCode === 2) return { kind: 'block', reason: result.stderr.trim() || 'blocked by a hook (exit 2, no reason given)' };
  if (result.exitCode !== 0) {
    const said = result.stderr.trim() || result.stdout.trim();
    return { kind: 'error', message: `exited with ${result.exitCode ?? 'a signal'}${said ? `: ${said.slice(0, 500)}` : ''}` };
  }
  const out = result.stdout.trim();
  if (!out.startsWith('{')) return out && STDOUT_IS_CONTEXT.has(event) ? { kind: 'continue', context: out } : { kind: 'continue' };
  let parsed: z.infer<typeof HookJson>;
  try {
    const checked = HookJson.safeParse(JSON.parse(out));
    if (!checked.success) return { kind: 'error', message: `printed JSON Stepwise cannot read: ${z.prettifyError(checked.error).replace(/\n/g, ' ')}` };
    parsed = checked.data;
  } catch {
    return out && STDOUT_IS_CONTEXT.has(event) ? { kind: 'continue', context: out } : { kind: 'continue' };
  }
  const specific = parsed.hookSpecificOutput;
  if (specific?.permissionDecision === 'deny') return { kind: 'block', reason: specific.permissionDecisionReason || parsed.reason || 'denied by a hook' };
  if (parsed.decision === 'block') return { kind: 'block', reason: parsed.reason || 'blocked by a hook' };
  if (parsed.continue === false) return { kind: 'block', reason: parsed.stopReason || parsed.reason || 'a hook asked to stop' };
  return specific?.additionalContext ? { kind: 'continue', context: specific.additionalContext } : { kind: 'continue' };
}
