import { strict as assert } from 'node:assert';
import path from 'node:path';
import { ESLint } from 'eslint';

// The layer rules are only worth something if lint really fails on a crossing: lint fixture
// sources as if they lived in each layer and check the verdict.
const root = path.resolve(__dirname, '../../..');
const eslint = new ESLint({ cwd: root });

async function messagesOf(filePath: string, source: string, rule: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, filePath) });
  assert.ok(result, 'eslint returned a result');
  return result.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
}

const layerErrors = (filePath: string, source: string) => messagesOf(filePath, source, 'stepwise/layer-imports');

describe('lint enforces the layers', function () {
  this.timeout(60_000);

  for (const layer of ['src/agent/loop', 'src/shared']) {
    for (const forbidden of ['vscode', 'execa', 'child_process', 'node:child_process', 'fs', 'node:fs', 'fs/promises', 'node:http', 'http', 'node:net']) {
      it(`${layer} importing ${forbidden} is an error`, async () => {
        const errors = await layerErrors(`${layer}/__fixture__.ts`, `import * as m from '${forbidden}';\nexport const x = m;\n`);
        assert.equal(errors.length, 1, `expected one layer error, got ${JSON.stringify(errors)}`);
        assert.match(errors[0]!, /may not import/);
      });
    }
  }

  for (const forbidden of ['node:dns', 'dns/promises', 'https', 'playwright-core', 'linkedom']) {
    it(`src/agent/web importing ${forbidden} is an error (network I/O lives in src/node/web)`, async () => {
      const errors = await layerErrors('src/agent/web/__fixture__.ts', `import * as m from '${forbidden}';\nexport const x = m;\n`);
      assert.equal(errors.length, 1, `expected one layer error, got ${JSON.stringify(errors)}`);
    });
  }

  it('the core may not load what it may not import by any other form either', async () => {
    const forms = [
      "export async function f() { return import('execa'); }\n", // dynamic import
      "export const m = require('node:http');\n", // require
      "export type V = typeof import('vscode');\n", // a type-only import type
      "import fs = require('fs');\nexport const x = fs;\n", // import = require
      "export { execa } from 'execa';\n", // re-export
      "export * from '../../node/nodeWorkspace';\n",
    ];
    for (const source of forms) {
      const errors = await layerErrors('src/agent/loop/__fixture__.ts', source);
      assert.equal(errors.length, 1, `${source} -> ${JSON.stringify(errors)}`);
    }
  });

  it('a computed dynamic import or require is an error in every layer', async () => {
    for (const file of ['src/agent/__fixture__.ts', 'src/node/__fixture__.ts', 'src/host/vscode/__fixture__.ts']) {
      const errors = await layerErrors(file, "const name = 'vscode';\nexport const a = import(name);\nexport const b = require(name);\n");
      assert.equal(errors.length, 2, `${file}: ${JSON.stringify(errors)}`);
      assert.match(errors[0]!, /computed import/);
    }
  });

  it('src/agent may import zod, openai and gpt-tokenizer (subpaths too) and src/shared', async () => {
    const source =
      "import { z } from 'zod';\nimport OpenAI from 'openai';\nimport type { ChatCompletion } from 'openai/resources/chat/completions';\n" +
      "import { encode } from 'gpt-tokenizer/encoding/o200k_base';\nimport { AgentEvent } from '../../shared/events';\nexport type C = ChatCompletion;\nexport const x = [z, OpenAI, encode, AgentEvent];\n";
    assert.deepEqual(await layerErrors('src/agent/model/__fixture__.ts', source), []);
  });

  it('src/agent may not import the node adapters, mcp, host or cli', async () => {
    for (const target of ['../../node/nodeWorkspace', '../../mcp/mcpHub', '../../host/common/log/redactor', '../../cli/runCli']) {
      assert.equal((await layerErrors('src/agent/loop/__fixture__.ts', `import { a } from '${target}';\nexport const x = a;\n`)).length, 1, target);
    }
  });

  it('src/node and src/cli may not import vscode, but may import execa / node built-ins', async () => {
    assert.equal((await layerErrors('src/node/__fixture__.ts', `import * as v from 'vscode';\nexport const x = v;\n`)).length, 1);
    assert.equal((await layerErrors('src/cli/__fixture__.ts', `import * as v from 'vscode';\nexport const x = v;\n`)).length, 1);
    assert.deepEqual(await layerErrors('src/node/__fixture__.ts', `import { execa } from 'execa';\nimport { readFile } from 'node:fs/promises';\nexport const x = [execa, readFile];\n`), []);
  });

  it('a package not on the allow-list is an error, naming where to add it', async () => {
    const errors = await layerErrors('src/node/__fixture__.ts', `import left from 'left-pad';\nexport const x = left;\n`);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /add it to LAYERS in eslint\.config\.mjs/);
  });

  it('nothing below the host imports host or cli', async () => {
    for (const file of ['src/node/__fixture__.ts', 'src/mcp/__fixture__.ts', 'src/cli/__fixture__.ts']) {
      assert.equal((await layerErrors(file, `import { a } from '../host/common/log/redactor';\nexport const x = a;\n`)).length, 1, file);
    }
    assert.equal((await layerErrors('src/node/__fixture__.ts', `import { a } from '../cli/runCli';\nexport const x = a;\n`)).length, 1);
  });

  it('the CLI may import the model set-up (src/host/common/setup) and nothing else of the host; the set-up stays VS Code-free', async () => {
    assert.deepEqual(await layerErrors('src/cli/__fixture__.ts', `import { a } from '../host/common/setup/setupService';\nexport const x = a;\n`), []);
    assert.equal((await layerErrors('src/cli/__fixture__.ts', `import { a } from '../host/common/config/stepwiseConfig';\nexport const x = a;\n`)).length, 1);
    assert.equal((await layerErrors('src/host/common/setup/__fixture__.ts', `import * as v from 'vscode';\nexport const x = v;\n`)).length, 1);
    assert.equal((await layerErrors('src/host/common/setup/__fixture__.ts', `import { a } from '../model/endpointOrigin';\nexport const x = a;\n`)).length, 1);
    assert.deepEqual(await layerErrors('src/host/common/config/__fixture__.ts', `import { a } from '../setup/providerPresets';\nexport const x = a;\n`), []);
  });

  it('src/host/common is VS Code-free: neither vscode nor src/host/vscode', async () => {
    assert.equal((await layerErrors('src/host/common/task/__fixture__.ts', `import * as v from 'vscode';\nexport const x = v;\n`)).length, 1);
    assert.equal((await layerErrors('src/host/common/task/__fixture__.ts', `import { a } from '../../vscode/task/taskController';\nexport const x = a;\n`)).length, 1);
    assert.deepEqual(await layerErrors('src/host/vscode/task/__fixture__.ts', `import * as v from 'vscode';\nimport { a } from '../../common/log/redactor';\nexport const x = [v, a];\n`), []);
  });

  it('the webview imports only src/shared (and its own packages), no Node built-ins', async () => {
    assert.equal((await layerErrors('webview-ui/src/__fixture__.ts', `import { runAgent } from '../../src/agent/loop/runAgent';\nexport const x = runAgent;\n`)).length, 1);
    assert.equal((await layerErrors('webview-ui/src/__fixture__.ts', `import path from 'node:path';\nexport const x = path;\n`)).length, 1);
    assert.deepEqual(await layerErrors('webview-ui/src/__fixture__.ts', `import { AgentEvent } from '../../src/shared/events';\nimport { marked } from 'marked';\nexport const x = [AgentEvent, marked];\n`), []);
  });
});

