import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// The egress chokepoint holds only if nothing goes around it. This reads every source file in
// src/ and fails on a way out that is not the egress client: the global `fetch` (and its
// cousins), a network module (`node:http`, `https`, `net`, `tls`, `http2`, `dgram`, `undici`),
// or an MCP HTTP transport built without the egress `fetch`. The few places allowed are named
// below with the reason; a new one fails until it is routed through src/node/web/egress.ts or
// added here on purpose.

const root = path.resolve(__dirname, '../../..');

/** File → what it may use, and why. */
const ALLOWED: Record<string, { uses: string[]; why: string }> = {
  'src/node/web/egress.ts': { uses: ['node:http', 'node:https'], why: 'the egress client itself' },
  'src/agent/model/openaiModel.ts': { uses: ['fetch'], why: "the model client: the OpenAI SDK's requests to the endpoint the user configured" },
  'src/agent/model/anthropicModel.ts': { uses: ['fetch'], why: "the model client: the Anthropic SDK's requests to the endpoint the user configured" },
  'src/host/common/setup/modelList.ts': { uses: ['fetch'], why: "model set-up: lists models of the endpoint the user is configuring" },
  'src/cli/servers/httpServer.ts': { uses: ['node:http'], why: '`stepwise serve`: an inbound server on 127.0.0.1 only (it sends nothing out), behind httpGuard.ts' },
  'src/node/web/browser/egressProxy.ts': {
    uses: ['node:http', 'node:net'],
    why: "the browser's filtering proxy: a server Chromium is forced through; each upstream socket goes to the address checkedTarget approved for that hop (CONNECT tunnels and WebSocket upgrades need raw sockets)",
  },
};

const NETWORK_MODULES = new Set(['http', 'https', 'net', 'tls', 'http2', 'dgram', 'undici'].flatMap((m) => [m, `node:${m}`]));
const GLOBALS = new Set(['fetch', 'WebSocket', 'XMLHttpRequest', 'EventSource']);
const MCP_HTTP_TRANSPORTS = new Set(['StreamableHTTPClientTransport', 'SSEClientTransport']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** True when an identifier is a value reference to a global of that name (not a property, key, declaration or type). */
function isGlobalReference(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if ((ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent) || ts.isMethodDeclaration(parent) || ts.isMethodSignature(parent)) && parent.name === node) return false;
  if ((ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isFunctionDeclaration(parent)) && parent.name === node) return false;
  if (ts.isTypeQueryNode(parent) || ts.isTypeReferenceNode(parent) || ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent)) return false;
  if (ts.isShorthandPropertyAssignment(parent)) return true;
  return true;
}

/** Every way out one file uses, as `what (line)`. */
function waysOut(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const line = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && NETWORK_MODULES.has(node.moduleSpecifier.text) && !node.importClause?.isTypeOnly) {
      const named = node.importClause?.namedBindings;
      const onlyTypes = named && ts.isNamedImports(named) && !node.importClause?.name && named.elements.every((e) => e.isTypeOnly);
      if (!onlyTypes) found.push(`${node.moduleSpecifier.text.replace(/^(?!node:)/, 'node:')} (${line(node)})`);
    }
    if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteral(node.arguments[0]!) && NETWORK_MODULES.has(node.arguments[0].text)) {
      const callee = node.expression.getText(source);
      if (callee === 'require' || node.expression.kind === ts.SyntaxKind.ImportKeyword) found.push(`${node.arguments[0].text.replace(/^(?!node:)/, 'node:')} (${line(node)})`);
    }
    if (ts.isIdentifier(node) && GLOBALS.has(node.text) && isGlobalReference(node)) found.push(`${node.text} (${line(node)})`);
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'globalThis' && GLOBALS.has(node.name.text)) {
      found.push(`${node.name.text} (${line(node)})`);
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && MCP_HTTP_TRANSPORTS.has(node.expression.text)) {
      const options = node.arguments?.[1];
      const hasFetch = options && ts.isObjectLiteralExpression(options) && options.properties.some((p) => p.name?.getText(source) === 'fetch');
      if (!hasFetch) found.push(`${node.expression.text} without the egress fetch (${line(node)})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('egress guard: no outbound request goes around src/node/web/egress.ts', () => {
  const files = sourceFiles(path.join(root, 'src')).map((f) => path.relative(root, f).split(path.sep).join('/'));

  it('finds the ways out it looks for (the checker itself works)', () => {
    const fixture = path.join(root, 'test/unit/web/egressGuard.fixture.txt');
    const found = waysOut(fixture).map((w) => w.replace(/ \(\d+\)$/, ''));
    assert.deepEqual(found.sort(), [
      'SSEClientTransport without the egress fetch',
      'StreamableHTTPClientTransport without the egress fetch',
      'WebSocket',
      'fetch',
      'fetch',
      'fetch',
      'node:https',
      'node:net',
      'node:tls',
      'node:undici',
    ]);
  });

  it('src/ uses no way out except the allowed ones', () => {
    const offenders: string[] = [];
    for (const file of files) {
      const allowed = ALLOWED[file]?.uses ?? [];
      for (const way of waysOut(path.join(root, file))) {
        const what = way.replace(/ \(\d+\)$/, '');
        if (!allowed.includes(what)) offenders.push(`${file}: ${way}`);
      }
    }
    assert.deepEqual(offenders, [], 'Route these through egressRequest / egressFetch (src/node/web/egress.ts), or list them in ALLOWED with a reason');
  });

  it('every allowed exception still exists (the list stays true)', () => {
    for (const [file, { uses }] of Object.entries(ALLOWED)) {
      const found = waysOut(path.join(root, file)).map((w) => w.replace(/ \(\d+\)$/, ''));
      for (const use of uses) assert.ok(found.includes(use), `${file} no longer uses ${use}: remove it from ALLOWED`);
    }
  });
});
