import type { ApprovalCategory } from '../../shared/events';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../ports';
import type { ShellDialect } from '../shellInfo';
import { analyzeCommand } from './analyzeCommand';
import { judgeCommand, type CommandVerdict } from './commandPolicy';
import { protectedPathReason } from './protectedPaths';
import type { ShellSyntax } from './shellSyntax';
import { PERMISSION_RULES, type PermissionMode } from '../../shared/sandboxModes';

/** The rules the policy obeys, read fresh for every request (settings can change during a run). */
export interface ApprovalRules {
  autoApprove: readonly ApprovalCategory[];
  commandsAllow: readonly string[];
  commandsDeny: readonly string[];
  /** The task's permission mode (`PERMISSION_RULES`); absent = `ask`, today's behaviour. */
  permissionMode?: PermissionMode;
}

/**
 * The one approval policy of both shells. It wraps the shell's interactive Approver (`user`) and
 * decides, in this order: an edit of a protected path, and an MCP server's request to use the model
 * (sampling), ask the user (always); a command matching the
 * deny list is refused; a command the policy cannot see through asks; an allowed command runs; an
 * MCP tool its server's `autoApprove` lists runs; a category in `autoApprove`, or allowed "always"
 * for this session, runs; everything else asks.
 */
export class PolicyApprover implements Approver {
  private readonly sessionAlways = new Set<ApprovalCategory>();

  constructor(
    private readonly rules: () => ApprovalRules,
    private readonly user: Approver,
    private readonly syntax: () => Promise<ShellSyntax>,
  ) {}

  /** Approves later requests of `category` until the session ends (the UI's "always allow"); never protected paths or denied commands. */
  allowForSession(category: ApprovalCategory): void {
    this.sessionAlways.add(category);
  }

  /** Categories allowed for this session. */
  sessionCategories(): ApprovalCategory[] {
    return [...this.sessionAlways];
  }

  /** The verdict of the command lists on a command line run in `cwd`. */
  async judge(command: string, cwd: string, dialect?: ShellDialect): Promise<CommandVerdict> {
    const rules = this.rules();
    let syntax: ShellSyntax;
    try {
      syntax = await this.syntax();
    } catch (error) {
      // Without the parser nothing can be seen through: ask, never run unchecked.
      return { kind: 'ask', reason: `the shell parser is not available (${error instanceof Error ? error.message : String(error)})`, visible: false };
    }
    return judgeCommand(analyzeCommand(syntax, command, dialect), { allow: rules.commandsAllow, deny: rules.commandsDeny }, cwd);
  }

  async approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    const decision = await this.decide(request, signal);
    return decision ?? this.ask(request, signal);
  }

  /** Asks the person, after announcing the request (it shows as waiting only now). */
  private ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    request.announce?.();
    return this.user.approve(request, signal);
  }

  /** The policy's decision (asking the person itself when it must say why); `undefined` = a plain question to the person. */
  private async decide(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision | undefined> {
    const rules = this.rules();
    const permission = PERMISSION_RULES[rules.permissionMode ?? 'ask'];
    const automatic = permission.approveAll || rules.autoApprove.includes(request.category) || this.sessionAlways.has(request.category);
    const protectedReason = request.paths?.map(protectedPathReason).find((r) => r !== undefined);
    if (protectedReason) return this.ask({ ...request, askReason: `Protected file: ${protectedReason}.` }, signal);
    // A server's prompt sent to the user's model on the user's tokens: a person decides each time, whatever is auto-approved.
    if (request.category === 'mcp' && request.mcp?.sampling === true) return this.ask({ ...request, askReason: 'An MCP server asks to use the model; such requests are always asked.' }, signal);
    if (request.category === 'edit' && permission.refuseEdits) {
      return { approved: false, byPolicy: true, reason: 'The task runs in read-only mode: files are not changed. Report what you would change instead.' };
    }
    if (request.category === 'command' && request.command) {
      const verdict = await this.judge(request.command.text, request.command.cwd, request.command.shell);
      if (verdict.kind === 'deny') {
        return {
          approved: false,
          byPolicy: true,
          reason: `The command is refused by the deny list ("${verdict.pattern}" matches \`${verdict.command}\`); it was not run. Do not retry it or a variant of it.`,
        };
      }
      // Leaving the sandbox is the user's call every time, whatever is auto-approved or allowed.
      const leave = request.sandbox?.leaveReason;
      if (leave !== undefined) return this.ask({ ...request, askReason: `Asks to run outside the sandbox (${request.sandbox!.mode}): ${leave}` }, signal);
      if (verdict.kind === 'allow') return { approved: true };
      // Inside the sandbox the command is confined whatever it hides: the mode lets it run without asking.
      if (request.sandbox && request.sandbox.mode !== 'off' && permission.autoApproveSandboxed) return { approved: true };
      if (!verdict.visible) return this.ask({ ...request, askReason: `Asked because ${verdict.reason}.` }, signal);
      if (automatic) return { approved: true };
      return this.ask({ ...request, askReason: `Asked because ${verdict.reason}.` }, signal);
    }
    // An MCP server's `autoApprove` list is an input of the policy like the user's categories; it is
    // set only for servers of the user's own or a trusted configuration (the list is part of what the user trusted).
    if (request.category === 'mcp' && request.mcp?.autoApproved === true) return { approved: true };
    if (automatic) return { approved: true };
    return undefined;
  }
}
