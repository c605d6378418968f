// The charset tables (iconv-lite): needed only when a task fetches a page, so the bundles keep this
// module in a separate `dist/web.js` (scripts/build.mjs) that `loadWebParsers` requires on first use.
// HTML to markdown (linkedom, Readability, Turndown) never loads on the main thread: it runs in a
// worker thread with its own limits (boundedHtml.ts, `dist/html-worker.js`).
export { decodeText } from './decodeText';
