import { z } from 'zod';
import { ToolError } from '../errors';
import { defineTool, type AnyTool } from '../tools/tool';
import type { Skill } from './extensionTypes';

/** Name of the tool that opens a skill. */
export const SKILL_TOOL = 'skill';

/** The catalog in the tool's description: one line per skill, name and description only (progressive disclosure). */
export function skillCatalog(skills: readonly Skill[]): string {
  return skills.map((skill) => `- ${skill.name}: ${skill.description.replace(/\s+/g, ' ')}`).join('\n');
}

/**
 * The `skill` tool, or `undefined` when there are no skills. Its description lists every skill's
 * name and description (so the model knows them from the first request on, and the context gauge
 * counts them with the tools); the body of a skill reaches the model only as this tool's result,
 * when the model decides to use it. A skill's scripts run through `run_command`, with its approval.
 */
export function skillTool(skills: readonly Skill[]): AnyTool | undefined {
  if (skills.length === 0) return undefined;
  const names = skills.map((s) => s.name);
  return defineTool({
    name: SKILL_TOOL,
    description:
      'Open a skill: instructions (and scripts) for a kind of task, written by the user or the project. ' +
      'When a task matches a skill below, call this tool with its name first and follow what it says.\n' +
      `Skills:\n${skillCatalog(skills)}`,
    category: 'read',
    parameters: z.object({ name: z.string().min(1).describe(`one of: ${names.join(', ')}`) }),
    async execute(args) {
      const skill = skills.find((s) => s.name === args.name) ?? skills.find((s) => s.name.toLowerCase() === args.name.toLowerCase());
      if (!skill) throw new ToolError(`No skill named "${args.name}". Skills: ${names.join(', ')}.`);
      const files = skill.files.length ? `\nFiles in the skill's folder (run its scripts with run_command): ${skill.files.join(', ')}` : '';
      return { content: `Skill "${skill.name}" (folder ${skill.folder}):${files}\n\n${skill.body}` };
    },
  });
}
