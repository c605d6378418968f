import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { systemClock } from '../agent/clock';
import { EventStream } from '../agent/events/eventStream';
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
import { ExecaCommandRunner } from '../node/execaCommandRunner';
import type { AgentEvent } from '../shared/events';
import { CliAsker } from './cliAsker';
import { readCliConfig, type CliFileConfig } from './cliConfig';
import { cliSecurity } from './cliSecurity';
import { cliApiKey, endpointProblem, modelMaker } from './cliModelMaker';
import { parseCliArgs, USAGE, UsageError, type CliOptions } from './cliArgs';
import { cliHistory, historyToResume, listTasks } from './cliTasks';
import { ConsoleRenderer } from './consoleRenderer';
import { cliPlanReview } from './cliPlanReview';
import { connectCliMcp } from './cliMcp';
import { taskWeb } from '../node/web/nodeWebTools';
import type { McpHub } from '../mcp';
import { EXIT, type CliIo } from './cliIo';
import { checkpointsCommand, openCliCheckpoints } from './checkpointsCommand';
import { restoreCommand } from './restoreCommand';
import { recoverInterruptedRestore } from './cliCheckpointStore';
import { historyCommand } from './historyCommand';
import { setupCommand } from './setupCommands';
import { settleBackgroundCommands } from '../agent/tools/backgroundCommands';
import { historyPruneFromEnv } from '../node/historyRules';
import { exitCodeForOutcome } from '../shared/outcomeClass';
import { nodeShellSyntax } from '../node/shellWasm';


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
  if (json) {
    events.subscribe((envelope) => io.stdout(JSON.stringify(envelope) + '\n'));
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

/** The commands that run no task (`checkpoints`, `restore`, `history`, set-up), or `undefined` for the rest. */
function otherCommand(io: CliIo): Promise<number> | undefined {
  const command = io.argv[0];
  if (command === 'checkpoints') return checkpointsCommand(io);
  if (command === 'restore') return restoreCommand(io);
  if (command === 'history') return historyCommand(io);
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

  const missing = endpointProblem(options, apiKey);
  if (missing) {
    io.stderr(`stepwise: ${missing}\n`);
    return EXIT.usage;
  }

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
  const commands = new ExecaCommandRunner({ logger, watchdog: true, shellPreference: () => options.shell });
  const web = taskWeb(options.web, root, runId, logger);
  const registry = new ToolRegistry([...builtinTools(), ...web.tools]);
  const approver = security.approver;
  const asker = new CliAsker(io.prompter);
  let hub: McpHub | undefined;
  if (options.mcpConfig) {
    try {
      hub = await connectCliMcp({
        configPath: path.resolve(io.cwd, options.mcpConfig), workspaceRoot: root, env: io.env, registry,
        model: defaultModel, approver, emit: (event) => void events.emit(event), asker, logger, warn: security.stderr, environment: security.environment,
      });
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      io.stderr(`stepwise: ${error.message}\n`);
      return EXIT.usage;
    }
  }
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
  };
  const review = options.review === 'ask' && io.prompter ? cliPlanReview(io.prompter, io.stderr) : undefined;
  // @file, @folder/ and @changes in the task (or the resume instruction) attach their content, as in VS Code's chat box.
  const task = options.task ? await expandMentions(options.task, nodeMentionResolver(workspace), io.signal) : '';
  const running = startRun(options, ports, resumed, task, review);
  const result = await running.finally(async () => {
    // The CLI has no one to ask: commands left in the background end with the task.
    await settleBackgroundCommands(commands);
    await Promise.all([hub?.dispose(), commands.dispose(), web.dispose(), history.flush()]);
    await history.prune(historyPruneFromEnv(io.env), Date.now(), new Set([runId])).catch((error: unknown) => logger.warn('history pruning failed', error));
  });
  return exitCodeForOutcome(result.outcome);
}
