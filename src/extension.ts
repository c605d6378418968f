// The composition root: builds the host's adapters, wires them together and registers the
// contributions. No behaviour lives here: UI behaviour belongs in src/host/vscode modules.
import * as vscode from 'vscode';
import { systemClock } from './agent/clock';
import { builtinTools } from './agent/tools/builtins';
import { ToolRegistry } from './agent/tools/toolRegistry';
import { registerCommands, handleIntent, type CommandDeps } from './host/vscode/commands/registerCommands';
import { configReader, onConfigChange } from './host/vscode/config/readConfig';
import { createTrustWiring } from './host/vscode/trustWiring';
import type { StepwiseConfig } from './host/common/config/stepwiseConfig';
import { DiffReview } from './host/vscode/editor/diffReview';
import { openInFolder } from './host/vscode/editor/openWorkspaceFile';
import { HistoryStore } from './node/historyStore';
import { OutputChannelLogger } from './host/vscode/log/outputChannelLogger';
import { Redactor } from './agent/secrets/redactor';
import type { EnvironmentRules } from './agent/secrets/secretEnv';
import { McpHost } from './host/common/mcp/mcpHost';
import type { McpServerState } from './mcp';
import { createMcpServerRequests } from './host/vscode/mcp/mcpServerRequests';
import { keepMcpCurrent } from './host/vscode/mcp/watchMcpConfig';
import { ModelProvider } from './host/vscode/model/modelProvider';
import { showNotConfigured } from './host/vscode/model/notConfigured';
import { WebKeyStore } from './host/vscode/secrets/webKeyStore';
import { webConfigFrom } from './host/common/task/taskWebTools';
import { taskWeb } from './node/web/nodeWebTools';
import { taskPython } from './node/python/taskPython';
import { ApiKeyStore } from './host/vscode/secrets/apiKeyStore';
import { toolsForTrust } from './host/common/task/restrictedTools';
import { RunStatusBar } from './host/vscode/task/runStatusBar';
import { TaskController } from './host/vscode/task/taskController';
import { MirroringCommandRunner } from './host/common/terminal/mirroringCommandRunner';
import { MirrorTerminal } from './host/vscode/terminal/mirrorTerminal';
import { statusRefresher } from './host/vscode/views/statusRefresher';
import { SetupController } from './host/vscode/setup/setupController';
import { PresetMemory } from './host/vscode/setup/presetMemory';
import { chatBoxOf } from './host/vscode/views/chatBox';
import { TaskViews } from './host/vscode/views/taskViews';
import { adoptWindowHistory, workspacePlace } from './host/vscode/workspacePlace';
import { promptSuggestions } from './host/common/task/hostExtensions';
import { MentionSource, STEPWISE_OUTPUT_FOLDERS } from './host/common/mentions/mentionSource';
import { setChildEnvironmentRules } from './node/childEnv';
import { ExecaCommandRunner } from './node/execaCommandRunner';
import { SandboxPool } from './node/sandbox/sandboxSource';
import { sandboxWanted } from './host/common/config/sandboxSettings';
import { settleBackgroundCommands } from './agent/tools/backgroundCommands';
import { pruneHistory, registerHistoryCommands, searchHistory, type HistoryCommandDeps } from './host/vscode/history/historyCommands';
import { afterEachRun, askKeepBackground, registerStopBackgroundCommand } from './host/vscode/task/afterEachRun';
import { NodeWorkspace } from './node/nodeWorkspace';
import { findBundledRipgrep } from './node/bundledRipgrep';

/** What `activate` returns: hooks for the in-host tests (and other extensions), never secrets. */
export interface StepwiseApi {
  controller: TaskController;
  /** Folder of the JSON-lines task history. */
  historyFolder: string;
  /** Folder of the checkpoint store (task lists under `tasks/<runId>`). */
  checkpointsHome: string;
  /** Names of the tools a run gets with the given trust (Restricted Mode keeps the read-only ones). */
  toolNames(trusted: boolean): string[];
  /** The MCP servers' current states (name, status, pid). */
  mcpStates(): McpServerState[];
  /** The settings a run would use now, each from the layer the settings trust table allows. */
  settings(): StepwiseConfig;
}

