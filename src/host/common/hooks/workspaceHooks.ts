import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { HooksConfig, noHooks, HookEvent, type HookSource } from '../../../agent/hooks/hookConfig';
import { parseJsonc } from '../../../mcp/jsonc';

/** Where a workspace keeps its hooks (Claude Code keeps them in `.claude/settings.json`; same shape). */
export const WORKSPACE_HOOKS_FILE = '.stepwise/settings.json';

/** Words that name each source in notices and the trust prompt. */
export const USER_HOOKS_SOURCE = 'user settings';

/** A workspace's hooks as read from its file: the configuration, or why it could not be used. */
export type WorkspaceHooksFile = { config: HooksConfig } | { problem: string } | undefined;

/** The trust the user gave (or not) to a workspace's hooks, by fingerprint. */
export interface HookTrust {
  isTrusted(fingerprint: string): boolean;
}

/** The workspace's hooks that wait for the user: what they would run, and the fingerprint to trust. */
export interface WaitingHooks {
  fingerprint: string;
  /** `PreToolUse (run_command): ./check.sh`, one per hook. */
  commands: string[];
}

/** Reads `.stepwise/settings.json`'s `hooks` (JSON with comments); undefined when there is no file or no hooks. */
export async function readWorkspaceHooks(root: string): Promise<WorkspaceHooksFile> {
  let text: string;
  try {
    text = await readFile(path.join(root, WORKSPACE_HOOKS_FILE), 'utf8');
  } catch {
    return undefined;
  }
  let raw: unknown;
  try {
    raw = parseJsonc(text);
  } catch (error) {
    return { problem: `${WORKSPACE_HOOKS_FILE}: ${error instanceof Error ? error.message : String(error)}` };
  }
  const hooks = (raw && typeof raw === 'object' ? (raw as Record<string, unknown>).hooks : undefined) ?? undefined;
  if (hooks === undefined) return undefined;
  const parsed = HooksConfig.safeParse(hooks);
  if (!parsed.success) return { problem: `${WORKSPACE_HOOKS_FILE}: hooks: ${z.prettifyError(parsed.error).replace(/\n/g, ' ')}` };
  return noHooks([{ source: WORKSPACE_HOOKS_FILE, config: parsed.data }]) ? undefined : { config: parsed.data };
}

/**
 * A hash of everything the hooks would run (every event, matcher, command and timeout, in order):
 * any change is new hooks to trust. Only the hash is stored.
 */
export function hooksFingerprint(config: HooksConfig): string {
  const canonical = HookEvent.options.map((event) => [event, (config[event] ?? []).map((g) => [g.matcher ?? '', g.hooks.map((h) => [h.command, h.timeout ?? null])])]);
  return createHash('sha256').update(JSON.stringify({ file: WORKSPACE_HOOKS_FILE, hooks: canonical })).digest('hex');
}

/** What the trust prompt lists: each hook with its event and matcher. */
export function describeHooks(config: HooksConfig): string[] {
  const out: string[] = [];
  for (const event of HookEvent.options) {
    for (const group of config[event] ?? []) {
      for (const hook of group.hooks) out.push(`${event}${group.matcher ? ` (${group.matcher})` : ''}: ${hook.command}`);
    }
  }
  return out;
}

/**
 * The hooks a run gets, deny by default: the user's own always; the workspace's only when the
 * workspace is trusted (not Restricted Mode) and the user trusted exactly these hooks (their
 * fingerprint). Hooks that wait for the user are returned apart, for the host to ask about.
 */
export function hookSources(user: HooksConfig, workspace: WorkspaceHooksFile, trust: HookTrust | undefined, workspaceTrusted: boolean): { sources: HookSource[]; waiting?: WaitingHooks; problem?: string } {
  const sources: HookSource[] = noHooks([{ source: USER_HOOKS_SOURCE, config: user }]) ? [] : [{ source: USER_HOOKS_SOURCE, config: user }];
  if (!workspace || !workspaceTrusted) return { sources };
  if ('problem' in workspace) return { sources, problem: workspace.problem };
  const fingerprint = hooksFingerprint(workspace.config);
  if (trust?.isTrusted(fingerprint)) return { sources: [...sources, { source: WORKSPACE_HOOKS_FILE, config: workspace.config }] };
  return { sources, waiting: { fingerprint, commands: describeHooks(workspace.config) } };
}
