import { z } from 'zod';
import { StepRole } from '../../shared/plan';
import type { ExtensionFolder } from './extensionFolder';
import { CustomRole, PromptFile, RoleModelTier, Skill, type LoadedExtensions } from './extensionTypes';
import { parseFrontMatter } from './frontMatter';

/** Largest SKILL.md, role or prompt file read (bigger ones are skipped, and said so). */
export const MAX_EXTENSION_FILE_BYTES = 64 * 1024;
/** Most skills, roles or prompt files of each kind kept (the first found win). */
export const MAX_EXTENSIONS_PER_KIND = 64;
const MAX_SKILL_FILES_LISTED = 40;

/** Where each kind lives, in each kind of folder; the first folder that names a skill or role wins. */
export const EXTENSION_PLACES = {
  skills: { workspace: ['.stepwise/skills', '.agents/skills', '.claude/skills'], user: ['skills'] },
  roles: {
    workspace: [{ dir: '.stepwise/agents', suffix: '.md' }, { dir: '.claude/agents', suffix: '.md' }, { dir: '.github/agents', suffix: '.agent.md' }],
    user: [{ dir: 'agents', suffix: '.md' }],
  },
  prompts: {
    workspace: [{ dir: '.stepwise/prompts', suffix: '.md' }, { dir: '.github/prompts', suffix: '.prompt.md' }],
    user: [{ dir: 'prompts', suffix: '.md' }],
  },
} as const;

/** Claude Code's and VS Code's tool names for the same tools, so their agent files work unchanged. */
const TOOL_ALIASES: Record<string, string> = {
  read: 'read_file', write: 'write_file', edit: 'edit_file', multiedit: 'edit_file', bash: 'run_command', grep: 'search_files',
  glob: 'list_files', ls: 'list_files', webfetch: 'web_fetch', websearch: 'web_search', fetch: 'web_fetch', codebase: 'search_files',
  search: 'search_files', runcommands: 'run_command', editfiles: 'edit_file', skill: 'skill', task: 'delegate',
};

/**
 * Reads skills, custom roles and prompt files from the given folders, the user's first (a repository
 * cannot shadow the user's own skill or role of the same name). Nothing here throws for a bad file:
 * it is skipped and named in `problems`.
 */
export async function loadExtensions(folders: readonly ExtensionFolder[], signal?: AbortSignal): Promise<LoadedExtensions> {
  const out: LoadedExtensions = { skills: [], roles: [], prompts: [], problems: [] };
  const ordered = [...folders].sort((a, b) => (a.source === b.source ? 0 : a.source === 'user' ? -1 : 1));
  for (const folder of ordered) {
    for (const dir of EXTENSION_PLACES.skills[folder.source]) await loadSkills(folder, dir, out, signal);
    for (const place of EXTENSION_PLACES.roles[folder.source]) await loadMarkdown(folder, place, out, signal, addRole);
    for (const place of EXTENSION_PLACES.prompts[folder.source]) await loadMarkdown(folder, place, out, signal, addPrompt);
  }
  return out;
}

async function loadSkills(folder: ExtensionFolder, dir: string, out: LoadedExtensions, signal?: AbortSignal): Promise<void> {
  for (const entry of (await folder.list(dir, signal)).filter((e) => e.kind === 'dir').sort(byName)) {
    if (out.skills.length >= MAX_EXTENSIONS_PER_KIND) return;
    const path = `${dir}/${entry.name}/SKILL.md`;
    const text = await folder.read(path, MAX_EXTENSION_FILE_BYTES, signal);
    if (text === undefined) continue;
    const parsed = parseFrontMatter(text);
    if (!parsed.ok) {
      out.problems.push(`${folder.shown(path)}: ${parsed.error}`);
      continue;
    }
    const files = (await folder.list(`${dir}/${entry.name}`, signal)).filter((f) => f.name !== 'SKILL.md').map((f) => (f.kind === 'dir' ? `${f.name}/` : f.name)).sort();
    const skill = Skill.safeParse({
      name: parsed.data.name ?? entry.name,
      description: typeof parsed.data.description === 'string' ? parsed.data.description.trim() : parsed.data.description,
      body: parsed.body,
      folder: folder.shown(`${dir}/${entry.name}`),
      files: files.slice(0, MAX_SKILL_FILES_LISTED),
      source: folder.source,
    });
    if (!skill.success) out.problems.push(`${folder.shown(path)}: ${problemText(skill.error)}`);
    else if (!out.skills.some((s) => s.name === skill.data.name)) out.skills.push(skill.data);
  }
}