/** Activates Stepwise: the sidebar chat, the task panel, commands, status bar and terminal. */
// eslint-disable-next-line max-lines-per-function -- the composition root: a flat list of constructors and subscriptions, no behaviour
export function activate(context: vscode.ExtensionContext): StepwiseApi {
  const redactor = new Redactor();
  const channel = vscode.window.createOutputChannel('Stepwise', { log: true });
  const logger = new OutputChannelLogger(channel, redactor);
  const keys = new ApiKeyStore(context.secrets, process.env, (secret) => redactor.add(secret));
  // The security boundary's host half: endpoint consent, per-origin keys, workspace MCP trust, restricted reports.
  // History, confirmations and trust are the workspace's, found by its identity: every window on the folder sees the same.
  const place = workspacePlace(context, vscode.workspace.workspaceFolders?.[0]?.uri.fsPath);
  const trust = createTrustWiring(place, keys, process.env, () => mcp);
  const webKeys = new WebKeyStore(context.secrets, process.env, (secret) => redactor.add(secret));
  const models = new ModelProvider(keys, process.env, systemClock, logger, (text) => redactor.redact(text));
  const history = new HistoryStore(place.historyFolder, (error) => logger.error('task history write failed', error));
  try {
    adoptWindowHistory(context, place);
  } catch (error) {
    logger.error("could not copy the window's task history into the workspace's", error);
  }
  const registry = new ToolRegistry(builtinTools());
  const folder = (): vscode.WorkspaceFolder | undefined => vscode.workspace.workspaceFolders?.[0];
  const config = configReader(logger, (fingerprint) => trust.workspaceConfirmed(fingerprint));
  // Commands and MCP servers must not see the endpoint's key or other secrets (the core's rules).
  redactor.addFromEnvironment(process.env);
  const environment = (): EnvironmentRules => ({ passThrough: config().envPassThrough, isSecretValue: (value) => redactor.contains(value) });
  // Filled below: the terminal, the views and MCP call into objects built after them.
  const late: { controller?: TaskController; commandDeps?: CommandDeps; views?: TaskViews; setup?: SetupController } = {};
  const mcp = new McpHost(
    registry,
    logger,
    () => ({ trusted: vscode.workspace.isTrusted, folder: folder()?.uri.fsPath, settings: config().mcpServers, environment: environment(), ...trust.mcpSource() }),
    (servers) => late.views?.setMcpServers(servers),
    createMcpServerRequests({ models, readConfig: config, logger, approvalPath: () => late.controller?.samplingApprovalPath() }),
  );
  const terminal = new MirrorTerminal('Stepwise', () => late.controller?.stop());
  // Every child of the extension host (commands, git, ripgrep, the browser) follows these rules.
  setChildEnvironmentRules(environment);
  // The permission mode picks the sandbox at each command (the chat box's switch changes the setting).
  const sandboxes = new SandboxPool(() => sandboxWanted(config(), folder()?.uri.fsPath), logger);
  const runner = new ExecaCommandRunner({ logger, watchdog: true, sandbox: sandboxes, shellPreference: () => config().commandsShell });
  const commands = new MirroringCommandRunner(runner, terminal);
  const diffReview = new DiffReview();
  const statusBar = new RunStatusBar('stepwise.showPanel', () => late.views?.visible() ?? false);
  const views = new TaskViews({
    extensionUri: context.extensionUri,
    logger,
    onIntent: (intent) => {
      if (SetupController.handles(intent)) return void late.setup?.handle(intent).catch((error) => logger.error(`intent ${intent.type} failed`, error));
      if (late.commandDeps) void handleIntent(intent, late.commandDeps).catch((error) => logger.error(`intent ${intent.type} failed`, error));
    },
    // MCP servers connect once a view is shown (or a task or an MCP command needs them), never at activation.
    onShown: () => void mcp.start(),
    reviewsClosed: () => diffReview.settled(),
  });
  const checkpointsHome = vscode.Uri.joinPath(context.globalStorageUri, 'checkpoints').fsPath;
  const task = new TaskController({
    views,
    logger,
    history,
    models,
    readConfig: config,
    isTrusted: () => vscode.workspace.isTrusted,
    folder,
    tools: () => registry,
    ...trust.taskDeps(),
    commands,
    baseWorkspace: (root) => new NodeWorkspace(root, { rgFallbackPath: findBundledRipgrep(vscode.env.appRoot) }),
    diffReview,
    statusBar,
    clock: systemClock,
    redact: (text) => redactor.redact(text),
    onNotConfigured: showNotConfigured,
    web: async (runId, root, settings) => taskWeb(webConfigFrom(settings, await webKeys.get()), root, runId, logger),
    python: (runId, root, settings) => taskPython({ root, runId, reportDir: settings.reportsFolder, python: process.env.STEPWISE_PYTHON, logger }),
    checkpointsHome,
  });
  late.controller = task;
  late.views = views;

  const presets = new PresetMemory(context.globalState);
  const refresh = statusRefresher({
    views, controller: task, models, history, readConfig: config, logger,
    providerLabel: (settings) => presets.presetFor(settings).label,
    webSearchReady: async (settings) => Boolean(settings.webSearxngUrl || Object.keys(await webKeys.get()).length),
  });

  const setup = new SetupController({ views, keys, readConfig: config, env: process.env, clock: systemClock, logger, onSaved: refresh, presets, knowSecret: (secret) => redactor.add(secret), redact: (text) => redactor.redact(text) });
  late.setup = setup;
  const refreshSetup = (): void => void setup.refresh().catch((error) => logger.error('set-up refresh failed', error));

  const mentions = new MentionSource(() => folder()?.uri.fsPath, (root) => new NodeWorkspace(root), Date.now,
    () => [...STEPWISE_OUTPUT_FOLDERS, config().reportsFolder]);
  const commandDeps: CommandDeps = {
    controller: task,
    keys,
    history,
    logger,
    diffReview,
    showPanel: (focus) => views.showPanel(focus),
    endPlanReview: () => views.showPlanForReview(undefined),
    mcp,
    ...trust.commandDeps(config),
    openFile: (path, line) => openInFolder(folder(), (root) => new NodeWorkspace(root), path, line),
    webKeys,
    onKeyChanged: refresh,
    checkpoints: { home: checkpointsHome, folder, history, logger },
    suggestMentions: async (query) => views.sendMentionSuggestions(query, query.startsWith('/') ? promptSuggestions((await task.readExtensions()).prompts, query) : await mentions.suggest(query)),
    chatBox: chatBoxOf(views),
  };
  late.commandDeps = commandDeps;
  const historyDeps: HistoryCommandDeps = {
    history, checkpointsHome, logger, refresh,
    runningRunId: () => task.runningRunId,
    shownRunId: () => task.currentRunId,
    clearShown: () => {
      task.clearShown();
      views.clearRun();
    },
    sendSearchResults: (query, entries) => views.sendHistorySearch(query, entries),
    defaultFolder: () => folder()?.uri,
  };
  commandDeps.controls = { commandControl: runner, searchHistory: (query) => searchHistory(historyDeps, query) };
  const historyLimits = () => ({ maxAgeDays: config().historyMaxAgeDays, maxSizeMb: config().historyMaxSizeMb });

  context.subscriptions.push(
    channel,
    views,
    views.registerSidebar(),
    views.registerPanelSerializer(),
    terminal,
    diffReview,
    statusBar,
    task,
    ...registerCommands(commandDeps),
    ...registerHistoryCommands(historyDeps),
    // After each task: its background commands end unless the user keeps them; old history goes.
    afterEachRun(task, () => {
      void settleBackgroundCommands(runner, askKeepBackground).catch((error) => logger.warn('ending background commands failed', error));
      void pruneHistory(historyDeps, historyLimits());
    }),
    registerStopBackgroundCommand(runner),
    { dispose: () => runner.dispose() },
    { dispose: () => void sandboxes.dispose() },
    task.onDidChangeState(refresh),
    keys.onDidChange(refresh),
    onConfigChange(refresh),
    keys.onDidChange(refreshSetup),
    onConfigChange(refreshSetup),
    vscode.lm.onDidChangeChatModels(refreshSetup),
    vscode.commands.registerCommand('stepwise.setupModel', () => setup.show()),
    keepMcpCurrent(folder(), trust.mcpChangeHandlers(refresh)),
    { dispose: () => void mcp.stop() },
  );
  logger.info(`Stepwise activated (${vscode.workspace.isTrusted ? 'trusted workspace' : 'Restricted Mode: read-only tools'})`);
  refresh();
  refreshSetup();
  void pruneHistory(historyDeps, historyLimits());

  return {
    controller: task,
    historyFolder: history.folder,
    checkpointsHome,
    toolNames: (trusted) => toolsForTrust(registry, trusted).names(),
    mcpStates: () => mcp.states(),
    settings: config,
  };
}

/** Nothing to do: every resource is a subscription of the extension context. */
export function deactivate(): void {}