describe('lint enforces the size limits', function () {
  this.timeout(60_000);

  it('a 401-line file is an error; 400 lines is not', async () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `export const v${i} = ${i};`).join('\n') + '\n';
    assert.equal((await messagesOf('src/agent/__fixture__.ts', lines(401), 'max-lines')).length, 1);
    assert.deepEqual(await messagesOf('src/agent/__fixture__.ts', lines(400), 'max-lines'), []);
  });

  it('a function of 81 lines is an error', async () => {
    const body = Array.from({ length: 80 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const source = `export function long(): number {\n${body}\n  return v0;\n}\n`;
    assert.equal((await messagesOf('src/node/__fixture__.ts', source, 'max-lines-per-function')).length, 1);
  });

  it('a function with 6 parameters is an error; 5 is not', async () => {
    assert.equal((await messagesOf('src/cli/__fixture__.ts', 'export function f(a: 1, b: 2, c: 3, d: 4, e: 5, g: 6) { return [a, b, c, d, e, g]; }\n', 'max-params')).length, 1);
    assert.deepEqual(await messagesOf('src/cli/__fixture__.ts', 'export function f(a: 1, b: 2, c: 3, d: 4, e: 5) { return [a, b, c, d, e]; }\n', 'max-params'), []);
  });
});
