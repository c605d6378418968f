import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { systemClock } from '../agent/clock';
import { EventStream } from '../agent/events/eventStream';
import { envelopeJson } from '../agent/events/envelopeJson';
import { resumeTask } from '../agent/flow/resumeTask';
import { stepToRetry } from './retryStepArg';
import { DEFAULT_RULES_SETTINGS } from '../agent/context/rulesFiles';
import { retryStep, runTask, type RetryStepOptions } from '../agent/flow/runTask';
import type { TaskResult } from '../agent/flow/taskTypes';
import type { ModelTiers } from '../agent/flow/modelTiers';
import type { Model } from '../agent/model/types';
import { ToolRegistry } from '../agent/tools/toolRegistry';
import { builtinTools } from '../agent/tools/builtins';
import type { Logger } from '../agent/ports';
import { expandMentions } from '../agent/mentions';
import { nodeMentionResolver } from '../node/nodeMentionResolver';
import { NodeWorkspace } from '../node/nodeWorkspace';
import { setChildEnvironmentRules } from '../node/childEnv';
import type { AgentEvent } from '../shared/events';
import { CliAsker } from './cliAsker';
import { readCliConfig, type CliFileConfig } from './cliConfig';
import { cliSecurity } from './cliSecurity';
import { cliApiKey, endpointProblem, modelMaker } from './cliModelMaker';
import { parseCliArgs, UsageError, type CliOptions } from './cliArgs';
import { USAGE } from './cliUsage';
import { historyToResume, listTasks } from './cliTasks';
import { cliHistory } from './cliPlaces';
import { ConsoleRenderer } from './consoleRenderer';
import { cliPlanReview } from './cliPlanReview';
import { taskWeb } from '../node/web/nodeWebTools';
import { taskPython } from '../node/python/taskPython';
import type { McpHub } from '../mcp';
import type * as CliMcp from './cliMcp';
import { EXIT, type CliIo } from './cliIo';
import { checkpointsCommand, openCliCheckpoints } from './checkpointsCommand';
import { restoreCommand } from './restoreCommand';
import { recoverInterruptedRestore } from './cliCheckpointStore';
import { historyCommand } from './historyCommand';
import { historyAction } from './historyActions';
import { setupCommand } from './setupCommands';
import { settleBackgroundCommands } from '../agent/tools/backgroundCommands';
import { historyPruneFromEnv } from '../node/historyRules';
import { exitCodeForOutcome } from '../shared/outcomeClass';
import { nodeShellSyntax } from '../node/shellWasm';
import { cliExtensions } from './cliExtensions';
import { openCliSandbox } from './cliSandbox';
import { MessageInbox } from '../agent/loop/messageInbox';
import { firstMessage, readStreamJsonInput } from './cliInput';


function stderrLogger(io: CliIo, verbose: boolean): Logger {
  const write = (level: string) => (message: string, ...details: unknown[]) => {
    if (level === 'debug' && !verbose) return;
    const extra = details.map((d) => (d instanceof Error ? d.message : typeof d === 'string' ? d : JSON.stringify(d))).join(' ');
    io.stderr(`[${level}] ${message}${extra ? ' ' + extra : ''}\n`);
  };
  return { debug: write('debug'), info: () => {}, warn: write('warn'), error: write('error') };
}

/** Parses the arguments and checks what `run` / `resume` need; a number is the exit code to stop with. */
async function parseOptions(io: CliIo): Promise<{ options: CliOptions; fileConfig: CliFileConfig } | number> {
  try {
    const options = parseCliArgs(io.argv, io.env, io.cwd);
    if (!options) {
      io.stdout(USAGE + '\n');
      return EXIT.finished;
    }
    if (options.command === 'tasks') return { options, fileConfig: {} };
    if (!options.model) throw new UsageError('No model: pass --model or set STEPWISE_MODEL');
    if (options.input === 'stream-json' && io.prompter) throw new UsageError('--input stream-json reads messages from stdin: pipe them in (stdin is a terminal here)');
    const info = await stat(options.workspace).catch(() => undefined);
    if (!info?.isDirectory()) throw new UsageError(`--workspace is not a folder: ${options.workspace}`);
    const fileConfig: CliFileConfig = options.config ? await readCliConfig(path.resolve(io.cwd, options.config)) : {};
    return { options, fileConfig };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`stepwise: ${error.message}\n\n${USAGE}\n`);
    return EXIT.usage;
  }
}

/** The stored events `stepwise resume <id>` continues (`undefined` for `run`); a number is the exit code for a bad id. */
async function storedTask(options: CliOptions, history: ReturnType<typeof cliHistory>, root: string, io: CliIo): Promise<AgentEvent[] | undefined | number> {
  if (options.command !== 'resume') return undefined;
  try {
    const events = await historyToResume(history, options.taskId!, root, io.env);
    // A step that cannot be retried is a usage error, said before anything starts.
    if (options.retryStep) stepToRetry(events, options.retryStep);
    return events;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`stepwise: ${error.message}\n`);
    return EXIT.usage;
  }
}

