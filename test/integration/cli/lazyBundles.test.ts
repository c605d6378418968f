import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { HistoryStore } from '../../../src/node/historyStore';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The libraries only some tasks need live in bundles of their own beside dist/extension.js and
// dist/cli.js (LAZY in scripts/build.mjs). This loads the built bundles in fresh Node processes:
// loading the extension (with a stub `vscode`) must load none of them, and each must hold what its
// loader takes from it. Run after `npm run build` (test:integration does).

const dist = path.resolve(__dirname, '../../../dist');

/** Each lazy bundle and the exports its loader uses. */
const LAZY: Array<{ file: string; exports: string[] }> = [
  { file: 'tokenizer.js', exports: ['countTokens'] },
  { file: 'web.js', exports: ['decodeText'] },
  { file: 'openai.js', exports: ['OpenAI', 'APIError', 'APIConnectionError', 'APIUserAbortError'] },
  { file: 'anthropic.js', exports: ['Anthropic', 'APIError', 'APIConnectionError', 'APIUserAbortError'] },
  { file: 'mcp-sdk.js', exports: ['Client', 'StdioClientTransport', 'StreamableHTTPClientTransport', 'SSEClientTransport', 'McpError', 'AjvJsonSchemaValidator'] },
  { file: 'shell-parser.js', exports: ['Parser', 'Language'] },
  { file: 'execa.js', exports: ['execa'] },
  { file: 'server-sdks.js', exports: ['McpServer', 'StdioServerTransport'] },
  { file: 'cli-run.js', exports: ['taskCommand'] },
];

/** Two stored tasks as the real store writes them (events and the index), the second one more recent. */
async function seedHistory(folder: string): Promise<void> {
  const store = new HistoryStore(folder);
  const runs: Array<[string, string, 'finished' | 'failed']> = [['task-1', 'Write the docs', 'finished'], ['task-2', 'Fix the parser', 'failed']];
  runs.forEach(([runId, task, outcome], i) => {
    store.append({ v: 1, seq: 0, runId, ts: 1000 + i, event: { type: 'run_started', task, workspace: '/ws', model: 'm' } });
    store.append({ v: 1, seq: 1, runId, ts: 1001 + i, event: { type: 'run_finished', outcome, summary: `${task}: done`, turns: 1 } });
  });
  await store.flush();
}

const STUB_VSCODE = `
const Module = require('node:module');
const stub = new Proxy(function () {}, { get: (t, k) => (k === Symbol.toPrimitive ? () => '' : stub), apply: () => stub, construct: () => stub });
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest); };
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: stub };
`;

