import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import type * as acp from '@agentclientprotocol/sdk';
import { loadServerSdks } from './loadServerSdks';

import { CancelledError } from '../../agent/errors';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../../agent/ports';
import type { EventEnvelope } from '../../shared/events';
import { AcpUpdateMapper, diffContent, toolKind } from './acpUpdates';
import { acpMcpConfig } from './acpMcpConfig';
import { acpStoredSession, rememberedRun, rememberSession } from './acpHistory';
import { runServerTask, type ServerStart } from './serverTask';

/** The ACP SDK's values (its types come from the type-only import). */
const acpSdk = () => loadServerSdks().acp;

/** One ACP session: its folder, its MCP servers (as a config file), the last run (a follow-up resumes it), the running prompt. */
interface AcpSession {
  cwd: string;
  mcpConfig?: string;
  lastRunId?: string;
  running?: AbortController;
}

/** Asks the ACP client (`session/request_permission`) whenever the core's policy asks a person. */
export class AcpApprover implements Approver {
  constructor(private readonly client: acp.AgentContext, private readonly sessionId: string, private readonly cwd: string) {}

  async approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    const content = request.diff ? [diffContent(request.diff, this.cwd)] : [{ type: 'content' as const, content: { type: 'text' as const, text: request.detail } }];
    const answer = await this.client.request(acpSdk().methods.client.session.requestPermission, {
      sessionId: this.sessionId,
      toolCall: { toolCallId: request.callId, title: request.title, kind: toolKind(request.category), status: 'pending', content },
      options: [
        { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
        { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
      ],
    }, { cancellationSignal: signal, stopWaitingOnCancel: true }).catch((error: unknown) => {
      // A stopped task does not wait for a client that never answers the cancelled request.
      if (signal.aborted) throw new CancelledError();
      throw error;
    });
    if (answer.outcome.outcome === 'selected' && answer.outcome.optionId === 'allow') return { approved: true };
    return { approved: false, ...(answer.outcome.outcome === 'cancelled' ? { reason: 'The request was cancelled' } : {}) };
  }
}

/** The prompt's text: text blocks as they are, links and embedded resources by their URI (the agent reads files itself). */
export function promptText(blocks: readonly acp.ContentBlock[]): string {
  return blocks.map((b) => (b.type === 'text' ? b.text : b.type === 'resource_link' ? b.uri : b.type === 'resource' ? b.resource.uri : '')).filter(Boolean).join('\n');
}

/** The ACP agent's state: its sessions, and the server start every task runs with. */
class StepwiseAcpAgent {
  private readonly sessions = new Map<string, AcpSession>();
  private readonly prompts = new Set<Promise<unknown>>();
  constructor(private readonly start: ServerStart) {}

  async newSession(params: acp.NewSessionRequest): Promise<acp.NewSessionResponse> {
    // ACP sends absolute folders; a relative one would silently mean the agent's own folder.
    if (!path.isAbsolute(params.cwd)) throw acpSdk().RequestError.invalidParams(undefined, `cwd must be an absolute path: ${params.cwd}`);
    const sessionId = randomUUID();
    this.sessions.set(sessionId, { cwd: params.cwd, mcpConfig: await acpMcpConfig(params.mcpServers, sessionId) });
    return { sessionId };
  }

  /** `session/load`: an in-memory session, or a stored task (an id of `stepwise tasks`) replayed as updates; its next prompt continues it. */
  async loadSession(params: acp.LoadSessionRequest, client: acp.AgentContext): Promise<acp.LoadSessionResponse> {
    const known = this.sessions.get(params.sessionId);
    // A session of this agent that ran nothing yet has nothing to replay.
    if (known && !known.lastRunId) return {};
    const runId = known?.lastRunId ?? (await rememberedRun(this.start.env, params.sessionId)) ?? params.sessionId;
    const events = await acpStoredSession(this.start.env, runId, params.cwd);
    const mapper = new AcpUpdateMapper(params.cwd);
    for (const event of events) {
      for (const update of mapper.updates(event, true)) await client.notify(acpSdk().methods.client.session.update, { sessionId: params.sessionId, update });
    }
    this.sessions.set(params.sessionId, { cwd: params.cwd, mcpConfig: await acpMcpConfig(params.mcpServers, params.sessionId), lastRunId: runId });
    return {};
  }

