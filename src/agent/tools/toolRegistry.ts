import { z } from 'zod';
import { errorMessage, isCancellation, ToolError } from '../errors';
import type { ToolSpec } from '../model/types';
import type { AnyTool, ToolContext, ToolResult } from './tool';

/** Tool names model APIs accept: letters, digits, `_` and `-`, at most 64 characters. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** The JSON schema of a tool's zod parameters, as model APIs want it (no `$schema` key). */
export function toJsonSchema(parameters: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(parameters, { unrepresentable: 'any' }) as Record<string, unknown>;
  return schema;
}

/** Readable list of zod issues, e.g. "`edits.0.search`: expected string, received undefined". */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length ? `\`${issue.path.join('.')}\`` : 'arguments';
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}

/** A copy of a JSON value with `null` object members removed (arrays keep their items). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
  }
  return value;
}

/**
 * The tools a run may call. Tools can join and leave while a run goes on (MCP servers); `specs()`
 * reflects the current set. `execute` never throws for a bad call: an unknown tool, unparsable or
 * invalid arguments, and `ToolError`s all come back as error results the model can correct from.
 * Cancellation propagates.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();
  // By tool object: a view and its parent each cache, and a tool re-registered under the same name is a new entry.
  private readonly specCache = new WeakMap<AnyTool, ToolSpec>();
  /** Set on a view: the registry it shows (live, so tools joining it later are seen) and its rule. */
  private source?: { parent: ToolRegistry; keep: (tool: AnyTool) => boolean };

  constructor(tools: readonly AnyTool[] = []) {
    for (const tool of tools) this.register(tool);
  }

  /** Every tool: the view's own and those of its parent that pass its rule. */
  private all(): AnyTool[] {
    const own = [...this.tools.values()];
    if (!this.source) return own;
    const { parent, keep } = this.source;
    return [...parent.all().filter((tool) => keep(tool) && !this.tools.has(tool.name)), ...own];
  }

  /** Adds a tool; throws on an invalid or duplicate name (a bug in the caller). */
  register(tool: AnyTool): void {
    if (!TOOL_NAME_PATTERN.test(tool.name)) throw new Error(`Invalid tool name: ${tool.name}`);
    if (this.tools.has(tool.name)) throw new Error(`Duplicate tool name: ${tool.name}`);
    this.tools.set(tool.name, tool);
  }

  /** Removes a tool if present. */
  unregister(name: string): void {
    this.tools.delete(name);
  }

  get(name: string): AnyTool | undefined {
    const own = this.tools.get(name);
    if (own || !this.source) return own;
    const inherited = this.source.parent.get(name);
    return inherited && this.source.keep(inherited) ? inherited : undefined;
  }

  names(): string[] {
    return this.all().map((tool) => tool.name);
  }

  /** A live view with only the tools `keep` accepts: tools that join this registry later (MCP) show through it too. */
  view(keep: (tool: AnyTool) => boolean): ToolRegistry {
    const view = new ToolRegistry();
    view.source = { parent: this, keep };
    return view;
  }

  /** A registry with only the tools `keep` accepts (role subsets, Restricted Mode). */
  filter(keep: (tool: AnyTool) => boolean): ToolRegistry {
    return new ToolRegistry(this.all().filter(keep));
  }

  /** Tool specs for the model, JSON schemas computed once per tool. */
  specs(): ToolSpec[] {
    const out: ToolSpec[] = [];
    for (const tool of this.all()) {
      let spec = this.specCache.get(tool);
      if (!spec) {
        spec = { name: tool.name, description: tool.description, parameters: tool.jsonSchema ?? toJsonSchema(tool.parameters) };
        this.specCache.set(tool, spec);
      }
      out.push(spec);
    }
    return out;
  }

  /** Parses the model's JSON arguments; `{ok:false}` carries a message for the model. */
  parseArguments(name: string, rawArguments: string): { ok: true; args: unknown } | { ok: false; message: string } {
    const tool = this.get(name);
    if (!tool) return { ok: false, message: this.unknownToolMessage(name) };
    let json: unknown;
    const text = rawArguments.trim() === '' ? '{}' : rawArguments;
    try {
      json = JSON.parse(text);
    } catch (error) {
      return {
        ok: false,
        message: `The arguments for \`${name}\` are not valid JSON (${errorMessage(error)}). Send one JSON object matching the tool's schema.`,
      };
    }
    let parsed = tool.parameters.safeParse(json);
    // Smaller models send `null` for parameters they mean to leave out; accept that when it is the only problem.
    if (!parsed.success) {
      const retried = tool.parameters.safeParse(withoutNulls(json));
      if (retried.success) parsed = retried;
    }
    if (!parsed.success) {
      return { ok: false, message: `Invalid arguments for \`${name}\`: ${describeIssues(parsed.error)}. Fix them and call the tool again.` };
    }
    return { ok: true, args: parsed.data };
  }

  /** Runs a validated call; bad calls and `ToolError`s become error results. */
  async execute(name: string, args: unknown, context: ToolContext): Promise<ToolResult> {
    const tool = this.get(name);
    if (!tool) return { content: this.unknownToolMessage(name), isError: true };
    try {
      return await tool.execute(args, context);
    } catch (error) {
      if (isCancellation(error) || context.signal.aborted) throw error;
      if (error instanceof ToolError) return { content: error.message, isError: true };
      context.logger.error(`tool ${name} failed unexpectedly`, error);
      return { content: `Tool \`${name}\` failed: ${errorMessage(error)}`, isError: true };
    }
  }

  private unknownToolMessage(name: string): string {
    return `Unknown tool \`${name}\`. Available tools: ${this.names().join(', ')}.`;
  }
}
