import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

// The libraries only some tasks need live in bundles of their own beside dist/extension.js and
// dist/cli.js (LAZY in scripts/build.mjs). This loads the built bundles in fresh Node processes:
// loading the extension (with a stub `vscode`) must load none of them, and each must hold what its
// loader takes from it. Run after `npm run build` (test:integration does).

const dist = path.resolve(__dirname, '../../../dist');

/** Each lazy bundle and the exports its loader uses. */
const LAZY: Array<{ file: string; exports: string[] }> = [
  { file: 'tokenizer.js', exports: ['countTokens'] },
  { file: 'web.js', exports: ['decodeText', 'htmlToMarkdown'] },
  { file: 'openai.js', exports: ['OpenAI', 'APIError', 'APIConnectionError', 'APIUserAbortError'] },
  { file: 'mcp-sdk.js', exports: ['Client', 'StdioClientTransport', 'StreamableHTTPClientTransport', 'SSEClientTransport', 'McpError', 'AjvJsonSchemaValidator'] },
  { file: 'shell-parser.js', exports: ['Parser', 'Language'] },
  { file: 'execa.js', exports: ['execa'] },
];

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
    const lazy = loaded.filter((file) => LAZY.some((bundle) => path.basename(file) === bundle.file));
    assert.deepEqual(lazy, []);
    assert.ok(loaded.includes(path.join(dist, 'extension.js')));
  });

  for (const bundle of LAZY) {
    it(`${bundle.file} exists beside the bundles and exports ${bundle.exports.join(', ')}`, () => {
      const file = path.join(dist, bundle.file);
      assert.ok(existsSync(file), `${file} is missing`);
      const kinds = JSON.parse(node(`const m = require(process.argv[1]); process.stdout.write(JSON.stringify(${JSON.stringify(bundle.exports)}.map((k) => typeof m[k])));`, file)) as string[];
      assert.deepEqual(kinds, bundle.exports.map(() => 'function'));
    });
  }
});