  /** Runs a prompt, kept in `prompts` until it ends so the agent can wait for it before exiting. */
  prompt(params: acp.PromptRequest, client: acp.AgentContext): Promise<acp.PromptResponse> {
    const running = this.runPrompt(params, client);
    this.prompts.add(running);
    void running.finally(() => this.prompts.delete(running)).catch(() => undefined);
    return running;
  }

  private async runPrompt(params: acp.PromptRequest, client: acp.AgentContext): Promise<acp.PromptResponse> {
    const session = this.sessions.get(params.sessionId);
    if (!session) throw acpSdk().RequestError.resourceNotFound(params.sessionId);
    if (session.running) throw acpSdk().RequestError.invalidRequest(undefined, 'A prompt is already running in this session');
    const controller = new AbortController();
    session.running = controller;
    const mapper = new AcpUpdateMapper(session.cwd);
    // Updates go out in the order of the events: each waits for the one before.
    let sent: Promise<unknown> = Promise.resolve();
    const onEnvelope = (envelope: EventEnvelope) => {
      for (const update of mapper.updates(envelope.event)) {
        sent = sent.then(() => client.notify(acpSdk().methods.client.session.update, { sessionId: params.sessionId, update })).catch(() => undefined);
      }
    };
    try {
      const result = await runServerTask(this.start, {
        task: promptText(params.prompt), workspace: session.cwd, mcpConfig: session.mcpConfig, ...(session.lastRunId ? { resume: session.lastRunId } : {}),
      }, { onEnvelope, approver: new AcpApprover(client, params.sessionId, session.cwd), signal: controller.signal });
      if (result.runId && result.finished) {
        session.lastRunId = result.runId;
        await rememberSession(this.start.env, params.sessionId, result.runId).catch((error: unknown) => this.start.stderr(`stepwise acp: session not remembered: ${String(error)}\n`));
      }
      if (!result.finished) onEnvelope({ v: 1, seq: 0, runId: '', ts: Date.now(), event: { type: 'text_delta', text: `Stepwise could not start the task: ${result.problem ?? 'unknown reason'}` } } as EventEnvelope);
      await sent;
      return { stopReason: controller.signal.aborted || result.finished?.outcome === 'cancelled' ? 'cancelled' : 'end_turn' };
    } finally {
      session.running = undefined;
    }
  }

  cancel(params: acp.CancelNotification): void {
    this.sessions.get(params.sessionId)?.running?.abort();
  }

  /** Stops every running prompt and waits until each has ended (commands stopped, history written). */
  async cancelAll(): Promise<void> {
    for (const session of this.sessions.values()) session.running?.abort();
    await Promise.allSettled([...this.prompts]);
  }
}

/**
 * `stepwise acp`: an Agent Client Protocol agent on stdio (`@agentclientprotocol/sdk`), for Zed,
 * JetBrains IDEs, Neovim and other ACP clients. Each prompt runs through the same `runCli` as
 * `stepwise run` (a follow-up prompt resumes the session's task); approvals the policy asks become
 * `session/request_permission`. Resolves when the client closes the connection.
 */
export async function serveAcp(start: ServerStart, version: string, signal: AbortSignal): Promise<number> {
  const agent = new StepwiseAcpAgent(start);
  const app = acpSdk().agent({ name: 'stepwise' })
    .onRequest(acpSdk().methods.agent.initialize, () => ({
      protocolVersion: acpSdk().PROTOCOL_VERSION,
      agentCapabilities: { loadSession: true, promptCapabilities: { image: false, audio: false, embeddedContext: false } },
      authMethods: [],
      agentInfo: { name: 'stepwise', title: 'Stepwise', version },
    }))
    .onRequest(acpSdk().methods.agent.session.new, ({ params }) => agent.newSession(params))
    .onRequest(acpSdk().methods.agent.session.load, ({ params, client }) => agent.loadSession(params, client))
    .onRequest(acpSdk().methods.agent.session.prompt, ({ params, client }) => agent.prompt(params, client))
    .onNotification(acpSdk().methods.agent.session.cancel, ({ params }) => agent.cancel(params));
  const stream = acpSdk().ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
  const connection = app.connect(stream);
  signal.addEventListener('abort', () => connection.close(), { once: true });
  await connection.closed.catch(() => undefined);
  await agent.cancelAll();
  return 0;
}