/** The model tiers of a run: --model (reads images with --vision), --basic-model, --reasoning-model, --vision-model. */
function cliModels(options: CliOptions, make: (name: string, vision?: boolean) => Model): ModelTiers {
  return {
    default: make(options.model!, options.web.vision),
    basic: options.basicModel ? make(options.basicModel) : undefined,
    reasoning: options.reasoningModel ? make(options.reasoningModel) : undefined,
    vision: options.web.visionModel ? make(options.web.visionModel, true) : undefined,
  };
}

/** Prints the run as JSON lines (`--json`) or for a person. */
function subscribeOutput(events: EventStream, json: boolean, io: CliIo): void {
  if (io.onEnvelope) {
    events.subscribe(io.onEnvelope);
    return;
  }
  if (json) {
    events.subscribe((envelope) => io.stdout(envelopeJson(envelope) + '\n'));
    return;
  }
  const renderer = new ConsoleRenderer({ write: io.stdout, color: io.color });
  events.subscribe((envelope) => renderer.render(envelope));
}

/** What the flags decide for the core: limits and budgets, rules files, verification. */
function runSettings(options: CliOptions) {
  return {
    // --max-steps bounds a direct run and each plan step alike (the core's rule).
    limits: {
      ...(options.tokenBudget ? { taskTokenBudget: options.tokenBudget } : {}),
      ...(options.costBudget ? { taskCostBudgetUsd: options.costBudget } : {}),
    },
    agentLimits: { maxTurns: options.maxSteps, maxInputTokens: options.maxInputTokens, ...(options.contextWindow ? { contextWindow: options.contextWindow } : {}) },
    ...(options.rules ? { rules: { settings: DEFAULT_RULES_SETTINGS } } : {}),
    verify: { mode: options.verifyMode, commands: options.verify },
  };
}

/**
 * The task's inbox, fed from stdin with `--input stream-json` until `stopInput`, and the task: the
 * argument, or (`run --input stream-json` without one) the first message; undefined (said on
 * stderr) when the endpoint is missing or stdin ended first.
 */
async function cliInput(options: CliOptions, io: CliIo, warn: (text: string) => void, missing: string | undefined): Promise<{ inbox: MessageInbox; stopInput?: () => void; task: string } | undefined> {
  // A run without an endpoint stops here, before anything reads stdin.
  if (missing) {
    io.stderr(`stepwise: ${missing}\n`);
    return undefined;
  }
  const inbox = new MessageInbox();
  if (options.input !== 'stream-json' || !io.stdin) return { inbox, task: options.task };
  const stopInput = readStreamJsonInput(io.stdin, inbox, warn);
  if (options.task || options.command !== 'run') return { inbox, stopInput, task: options.task };
  const first = await firstMessage(inbox, io.stdin, io.signal);
  if (first !== undefined) return { inbox, stopInput, task: first };
  stopInput();
  io.stderr('stepwise: --input stream-json: stdin ended before a first message (the task)\n');
  return undefined;
}

/** The commands that run no task (`checkpoints`, `restore`, `history`, set-up), or `undefined` for the rest. */
function otherCommand(io: CliIo): Promise<number> | undefined {
  const command = io.argv[0];
  if (command === 'checkpoints') return checkpointsCommand(io);
  if (command === 'restore') return restoreCommand(io);
  if (command === 'history') return historyCommand(io, historyAction);
  if (command === 'models' || command === 'presets' || command === 'check') return setupCommand(io);
  return undefined;
}

/** The run a command asks for: a new task, a resumed one, or (`resume --retry-step N`) one step again, as VS Code's Retry. */
function startRun(options: CliOptions, ports: RetryStepOptions, resumed: AgentEvent[] | undefined, task: string, review: ReturnType<typeof cliPlanReview> | undefined): Promise<TaskResult> {
  const retry = options.retryStep && resumed ? stepToRetry(resumed, options.retryStep) : undefined;
  if (retry) return retryStep(ports, retry.state, retry.stepId);
  if (resumed) return resumeTask({ ...ports, history: resumed, resumedFrom: options.taskId!, ...(task ? { instruction: task } : {}) });
  return runTask({ ...ports, task, planMode: options.planMode, review: review ? 'ask' : 'auto', reviewPlan: review, lookFirst: options.lookFirst });
}

/** Says a usage problem found once the run's resources were open, closes them and exits 2. */
async function usageStop(io: CliIo, problem: string, closing: Promise<unknown> = Promise.resolve()): Promise<number> {
  io.stderr(`stepwise: ${problem}\n`);
  await closing;
  return EXIT.usage;
}

/** The MCP servers of `--mcp-config`, connected; a bad configuration is said and its exit code returned. */
async function cliMcpHub(io: CliIo, options: Parameters<typeof CliMcp.connectCliMcp>[0]): Promise<McpHub | number> {
  try {
    // The MCP client (and its SDK bundle) loads only for a task given servers.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load is the point
    const { connectCliMcp } = require('./cliMcp') as typeof CliMcp;
    return await connectCliMcp(options);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`stepwise: ${error.message}\n`);
    return EXIT.usage;
  }
}

