import type { AgentEvent } from '../../../src/shared/events';
import { silentLogger, type ApprovalDecision, type ApprovalRequest, type CommandRunner, type Question } from '../../../src/agent/ports';
import { builtinTools } from '../../../src/agent/tools/builtins/index';
import type { ToolContext, ToolResult } from '../../../src/agent/tools/tool';
import { ToolRegistry } from '../../../src/agent/tools/toolRegistry';
import { FakeCommandRunner } from '../../support/fakeCommandRunner';
import { MemoryWorkspace } from '../../support/memoryWorkspace';

/** How the harness answers approvals and questions. */
export interface HarnessOptions {
  workspace?: MemoryWorkspace;
  commands?: CommandRunner;
  /** Approval decisions; approve everything by default. */
  decide?: (request: Omit<ApprovalRequest, 'callId' | 'tool'>) => ApprovalDecision | Promise<ApprovalDecision>;
  /** The user's answer to ask_user; `undefined` means nobody can answer. */
  answer?: (question: Question) => string | undefined;
  controller?: AbortController;
}

/** The built-in tools behind a real ToolRegistry, with recording ports. */
export class ToolHarness {
  readonly workspace: MemoryWorkspace;
  readonly commands: CommandRunner;
  readonly registry = new ToolRegistry(builtinTools());
  readonly events: AgentEvent[] = [];
  readonly approvals: Array<Omit<ApprovalRequest, 'callId' | 'tool'>> = [];
  readonly questions: Question[] = [];
  readonly controller: AbortController;
  private calls = 0;

  constructor(private readonly options: HarnessOptions = {}) {
    this.workspace = options.workspace ?? new MemoryWorkspace();
    this.commands = options.commands ?? new FakeCommandRunner();
    this.controller = options.controller ?? new AbortController();
  }

  /** A context for one call, as the agent loop would build it. */
  context(callId = `call_${++this.calls}`): ToolContext {
    return {
      workspace: this.workspace,
      commands: this.commands,
      logger: silentLogger,
      signal: this.controller.signal,
      callId,
      asker: {
        ask: async (question) => {
          this.questions.push(question);
          return this.options.answer ? this.options.answer(question) : undefined;
        },
      },
      requestApproval: async (request) => {
        this.approvals.push(request);
        return this.options.decide ? this.options.decide(request) : { approved: true };
      },
      emit: (event) => this.events.push(event),
    };
  }

  /** Calls a tool the way the loop does: JSON arguments parsed and validated by the registry. */
  async call(name: string, args: unknown, callId?: string): Promise<ToolResult> {
    const parsed = this.registry.parseArguments(name, typeof args === 'string' ? args : JSON.stringify(args));
    if (!parsed.ok) return { content: parsed.message, isError: true };
    return this.registry.execute(name, parsed.args, this.context(callId));
  }
}
