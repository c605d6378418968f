import type { ModelTiers } from '../flow/modelTiers';
import type { Model } from '../model/types';
import type { ToolRegistry } from '../tools/toolRegistry';
import type { CustomRole } from './extensionTypes';

/** The tool a step agent ends with; every role gets it, as the plan's steps end only through it. */
const FINISH = 'finish';

/** Exactly the role's tools (those the task has), plus `finish`; a role without a `tools` list gets every tool. */
export function toolsForCustomRole(registry: ToolRegistry, role: CustomRole): ToolRegistry {
  if (!role.tools) return registry;
  const keep = new Set([...role.tools, FINISH]);
  return registry.filter((tool) => keep.has(tool.name));
}

/** The role's own model tier, falling back to the default model. */
export function modelForCustomRole(tiers: ModelTiers, role: CustomRole): Model {
  return (role.model ? tiers[role.model] : undefined) ?? tiers.default;
}

/** The planner's lines about the custom roles (empty when there are none). */
export function customRolesForPlanner(roles: readonly CustomRole[]): string[] {
  if (roles.length === 0) return [];
  return [
    'Custom members (defined by the user or the project; assign a step to one when its description fits the step, by its name as the role):',
    ...roles.map((role) => `- ${role.name}: ${role.description.replace(/\s+/g, ' ')}`),
  ];
}
