import * as vscode from 'vscode';
import type { Logger } from '../../../agent/ports';
import type { SamplingHandler } from '../../../mcp';
// The handlers' own files, not the barrel: the barrel pulls in the MCP SDK, which loads only when a server starts.
import { createAskerElicitationHandler } from '../../../mcp/askerElicitationHandler';
import { createModelSamplingHandler } from '../../../mcp/modelSamplingHandler';
import type { StepwiseConfig } from '../../common/config/stepwiseConfig';
import type { ModelProvider } from '../model/modelProvider';
import type { McpServerRequests } from '../../common/mcp/mcpHost';
import { QuickInputAsker } from './quickInputAsker';
import { approveSampling, type SamplingApprovalPath } from '../../../mcp/samplingApproval';

/** What the handlers need: the model settings and where to log. */
export interface McpServerRequestDeps {
  models: ModelProvider;
  readConfig: () => StepwiseConfig;
  logger: Logger;
  /** The running task's policy approver and event stream (`undefined` when no task runs: the request is refused). */
  approvalPath: () => SamplingApprovalPath | undefined;
}

/**
 * The VS Code answers to MCP servers' requests. Sampling: the run's current default model, after
 * the one approval policy allowed it (`approveSampling`: the running task's approver and events, so
 * the chat shows it like any approval; refused when no task runs or no model is configured).
 * Elicitation: one quick pick or input box per field of the requested form.
 */
export function createMcpServerRequests(deps: McpServerRequestDeps): McpServerRequests {
  const sampling: SamplingHandler = async (request, signal) => {
    let resolved;
    try {
      resolved = await deps.models.resolve(deps.readConfig());
    } catch (error) {
      deps.logger.warn(`MCP server ${request.server} asked for sampling, but no model is configured`, error);
      return { approved: false, reason: 'no model is configured in Stepwise' };
    }
    const modelName = resolved.displayName;
    const answer = await createModelSamplingHandler({
      model: resolved.tiers.default,
      approve: (req, approveSignal) => approveSampling(req, deps.approvalPath(), approveSignal),
    })(request, signal);
    deps.logger.info(`MCP server ${request.server}: sampling request ${answer.approved ? `answered by ${modelName}` : 'denied'}`);
    return answer;
  };
  return {
    sampling,
    elicitation: createAskerElicitationHandler(new QuickInputAsker(vscode.l10n.t('Stepwise: MCP server request'))),
  };
}