/** Runs `stepwise run | tasks | resume ...` to completion and returns the exit code; never throws for user errors. */
export async function runCli(io: CliIo): Promise<number> {
  // A restore a crash interrupted is rolled back before any command looks at the workspace.
  await recoverInterruptedRestore(io.env, io.argv, io.cwd, io.stderr);
  const other = otherCommand(io);
  if (other) return other;
  const parsed = await parseOptions(io);
  if (typeof parsed === 'number') return parsed;
  const { options, fileConfig } = parsed;
  const apiKey = cliApiKey(options, io.env);
  // Secrets are redacted from everything the CLI prints or stores, from the first log line on.
  const security = cliSecurity(options, fileConfig, io, apiKey);
  const logger = stderrLogger({ ...io, stderr: security.stderr }, Boolean(io.env.STEPWISE_DEBUG));
  const history = cliHistory(io.env, (error) => logger.warn('task history write failed', error));
  if (options.command === 'tasks') {
    await listTasks(history, options.json, io.stdout);
    return EXIT.finished;
  }
  const input = await cliInput(options, io, security.stderr, endpointProblem(options, apiKey));
  if (!input) return EXIT.usage;
  const root = await realpath(options.workspace);
  const resumed = await storedTask(options, history, root, io);
  if (typeof resumed === 'number') return resumed;
  const runId = randomUUID();
  const events = new EventStream(runId, Date.now, (error) => logger.error('event listener failed', error), (text) => security.redactor.redact(text));
  events.subscribe((envelope) => history.append(envelope));
  subscribeOutput(events, options.json, io);

  const models = cliModels(options, modelMaker(options, apiKey, logger, (text) => security.redactor.redact(text)));
  const defaultModel = models.default;
  // Every child of this process (commands, git, ripgrep, the browser) follows these rules.
  setChildEnvironmentRules(() => security.environment);
  const sandbox = await openCliSandbox(options, root, logger, security.stderr);
  if (typeof sandbox === 'string') return usageStop(io, sandbox);
  const commands = sandbox.commands;
  const web = taskWeb(options.web, root, runId, logger);
  // One Python session for the task (python_execute), ended with it below.
  const python = taskPython({ root, runId, python: io.env.STEPWISE_PYTHON, logger });
  const registry = new ToolRegistry([...builtinTools(), ...web.tools, ...python.tools]);
  const approver = security.approver;
  const asker = io.asker ?? new CliAsker(io.prompter);
  const hub = options.mcpConfig
    ? await cliMcpHub(io, {
      configPath: path.resolve(io.cwd, options.mcpConfig), workspaceRoot: root, env: io.env, registry,
      model: defaultModel, approver, emit: (event) => void events.emit(event), asker, logger, warn: security.stderr, environment: security.environment,
    })
    : undefined;
  if (typeof hub === 'number') return hub;
  const checkpoints = await openCliCheckpoints(io.env, root, events.runId);
  const workspace = new NodeWorkspace(root);
  const ports = {
    models,
    ...runSettings(options),
    tools: registry,
    workspace,
    commands,
    approver,
    asker,
    logger,
    clock: systemClock,
    events,
    signal: io.signal,
    images: web.images,
    checkpoints,
    shellSyntax: nodeShellSyntax,
    // The user's hooks come from the --config file they named (the CLI reads no workspace settings).
    ...(fileConfig.hooks ? { hooks: [{ source: '--config', config: fileConfig.hooks }] } : {}),
    inbox: input.inbox,
  };
  const review = options.review === 'ask' && io.prompter ? cliPlanReview(io.prompter, io.stderr) : undefined;
  const extensions = await cliExtensions({ ...options, task: input.task }, workspace, registry, { env: io.env, warn: security.stderr, signal: io.signal });
  if (!extensions.ok) return usageStop(io, extensions.usage, Promise.all([hub?.dispose(), sandbox.dispose(), web.dispose(), python.dispose()]));
  // @file, @folder/ and @changes in the task (or the resume instruction) attach their content, as in VS Code's chat box.
  const task = extensions.task ? await expandMentions(extensions.task, nodeMentionResolver(workspace), io.signal) : '';
  const running = startRun(options, { ...ports, roles: extensions.roles }, resumed, task, review);
  const result = await running.finally(async () => {
    input.stopInput?.();
    // The CLI has no one to ask: commands left in the background end with the task.
    await settleBackgroundCommands(commands);
    await Promise.all([hub?.dispose(), sandbox.dispose(), web.dispose(), python.dispose(), history.flush()]);
    await history.prune(historyPruneFromEnv(io.env), Date.now(), new Set([runId])).catch((error: unknown) => logger.warn('history pruning failed', error));
  });
  return exitCodeForOutcome(result.outcome);
}
