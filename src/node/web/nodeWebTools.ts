import path from 'node:path';
import type { ImageStore, Logger } from '../../agent/ports';
import type { AnyTool } from '../../agent/tools/tool';
import { webTools } from '../../agent/tools/web';
import { PlaywrightBrowserSession } from './browser/playwrightBrowser';
import { FileImageStore } from './fileImageStore';
import { NodeWebFetcher } from './nodeWebFetcher';
import { searchProviders } from './searchProviders';

/** The web settings of a task, the same for the CLI (flags, environment) and VS Code (settings, SecretStorage). */
export interface TaskWebConfig {
  allowHosts: readonly string[];
  denyHosts: readonly string[];
  browserPath?: string;
  searxngUrl?: string;
  tavilyKey?: string;
  tavilyEndpoint?: string;
  braveKey?: string;
  braveEndpoint?: string;
}

/** The web side of one task: its tools, where its images go, and how to end its browser. */
export interface TaskWeb {
  tools: AnyTool[];
  images: ImageStore;
  /** True when at least one search provider is configured (`web_search` is offered). */
  canSearch: boolean;
  /** Closes the task's browser (no browser process outlives the task); idempotent. */
  dispose(): Promise<void>;
}

/** How to turn web search on, for the log and the UI. */
export const HOW_TO_ENABLE_SEARCH =
  'web_search is off: set a Tavily or Brave Search key (VS Code: "Stepwise: Set Web Search Key"; CLI: TAVILY_API_KEY / BRAVE_API_KEY) or a SearXNG URL (stepwise.web.searxngUrl / --searxng-url).';

/**
 * Builds one task's web_fetch, web_search (only with a provider) and browser (one headless browser,
 * started on first use), with images saved under `<root>/.stepwise/images/<runId>`.
 */
export function taskWeb(config: TaskWebConfig, root: string, runId: string, logger: Logger): TaskWeb {
  const policy = { allowHosts: config.allowHosts, denyHosts: config.denyHosts };
  const browser = new PlaywrightBrowserSession({ policy, executablePath: config.browserPath, logger });
  const providers = searchProviders({ ...config, policy });
  if (providers.length === 0) logger.info(HOW_TO_ENABLE_SEARCH);
  return {
    tools: webTools({ fetcher: new NodeWebFetcher({ policy }), searchProviders: providers, browser }),
    images: new FileImageStore(path.join(root, '.stepwise', 'images', runId.replace(/[^\w-]/g, '_')), root),
    canSearch: providers.length > 0,
    dispose: () => browser.close(),
  };
}