function node(script: string, ...args: string[]): string {
  const child = spawnSync(process.execPath, ['-e', script, ...args], { encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  return child.stdout;
}

describe('lazy bundles (the built dist/)', () => {
  it('loading the extension loads none of them', () => {
    const loaded = JSON.parse(node(`${STUB_VSCODE} require(process.argv[1]); process.stdout.write(JSON.stringify(Object.keys(require.cache)));`, path.join(dist, 'extension.js'))) as string[];
    const lazy = loaded.filter((file) => LAZY.some((bundle) => path.basename(file) === bundle.file) || path.basename(file) === 'html-worker.js');
    assert.deepEqual(lazy, []);
    assert.ok(loaded.includes(path.join(dist, 'extension.js')));
  });

  it('html-worker.js converts a page in a worker thread started from beside the bundles (as boundedHtml does)', () => {
    const worker = path.join(dist, 'html-worker.js');
    assert.ok(existsSync(worker), `${worker} is missing`);
    const out = node(
      `const { Worker } = require('node:worker_threads');
       const w = new Worker(process.argv[1], { resourceLimits: { maxOldGenerationSizeMb: 256 } });
       w.once('message', (m) => { process.stdout.write(JSON.stringify(m)); void w.terminate(); });
       w.postMessage({ html: '<html><head><title>T</title></head><body><p>Hello <a href="/x">link</a></p></body></html>', url: 'http://site.test/' });`,
      worker,
    );
    assert.deepEqual(JSON.parse(out), { ok: true, page: { title: 'T', markdown: 'Hello [link](http://site.test/x)' } });
  });

  it('search-worker.js reads and matches a batch in a worker thread started from beside the bundles (as searchPool does)', () => {
    const worker = path.join(dist, 'search-worker.js');
    assert.ok(existsSync(worker), `${worker} is missing`);
    const root = mkdtempSync(path.join(os.tmpdir(), 'stepwise-search-worker-'));
    try {
      writeFileSync(path.join(root, 'a.txt'), 'one\nneedle 42\nthree\n');
      writeFileSync(path.join(root, 'b.txt'), 'nothing here\n');
      const out = node(
        `const { Worker } = require('node:worker_threads');
         const plan = { required: 'needle', regex: { source: 'needle \\\\d+', flags: '' }, contextLines: 1, limit: 10, skipBinary: true, maxBytes: 1 << 20 };
         const w = new Worker(process.argv[1], { execArgv: [], workerData: { root: process.argv[2], plan, meter: new SharedArrayBuffer(16), slot: 0 } });
         w.once('message', (m) => { process.stdout.write(JSON.stringify(m)); void w.terminate(); });
         w.postMessage({ id: 7, files: 'a.txt\\0b.txt' });`,
        worker,
        root,
      );
      assert.deepEqual(JSON.parse(out), {
        id: 7,
        found: [[0, { matches: [{ path: 'a.txt', line: 2, text: 'needle 42', before: ['one'], after: ['three'] }] }]],
        work: { filesRead: 2, regexLines: 1 },
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  // What each CLI command loads, counted in the process that runs it: `history list` and `--help` load
  // the small dist/cli.js alone and never start zod (its global config is set when it loads, in
  // whichever bundle); a search that finds a stored run loads the event schema (dist/cli-events.js);
  // a task command loads dist/cli-run.js (the agent) as well.
  const loadedBy = async (args: string[], seeded: boolean): Promise<{ bundles: string[]; zod: boolean; crypto: boolean; stdout: string }> => {
    // A preloaded file, not \`node -e\`: evaluating -e itself loads node:crypto.
    const probe = `process.on('exit', () => require('node:fs').writeSync(2, '\\nLOADED ' + JSON.stringify({ zod: globalThis.__zod_globalConfig !== undefined, crypto: process.moduleLoadList.includes('NativeModule crypto'), files: Object.keys(require.cache).map((f) => require('node:path').basename(f)).filter((f) => f !== 'probe.js') })));`;
    const home = mkdtempSync(path.join(os.tmpdir(), 'stepwise-lazy-cli-'));
    try {
      if (seeded) await seedHistory(path.join(home, 'history'));
      writeFileSync(path.join(home, 'probe.js'), probe);
      const child = spawnSync(process.execPath, ['--require', path.join(home, 'probe.js'), path.join(dist, 'cli.js'), ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, STEPWISE_HOME: home }, cwd: home });
      const line = /\nLOADED (.*)$/.exec(child.stderr)?.[1];
      assert.ok(line, child.stderr);
      const loaded = JSON.parse(line) as { zod: boolean; crypto: boolean; files: string[] };
      return { bundles: loaded.files.filter((file) => file.endsWith('.js')), zod: loaded.zod, crypto: loaded.crypto, stdout: child.stdout };
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  };
  const commandCases: Array<{ args: string[]; seeded: boolean; loads: string[]; zod: boolean; lists?: RegExp }> = [
    { args: ['history', 'list'], seeded: false, loads: ['cli.js'], zod: false },
    { args: ['history', 'list'], seeded: true, loads: ['cli.js'], zod: false, lists: /^task-2 {2}failed {4}.*Fix the parser\n.*task-1 {2}finished/ },
    { args: ['history', 'list', 'some', 'words'], seeded: false, loads: ['cli.js'], zod: false },
    { args: ['history', 'list', 'zebrafinch'], seeded: true, loads: ['cli.js'], zod: false, lists: /^No stored task matches/ },
    { args: ['history', 'list', 'parser'], seeded: true, loads: ['cli.js', 'cli-events.js'], zod: true, lists: /^task-2 .*Fix the parser\n$/ },
    { args: ['history', 'export', 'task-1'], seeded: true, loads: ['cli.js', 'cli-events.js', 'cli-run.js'], zod: true, lists: /Write the docs/ },
    { args: ['--help'], seeded: false, loads: ['cli.js'], zod: false, lists: /^Usage: stepwise run/ },
    { args: ['tasks'], seeded: false, loads: ['cli.js', 'cli-run.js'], zod: true },
  ];
  for (const c of commandCases) {
    it(`stepwise ${c.args.join(' ')}${c.seeded ? ' (2 stored tasks)' : ''} loads ${c.loads.join(' + ')}${c.zod ? '' : ', no zod'}`, async () => {
      const loaded = await loadedBy(c.args, c.seeded);
      assert.deepEqual(loaded.bundles, c.loads);
      assert.equal(loaded.zod, c.zod);
      // node:crypto (and the streams it loads) is for commands that write or touch checkpoints.
      assert.equal(loaded.crypto, c.loads.includes('cli-run.js'), 'node:crypto loaded');
      if (c.lists) assert.match(loaded.stdout, c.lists);
    });
  }

  for (const bundle of LAZY) {
    it(`${bundle.file} exists beside the bundles and exports ${bundle.exports.join(', ')}`, () => {
      const file = path.join(dist, bundle.file);
      assert.ok(existsSync(file), `${file} is missing`);
      const kinds = JSON.parse(node(`const m = require(process.argv[1]); process.stdout.write(JSON.stringify(${JSON.stringify(bundle.exports)}.map((k) => typeof m[k])));`, file)) as string[];
      assert.deepEqual(kinds, bundle.exports.map(() => 'function'));
    });
  }
});
