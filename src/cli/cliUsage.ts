import { DEFAULT_TASK_TOKEN_BUDGET } from '../agent/flow/taskTypes';
import { DEFAULT_LIMITS } from '../agent/loop/runTypes';

// The CLI's help text, apart from the parsers (which load zod) so `stepwise --help` answers from the
// small bundle at Node's own speed (issue 28). The parsers in cliArgs.ts, cliWebArgs.ts and
// cliSandboxArgs.ts own the flags; this file owns the words.

/** Usage lines of the web options. */
const WEB_USAGE = `  --web-allow-host H       let web tools reach host H even on loopback/private addresses (repeatable)
  --web-deny-host H        never let web tools reach host H (repeatable; *.example.com for sub-domains)
  --searxng-url URL        SearXNG instance for web_search (default: $SEARXNG_URL)
  --browser-path FILE      Chromium-family browser for the browser tool (default: found on the machine)
  --vision                 the main model reads images (screenshots reach it as image parts)
  --vision-model M         model for the browser role and images (default: $STEPWISE_VISION_MODEL)
  web_search uses $TAVILY_API_KEY, $BRAVE_API_KEY and/or --searxng-url, tried in that order.`;

/** Usage lines of the sandbox options. */
const SANDBOX_USAGE = `  --sandbox MODE           off | read-only | workspace-write: run commands in a bubblewrap sandbox (Linux; not on
                           Windows or macOS). workspace-write: writes only in the workspace and a private /tmp, secret
                           folders hidden, no network but --sandbox-allow-host hosts. Default: the permission mode's
                           (ask, full: off; auto: workspace-write; read-only: read-only)
  --sandbox-allow-host H   let sandboxed commands reach host H through the sandbox's proxy (repeatable)
  --permission-mode M      ask (default: approvals as configured) | auto (sandboxed commands run without asking) |
                           read-only (sandbox read-only, no edits) | full (no sandbox, nothing asked: full access)`;

/** The usage text printed by `--help` and after usage errors: every command first, then the run options. */
export const USAGE = `Usage: stepwise run "<task>" [options]
       stepwise run "/name [arguments]" [options]  run a prompt file (.stepwise/prompts/name.md) with its arguments
       stepwise tasks [--json]                     stored tasks, newest first, with their ids
       stepwise resume <task-id> ["<instruction>"] [options]
                                                   continue a stored task (from the folder it ran in)
       stepwise resume <task-id> --retry-step N [options]
                                                   run step N of a stored plan again (a failed, blocked or
                                                   skipped step), then the steps after it and the report
       stepwise checkpoints <task-id> [--json] [--workspace DIR]
       stepwise restore <task-id> (--to ID | --before-step N) [--files | --conversation] [--force] [--workspace DIR]
       stepwise history list [words…] [--json] | export <task-id> [--format markdown|json] [--out FILE] | delete <task-id> --yes | prune
       stepwise presets [--json]                   the providers Stepwise knows, with their default base URLs
       stepwise models [--preset NAME | --base-url URL] [--api-key-env VAR] [--azure-api-version V] [--json]
                                                   the endpoint's models with their context windows (Ollama: loaded or not)
       stepwise check [same endpoint options] [--model M] [--json]
                                                   one tiny real request: "Connected … N ms", or what is wrong and what to do
                                                   (stepwise models --help for details and exit codes)
       stepwise mcp | serve [--port N] | acp [run options]
                                                   Stepwise as an MCP server, over HTTP, or as an ACP agent
                                                   (stepwise mcp --help)

Options of run and resume:
  --workspace DIR          folder the agent works in (default: current folder)
  --model M                model name (default: $STEPWISE_MODEL)
  --provider P             openai (OpenAI-compatible, default) | anthropic (Anthropic Messages API; key in
                           $ANTHROPIC_API_KEY, --base-url default https://api.anthropic.com or $ANTHROPIC_BASE_URL)
  --base-url URL           OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)
  --thinking-budget N      anthropic: extended thinking with N tokens (at least 1024; default off)
  --azure-api-version V    Azure OpenAI: --base-url is the resource endpoint, --model the deployment; the key
                           goes in the api-key header
  --max-steps N            turn limit (default ${DEFAULT_LIMITS.maxTurns})
  --auto-approve LIST      categories approved without asking: read,edit,command,mcp,web (default: read)
  --tool-protocol P        auto | native | text (default auto)
  --plan / --no-plan       force the planning flow on or off (default: the coordinator decides)
  --review R               plan review: auto (run at once) | ask (on a terminal: show the plan; run, cancel or skip steps)
  --look-first             before planning, let a read-only agent look at the workspace
  --basic-model M          cheap model for routing and reports (default: $STEPWISE_BASIC_MODEL or --model)
  --reasoning-model M      model for planning (default: $STEPWISE_REASONING_MODEL or --model)
  --token-budget N         stop a task (each resume afresh) after N effective tokens (cached prompt tokens count 0.1; default ${DEFAULT_TASK_TOKEN_BUDGET})
  --cost-budget USD        stop a task once it cost this many US dollars (known models' list prices)
  --context-window N       the model's context window (default: known for well-known models); older turns
                           are summarized when the conversation nears it
  --no-rules               do not read AGENTS.md, CLAUDE.md, .github/copilot-instructions.md, .stepwise/rules/
  --no-extensions          do not read skills (SKILL.md), custom roles (.stepwise/agents/) or prompt files
                           (/name tasks from .stepwise/prompts/), neither the workspace's nor ~/.stepwise's
  --mcp-config FILE        MCP servers ({"mcpServers": {...}})
  --allow-command PATTERN  run matching commands without asking (repeatable; e.g. "npm test", "git status*")
  --deny-command PATTERN   never run matching commands (repeatable; added to the default deny list)
  --pass-env NAME          pass a secret-looking variable to commands and MCP servers (repeatable)
  --shell NAME             the shell commands run through: auto (default) | pwsh | powershell | cmd | gitbash | bash | sh
  --config FILE            JSON: commands.allow, commands.deny, approvals.autoApprove, env.passThrough, hooks
  --input stream-json      read messages for the running task from stdin, one JSON line each:
                           {"type":"user","message":{"role":"user","content":"…"}} (delivered at the next turn);
                           without a task argument the first message is the task
  --max-input-tokens N     prompt budget before old tool outputs are elided (default ${DEFAULT_LIMITS.maxInputTokens})
${WEB_USAGE}
${SANDBOX_USAGE}
  --verify CMD             a check Stepwise runs when the agent finishes after changing files (repeatable)
  --verify-mode M          auto (ask for the workspace's check, run --verify checks) | off (default auto)
  --json                   one event envelope per line on stdout
  -h, --help               this text

Environment: OPENAI_API_KEY or STEPWISE_API_KEY, OPENAI_BASE_URL, STEPWISE_MODEL; ANTHROPIC_API_KEY with --provider anthropic.
  STEPWISE_PYTHON: python_execute's interpreter (default: python3, then python, on PATH).
Task history and checkpoints live under $STEPWISE_HOME (default ~/.local/state/stepwise).
Exit codes: 0 finished, 1 failed or limit reached, 2 usage error, 3 incomplete or unverified,
4 restore stopped by files you changed (see --force), 130 cancelled.`;
