import { parseArgs } from 'node:util';
import { z } from 'zod';
import { DEFAULT_LIMITS } from '../agent/loop/runTypes';
import { SHELL_PREFERENCES, type ShellPreference } from '../agent/shellInfo';
import { ApprovalCategory } from '../shared/events';
import { PlanMode, ReviewMode, ToolProtocol } from '../shared/vocabulary';
import { CliWebOptions, webArgOptions, webOptionsFrom } from './cliWebArgs';
import { CliSandboxOptions, sandboxArgOptions, sandboxOptionsFrom } from './cliSandboxArgs';

/** The CLI's commands: run a task, list stored tasks, resume one. */
export const CliCommand = z.enum(['run', 'tasks', 'resume']);
export type CliCommand = z.infer<typeof CliCommand>;

/** Parsed `stepwise run | tasks | resume` invocation. */
export const CliOptions = z.object({
  command: CliCommand,
  /** The task (`run`) or the optional new instruction (`resume`); empty for `tasks`. */
  task: z.string(),
  /** The stored task to resume (`resume`). */
  taskId: z.string().optional(),
  /** `resume --retry-step N`: run this step of the stored plan again (its number, 1-based, or its id), as VS Code's Retry does. */
  retryStep: z.string().optional(),
  lookFirst: z.boolean(),
  workspace: z.string(),
  model: z.string().optional(),
  baseUrl: z.string().optional(),
  /** Whose wire format the model speaks: OpenAI-compatible chat completions, or Anthropic's Messages API (key in ANTHROPIC_API_KEY). */
  provider: z.enum(['openai', 'anthropic']),
  /** Anthropic extended thinking: the thinking budget in tokens (off when absent). */
  thinkingBudget: z.number().int().min(1024).optional(),
  /** Azure OpenAI's `api-version`: `--base-url` is then the resource endpoint and `--model` the deployment. */
  azureApiVersion: z.string().trim().min(1).optional(),
  maxSteps: z.number().int().positive(),
  /** From `--auto-approve`; `undefined` leaves it to `--config` or the default (see `cliRules`). */
  autoApprove: z.array(ApprovalCategory).optional(),
  allowCommands: z.array(z.string()),
  denyCommands: z.array(z.string()),
  /** From `--shell`: the shell commands run through (`auto` picks by platform). */
  shell: z.enum(SHELL_PREFERENCES),
  passEnv: z.array(z.string()),
  config: z.string().optional(),
  json: z.boolean(),
  toolProtocol: ToolProtocol,
  planMode: PlanMode,
  mcpConfig: z.string().optional(),
  maxInputTokens: z.number().int().positive(),
  review: ReviewMode,
  basicModel: z.string().optional(),
  reasoningModel: z.string().optional(),
  tokenBudget: z.number().int().positive().optional(),
  web: CliWebOptions,
  contextWindow: z.number().int().positive().optional(),
  costBudget: z.number().positive().optional(),
  rules: z.boolean(),
  /** Read skills, custom roles and prompt files (`--no-extensions`: none). */
  extensions: z.boolean(),
  verify: z.array(z.string().min(1)),
  verifyMode: z.enum(['auto', 'off']),
  sandbox: CliSandboxOptions,
  /** `stream-json`: stdin carries the user's messages while the task runs, one JSON object per line. */
  input: z.enum(['text', 'stream-json']),
});
export type CliOptions = z.infer<typeof CliOptions>;

/** A usage problem: the CLI prints it with the usage text and exits 2. */
export class UsageError extends Error {}

