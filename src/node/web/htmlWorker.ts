// The HTML conversion's worker thread (see boundedHtml.ts): it converts one page and posts the
// result back. It runs under the worker's resource limits, so a page that needs more memory or
// stack than allowed ends this thread, never the extension host or the CLI.
import { parentPort } from 'node:worker_threads';
import { htmlToMarkdown } from './htmlToMarkdown';

/** The one message the worker gets. */
export interface HtmlJob {
  html: string;
  url: string;
}

parentPort?.once('message', (job: HtmlJob) => {
  try {
    parentPort?.postMessage({ ok: true, page: htmlToMarkdown(job.html, job.url) });
  } catch (error) {
    parentPort?.postMessage({ ok: false, message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
});
