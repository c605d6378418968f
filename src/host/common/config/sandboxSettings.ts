import type { SandboxWanted } from '../../../node/sandbox/sandboxSource';
import { PERMISSION_RULES } from '../../../shared/sandboxModes';
import type { StepwiseConfig } from './stepwiseConfig';

/** The sandbox VS Code's commands run in, from the settings: the permission mode's sandbox, the folder, the allowed hosts. */
export function sandboxWanted(config: Pick<StepwiseConfig, 'permissionMode' | 'sandboxAllowHosts' | 'webAllowHosts' | 'webDenyHosts'>, folder: string | undefined): SandboxWanted {
  return {
    mode: PERMISSION_RULES[config.permissionMode].sandbox,
    workspace: folder,
    allowHosts: config.sandboxAllowHosts,
    webPolicy: { allowHosts: config.webAllowHosts, denyHosts: config.webDenyHosts },
  };
}
