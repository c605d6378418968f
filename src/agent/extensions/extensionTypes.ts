import { z } from 'zod';

/** Where a skill, role or prompt file came from: the workspace (only when it is trusted) or the user's own folder. */
export const ExtensionSource = z.enum(['workspace', 'user']);
export type ExtensionSource = z.infer<typeof ExtensionSource>;

/** Names of skills, roles and prompt commands: what the Agent Skills convention allows (letters, digits, `-`, `_`, `.`). */
export const ExtensionName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a name is 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit');

/** An Agent Skill (`<folder>/SKILL.md`): its name and description are offered up front, its body only when used. */
export const Skill = z.object({
  name: ExtensionName,
  description: z.string().min(1).max(1024),
  /** The instructions after the front matter. */
  body: z.string(),
  /** The skill's folder as the model uses it in paths: workspace-relative, or absolute for a user skill. */
  folder: z.string(),
  /** Files in the folder besides SKILL.md (scripts, templates), folder-relative, at most a few dozen. */
  files: z.array(z.string()),
  source: ExtensionSource,
});
export type Skill = z.infer<typeof Skill>;

/** Model tier a custom role asks for (`inherit` or none: the default model). */
export const RoleModelTier = z.enum(['basic', 'reasoning', 'default']);
export type RoleModelTier = z.infer<typeof RoleModelTier>;

/** A custom role (`.stepwise/agents/*.md` and compatible): a plan step assigned to it runs with exactly its tools and its prompt. */
export const CustomRole = z.object({
  name: ExtensionName,
  description: z.string().min(1),
  /** Stepwise tool names (Claude Code's names already mapped); `undefined`: every tool the task has. */
  tools: z.array(z.string()).optional(),
  model: RoleModelTier.optional(),
  /** The role's system prompt (the file's body). */
  prompt: z.string(),
  /** Where it was read from (workspace-relative or absolute), for messages. */
  path: z.string(),
  source: ExtensionSource,
});
export type CustomRole = z.infer<typeof CustomRole>;

/** A prompt file: `/name args` in the chat box or `stepwise run "/name args"` runs its body with the arguments. */
export const PromptFile = z.object({
  name: ExtensionName,
  description: z.string().optional(),
  /** Shown after `/name` in suggestions (`argument-hint`). */
  argumentHint: z.string().optional(),
  body: z.string(),
  path: z.string(),
  source: ExtensionSource,
});
export type PromptFile = z.infer<typeof PromptFile>;

/** What one load found; `problems` name the files skipped and why (shown to the user, never fatal). */
export interface LoadedExtensions {
  skills: Skill[];
  roles: CustomRole[];
  prompts: PromptFile[];
  problems: string[];
}
