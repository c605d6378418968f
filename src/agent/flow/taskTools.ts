import type { StepRole } from '../../shared/plan';
import { PYTHON_EXECUTE } from '../tools/python/pythonExecute';
import { isReadOnlyTool, type AnyTool } from '../tools/tool';
import type { ToolRegistry } from '../tools/toolRegistry';

/**
 * Who a set of tools is for: the single agent of a direct task (or its follow-up), one plan step's
 * role, or the look-first pass before planning. `text` is what the agent is asked (the task, or the
 * step's title and description); `used` names the tools its conversation already called.
 */
export type ToolUse =
  | { kind: 'direct'; text: string; used?: ReadonlySet<string> }
  | { kind: 'role'; role: StepRole; text: string; used?: ReadonlySet<string> }
  | { kind: 'look_first' };

/** Web tools that only read (the browser can submit forms, so it is not one of them). */
const WEB_READ_TOOLS = new Set(['web_fetch', 'web_search']);
/** Every web tool: sent only when the work asks for the web (their schemas cost ~500 tokens a call). */
const WEB_TOOLS = new Set([...WEB_READ_TOOLS, 'browser']);

/** Which tools each role may call (before the web rule below). */
const ROLE_KEEP: Record<StepRole, (tool: AnyTool) => boolean> = {
  // python_execute goes only to the analyst (and to data work run directly): its schema costs every other prompt.
  coder: (tool) => tool.name !== 'browser' && tool.name !== PYTHON_EXECUTE,
  researcher: (tool) => isReadOnlyTool(tool) || WEB_READ_TOOLS.has(tool.name) || tool.name === 'ask_user' || tool.name === 'finish',
  browser: (tool) => isReadOnlyTool(tool) || tool.name === 'browser' || WEB_READ_TOOLS.has(tool.name) || tool.name === 'ask_user' || tool.name === 'finish',
  reporter: (tool) => isReadOnlyTool(tool) || tool.name === 'write_file' || tool.name === 'finish',
  analyst: (tool) => isReadOnlyTool(tool) || tool.name === PYTHON_EXECUTE || tool.name === 'write_file' || tool.name === 'ask_user' || tool.name === 'finish',
};

/** Words that mark work as data analysis (the analyst's kind): only then does a direct run get `python_execute`. */
const DATA_TASK = /\b(?:python|pandas|numpy|dataframes?|csv|tsv|xlsx?|excel|parquet|datasets?|charts?|plots?|statistics|data (?:analysis|file|files|set))\b|\.(?:csv|tsv|xlsx|parquet)\b|数据分析|数据集|图表|统计/i;

/** True when `text` asks for data work (see DATA_TASK). */
export function isDataTask(text: string): boolean {
  return DATA_TASK.test(text);
}

/** Roles whose work is the web: they get their web tools whatever the step says. */
const WEB_ROLES: ReadonlySet<StepRole> = new Set(['researcher', 'browser']);

/**
 * Words that ask for the web: a URL, or the web named in English or Chinese. Work that says none of
 * them cannot use a web tool, so none is sent (the planner routes web work to the researcher and
 * browser roles, which always have theirs).
 */
const ASKS_FOR_WEB = /https?:\/\/|\bwww\.|\b(?:web|website|webpage|web page|internet|online|browser|browse|url|urls|google|bing|duckduckgo|search engine)\b|网页|网站|网上|互联网|浏览器|联网|搜索引擎|上网/i;

/** True when `text` asks for the web (see ASKS_FOR_WEB). */
export function asksForWeb(text: string): boolean {
  return ASKS_FOR_WEB.test(text);
}

/** The one rule for a tool: offered to this use or not. Tools it does not name (MCP, later built-ins) follow the role's rule. */
function offered(tool: AnyTool, use: ToolUse, wantsWeb: boolean): boolean {
  if (use.kind === 'look_first') return isReadOnlyTool(tool) || tool.name === 'finish';
  if (use.kind === 'role' && !ROLE_KEEP[use.role](tool)) return false;
  if (use.kind === 'direct' && tool.name === PYTHON_EXECUTE) return isDataTask(use.text) || Boolean(use.used?.has(tool.name));
  if (!WEB_TOOLS.has(tool.name)) return true;
  return wantsWeb || Boolean(use.used?.has(tool.name));
}

/**
 * The tools an agent run is given, decided in this one place for every run of a task (direct,
 * follow-up, plan step, look-first): what a run cannot use is not sent, so its schemas cost no
 * prompt tokens. A live view of `registry` (tools joining it later, MCP servers, show through).
 */
export function taskTools(registry: ToolRegistry, use: ToolUse): ToolRegistry {
  const wantsWeb = use.kind !== 'look_first' && ((use.kind === 'role' && WEB_ROLES.has(use.role)) || asksForWeb(use.text));
  return registry.view((tool) => offered(tool, use, wantsWeb));
}

/** The names of the tools a conversation called (a follow-up keeps what its task already used). */
export function toolsUsed(calls: Iterable<{ name: string }>): Set<string> {
  const used = new Set<string>();
  for (const call of calls) used.add(call.name);
  return used;
}