type MarkdownPlace = { dir: string; suffix: string };
type AddParsed = (data: Record<string, unknown>, body: string, file: { name: string; path: string; source: 'workspace' | 'user' }, out: LoadedExtensions) => void;

async function loadMarkdown(folder: ExtensionFolder, place: MarkdownPlace, out: LoadedExtensions, signal: AbortSignal | undefined, add: AddParsed): Promise<void> {
  const files = (await folder.list(place.dir, signal)).filter((e) => e.kind === 'file' && e.name.toLowerCase().endsWith(place.suffix)).sort(byName);
  for (const entry of files) {
    const path = `${place.dir}/${entry.name}`;
    const text = await folder.read(path, MAX_EXTENSION_FILE_BYTES, signal);
    if (text === undefined) {
      out.problems.push(`${folder.shown(path)}: unreadable or over ${MAX_EXTENSION_FILE_BYTES / 1024} KB`);
      continue;
    }
    const parsed = parseFrontMatter(text);
    if (!parsed.ok) out.problems.push(`${folder.shown(path)}: ${parsed.error}`);
    else add(parsed.data, parsed.body, { name: entry.name.slice(0, -place.suffix.length), path: folder.shown(path), source: folder.source }, out);
  }
}

const addRole: AddParsed = (data, body, file, out) => {
  const name = data.name ?? file.name;
  if (typeof name === 'string' && StepRole.safeParse(name.toLowerCase()).success) {
    out.problems.push(`${file.path}: "${name}" is a built-in role; give the custom role another name`);
    return;
  }
  const role = CustomRole.safeParse({
    name, description: data.description, prompt: body, path: file.path, source: file.source,
    ...(data.tools !== undefined ? { tools: toolNames(data.tools) } : {}),
    ...(modelTier(data.model) ? { model: modelTier(data.model) } : {}),
  });
  if (!role.success) out.problems.push(`${file.path}: ${problemText(role.error)}`);
  else if (out.roles.length < MAX_EXTENSIONS_PER_KIND && !out.roles.some((r) => r.name === role.data.name)) out.roles.push(role.data);
};

const addPrompt: AddParsed = (data, body, file, out) => {
  const prompt = PromptFile.safeParse({
    name: typeof data.name === 'string' ? data.name : file.name, body, path: file.path, source: file.source,
    ...(typeof data.description === 'string' ? { description: data.description } : {}),
    ...(typeof data['argument-hint'] === 'string' ? { argumentHint: data['argument-hint'] } : {}),
  });
  if (!prompt.success) out.problems.push(`${file.path}: ${problemText(prompt.error)}`);
  else if (out.prompts.length < MAX_EXTENSIONS_PER_KIND && !out.prompts.some((p) => p.name === prompt.data.name)) out.prompts.push(prompt.data);
};

/** `tools: Read, Grep` (Claude Code), `tools: ['codebase']` (VS Code) or Stepwise names, as Stepwise names. */
export function toolNames(raw: unknown): string[] | undefined {
  const list = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw.filter((t): t is string => typeof t === 'string') : undefined;
  if (!list) return undefined;
  const names = list.map((t) => t.trim()).filter(Boolean).map((t) => TOOL_ALIASES[t.toLowerCase()] ?? t);
  return [...new Set(names)];
}

/** `model:` as a tier: Stepwise's tier names, or Claude Code's haiku / sonnet / opus / inherit. */
export function modelTier(raw: unknown): RoleModelTier | undefined {
  if (typeof raw !== 'string') return undefined;
  const value = raw.trim().toLowerCase();
  const mapped = value === 'haiku' ? 'basic' : value === 'opus' ? 'reasoning' : value === 'sonnet' || value === 'inherit' ? 'default' : value;
  return RoleModelTier.safeParse(mapped).success ? (mapped as RoleModelTier) : undefined;
}

function byName(a: { name: string }, b: { name: string }): number {
  return a.name.localeCompare(b.name);
}

function problemText(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'file'}: ${issue.message}`).join('; ');
}

