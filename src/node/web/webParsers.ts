// The web page parsers and charset tables (linkedom, Readability, turndown, iconv-lite): about half
// of the extension bundle's bytes, needed only when a task fetches a page. The bundles keep this
// module in a separate `dist/web.js` (scripts/build.mjs) that `loadWebParsers` requires on first use.
// HTML to markdown itself runs in a worker thread (boundedHtml.ts, `dist/html-worker.js`); it is
// exported here too for callers that convert small, trusted HTML in process.
export { decodeText } from './decodeText';
export { htmlToMarkdown } from './htmlToMarkdown';