function positiveInt(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} needs a positive whole number, got "${value}"`);
  return n;
}

function positionalsOf(command: CliCommand, rest: string[]): { task: string; taskId?: string } {
  if (command === 'tasks') {
    if (rest.length) throw new UsageError('stepwise tasks takes no arguments');
    return { task: '' };
  }
  if (command === 'resume') {
    if (rest.length < 1 || rest.length > 2 || !rest[0]?.trim()) throw new UsageError('Give the task id to resume (see `stepwise tasks`), and optionally one quoted instruction');
    return { taskId: rest[0].trim(), task: rest[1]?.trim() ?? '' };
  }
  if (rest.length !== 1 || !rest[0]?.trim()) throw new UsageError('Give the task as one quoted argument');
  return { task: rest[0] };
}

/** Every flag `stepwise` takes (see USAGE). */
const ARG_OPTIONS = {
  workspace: { type: 'string' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  provider: { type: 'string' },
  'thinking-budget': { type: 'string' },
  'retry-step': { type: 'string' },
  'azure-api-version': { type: 'string' },
  'max-steps': { type: 'string' },
  'auto-approve': { type: 'string' },
  'tool-protocol': { type: 'string' },
  plan: { type: 'boolean' },
  'no-plan': { type: 'boolean' },
  'mcp-config': { type: 'string' },
  'allow-command': { type: 'string', multiple: true },
  'deny-command': { type: 'string', multiple: true },
  'pass-env': { type: 'string', multiple: true },
  shell: { type: 'string' },
  config: { type: 'string' },
  'max-input-tokens': { type: 'string' },
  review: { type: 'string' },
  'basic-model': { type: 'string' },
  'reasoning-model': { type: 'string' },
  'token-budget': { type: 'string' },
  'look-first': { type: 'boolean' },
  'cost-budget': { type: 'string' },
  'context-window': { type: 'string' },
  'no-rules': { type: 'boolean' },
  'no-extensions': { type: 'boolean' },
  verify: { type: 'string', multiple: true },
  'verify-mode': { type: 'string' },
  json: { type: 'boolean' },
  input: { type: 'string' },
  ...webArgOptions,
  ...sandboxArgOptions,
  help: { type: 'boolean', short: 'h' },
} as const;

/** `--provider`, checked with the flags that only one provider takes. */
function providerOf(provider = 'openai', thinkingBudget?: string, azureApiVersion?: string): 'openai' | 'anthropic' {
  if (provider !== 'openai' && provider !== 'anthropic') throw new UsageError('--provider must be openai or anthropic');
  if (thinkingBudget !== undefined && provider !== 'anthropic') throw new UsageError('--thinking-budget needs --provider anthropic');
  if (provider === 'anthropic' && azureApiVersion !== undefined) throw new UsageError('--azure-api-version and --provider anthropic exclude each other');
  return provider;
}

/** Parses argv (without node and script); `undefined` means help was asked for. Throws UsageError. */
export function parseCliArgs(argv: string[], env: NodeJS.ProcessEnv, cwd: string): CliOptions | undefined {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: ARG_OPTIONS,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return undefined;
  const [command, ...rest] = positionals;
  const parsedCommand = CliCommand.safeParse(command);
  if (!parsedCommand.success) throw new UsageError(command ? `Unknown command "${command}"` : 'Missing command: run, tasks, resume, or presets / models / check to set up a model');
  // With --input stream-json a run may take its task from stdin (the first message), as Claude Code's stream-json input does.
  const fromStdin = parsedCommand.data === 'run' && rest.length === 0 && values.input === 'stream-json';
  const { task, taskId } = fromStdin ? { task: '', taskId: undefined } : positionalsOf(parsedCommand.data, rest);
  if (values.plan && values['no-plan']) throw new UsageError('--plan and --no-plan exclude each other');
  const retryStep = values['retry-step']?.trim();
  if (retryStep !== undefined && (parsedCommand.data !== 'resume' || !retryStep)) throw new UsageError('--retry-step N goes with `stepwise resume <task-id>` and names a step (its number or id)');
  if (retryStep && task) throw new UsageError('--retry-step runs the step as planned: give no instruction with it');

  const categories = (values['auto-approve'] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const c of categories) {
    if (!ApprovalCategory.safeParse(c).success) {
      throw new UsageError(`--auto-approve: unknown category "${c}" (use ${ApprovalCategory.options.join(', ')})`);
    }
  }
  const protocol = values['tool-protocol'] ?? 'auto';
  if (!ToolProtocol.safeParse(protocol).success) throw new UsageError(`--tool-protocol must be ${ToolProtocol.options.join(', ')}`);
  const provider = providerOf(values.provider, values['thinking-budget'], values['azure-api-version']);

  const verifyMode = values['verify-mode'] ?? 'auto';
  if (verifyMode !== 'auto' && verifyMode !== 'off') throw new UsageError('--verify-mode must be auto or off');
  const input = values.input ?? 'text';
  if (input !== 'text' && input !== 'stream-json') throw new UsageError('--input must be text or stream-json');
  const review = values.review ?? 'auto';
  if (!ReviewMode.safeParse(review).success) throw new UsageError(`--review must be ${ReviewMode.options.join(' or ')}`);
  const sandbox = sandboxOptionsFrom(values);
  if (typeof sandbox === 'string') throw new UsageError(sandbox);

  return CliOptions.parse({
    sandbox,
    command: parsedCommand.data,
    task,
    taskId,
    ...(retryStep ? { retryStep } : {}),
    lookFirst: values['look-first'] ?? false,
    workspace: values.workspace ?? cwd,
    model: values.model ?? env.STEPWISE_MODEL,
    baseUrl: values['base-url'] ?? (provider === 'anthropic' ? env.ANTHROPIC_BASE_URL : env.OPENAI_BASE_URL),
    provider,
    thinkingBudget: thinkingBudget(values['thinking-budget']),
    azureApiVersion: values['azure-api-version'],
    maxSteps: positiveInt('--max-steps', values['max-steps'], DEFAULT_LIMITS.maxTurns),
    autoApprove: values['auto-approve'] === undefined ? undefined : [...new Set(categories)],
    allowCommands: values['allow-command'] ?? [],
    denyCommands: values['deny-command'] ?? [],
    passEnv: values['pass-env'] ?? [],
    shell: shellArg(values.shell),
    config: values.config,
    json: values.json ?? false,
    toolProtocol: protocol,
    planMode: values.plan ? 'always' : values['no-plan'] ? 'never' : 'auto',
    mcpConfig: values['mcp-config'],
    maxInputTokens: positiveInt('--max-input-tokens', values['max-input-tokens'], DEFAULT_LIMITS.maxInputTokens),
    review,
    basicModel: values['basic-model'] ?? env.STEPWISE_BASIC_MODEL,
    reasoningModel: values['reasoning-model'] ?? env.STEPWISE_REASONING_MODEL,
    tokenBudget: values['token-budget'] === undefined ? undefined : positiveInt('--token-budget', values['token-budget'], 1),
    web: webOptionsFrom(values, env),
    contextWindow: values['context-window'] === undefined ? undefined : positiveInt('--context-window', values['context-window'], 1),
    costBudget: values['cost-budget'] === undefined ? undefined : positiveNumber('--cost-budget', values['cost-budget']),
    rules: !values['no-rules'],
    extensions: !values['no-extensions'],
    verify: (values.verify ?? []).map((c) => c.trim()).filter(Boolean),
    verifyMode,
    input,
  });
}

/** Anthropic's smallest thinking budget is 1,024 tokens. */
function thinkingBudget(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = positiveInt('--thinking-budget', raw, 1024);
  if (value < 1024) throw new UsageError('--thinking-budget needs at least 1024 tokens');
  return value;
}

function positiveNumber(flag: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`${flag} needs a positive number`);
  return value;
}

/** `--shell`'s value, or a usage error naming the choices. */
function shellArg(value: string | undefined): ShellPreference {
  if (value === undefined) return 'auto';
  const found = SHELL_PREFERENCES.find((name) => name === value.toLowerCase());
  if (!found) throw new UsageError(`--shell must be one of ${SHELL_PREFERENCES.join(', ')} (got "${value}")`);
  return found;
}
