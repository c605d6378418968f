import { z } from 'zod';

/** The hook events, named as Claude Code names them so users can reuse their hooks. */
export const HookEvent = z.enum(['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SessionStart', 'PreCompact']);
export type HookEvent = z.infer<typeof HookEvent>;

/** Seconds a hook may run when it names no `timeout` (Claude Code's default). */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

/** One hook: a shell command (Claude Code's `{"type": "command", "command": "…", "timeout": s}`). */
export const HookCommand = z.object({
  type: z.literal('command'),
  command: z.string().trim().min(1),
  /** Seconds before the hook's process tree is ended (default `DEFAULT_HOOK_TIMEOUT_S`). */
  timeout: z.number().positive().max(3600).optional(),
});
export type HookCommand = z.infer<typeof HookCommand>;

/** Hooks for the tools a matcher names: a tool name, `A|B`, a regular expression; empty or `*` for all. */
export const HookMatcher = z.object({
  matcher: z.string().optional(),
  hooks: z.array(HookCommand),
});
export type HookMatcher = z.infer<typeof HookMatcher>;

/** `{"PreToolUse": [{"matcher": "run_command", "hooks": [{"type": "command", "command": "…"}]}]}`. */
export const HooksConfig = z.partialRecord(HookEvent, z.array(HookMatcher));
export type HooksConfig = z.infer<typeof HooksConfig>;

/** A hook with where it came from (the user's settings or a trusted workspace file), for notices. */
export interface SourcedHook extends HookCommand {
  source: string;
}

/** A configuration and the words that name where it came from. */
export interface HookSource {
  source: string;
  config: HooksConfig;
}

/**
 * The hooks of `event` whose matcher accepts `toolName`, in order: every source, then every group.
 * Events without a tool (Stop, SessionStart, …) run every group of the event, as Claude Code does.
 */
export function matchingHooks(sources: readonly HookSource[], event: HookEvent, toolName?: string): SourcedHook[] {
  const out: SourcedHook[] = [];
  for (const { source, config } of sources) {
    for (const group of config[event] ?? []) {
      if (toolName !== undefined && !matches(group.matcher, toolName)) continue;
      for (const hook of group.hooks) out.push({ ...hook, source });
    }
  }
  return out;
}

/** Claude Code's rule: empty or `*` matches every tool; otherwise the matcher is a regular expression over the whole name (an invalid one matches by equality). */
export function matches(matcher: string | undefined, toolName: string): boolean {
  const m = matcher?.trim() ?? '';
  if (m === '' || m === '*') return true;
  try {
    return new RegExp(`^(?:${m})$`).test(toolName);
  } catch {
    return m === toolName;
  }
}

/** True when no source has a hook for any event. */
export function noHooks(sources: readonly HookSource[]): boolean {
  return sources.every(({ config }) => Object.values(config).every((groups) => (groups ?? []).every((g) => g.hooks.length === 0)));
}
