// The child-environment rule of eslint.config.mjs: every process Stepwise starts gets its environment
// from the one builder (src/agent/secrets/childEnvironment.ts). A module that can start a process
// may be loaded only by the files listed in SPAWN_SITES, and in every file each call that starts a
// process must pass `env:` built by the builder (execa also `extendEnv: false`, else execa merges the
// whole parent environment back in). A new spawn site therefore fails lint until it goes through it.

/** Modules whose values start processes. Type-only imports are harmless and allowed everywhere. */
export const PROCESS_MODULES = ['node:child_process', 'child_process', 'execa', 'node:cluster', 'cluster', '@modelcontextprotocol/sdk/client/stdio.js', 'playwright-core'];
/** The builder functions an `env:` value must call (the core's and the Node side's wrapper). */
const BUILDERS = new Set(['childEnvironment', 'nodeChildEnvironment']);
/** Calls that start a process, by callee name (plain or a member such as `chromium.launch`). */
const STARTERS = new Set(['spawn', 'spawnSync', 'execFile', 'execFileSync', 'fork', 'execa', 'execaSync', 'execaNode', 'launch', 'launchPersistentContext', 'launchServer']);
/** Shell-string starters: never used (a command line goes through the command runner). */
const SHELL_STARTERS = new Set(['exec', 'execSync']);

function calleeName(callee) {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier') return callee.property.name;
  return undefined;
}

function callsBuilder(node) {
  if (!node || typeof node !== 'object') return false;
  if (node.type === 'CallExpression' && BUILDERS.has(calleeName(node.callee))) return true;
  if (node.type === 'CallExpression') return node.arguments.some(callsBuilder) || callsBuilder(node.callee);
  return false;
}

function property(objectNode, name) {
  if (objectNode?.type !== 'ObjectExpression') return undefined;
  return objectNode.properties.find((p) => p.type === 'Property' && !p.computed && ((p.key.type === 'Identifier' && p.key.name === name) || p.key.value === name));
}

/** @type {import('eslint').Rule.RuleModule} */
export const childEnvironmentRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Every child process gets its environment from childEnvironment (docs/architecture.md).' },
    schema: [{ type: 'object', properties: { sites: { type: 'array', items: { type: 'string' } } }, required: ['sites'], additionalProperties: false }],
  },
  create(context) {
    const rel = context.filename.slice(context.cwd.length + 1).split('\\').join('/');
    const isSite = context.options[0].sites.includes(rel);
    const checkModule = (node, source, typeOnly) => {
      if (typeOnly || source?.type !== 'Literal' || !PROCESS_MODULES.includes(source.value) || isSite) return;
      context.report({ node, message: `'${source.value}' starts processes: only the spawn sites in eslint.config.mjs (SPAWN_SITES) may load it, each building env with childEnvironment.` });
    };
    const checkStart = (node, name, options) => {
      const env = property(options, 'env');
      if (!env || !callsBuilder(env.value)) {
        context.report({ node, message: `${name}(…) must pass env: built by childEnvironment/nodeChildEnvironment (no inherited secrets, git neutral).` });
        return;
      }
      const extend = property(options, 'extendEnv');
      if (name.startsWith('execa') && !(extend?.value.type === 'Literal' && extend.value.value === false)) {
        context.report({ node, message: `${name}(…) must pass extendEnv: false, or execa merges the whole parent environment back in.` });
      }
    };
    return {
      ImportDeclaration(node) {
        checkModule(node, node.source, node.importKind === 'type' || node.specifiers.every((s) => s.importKind === 'type'));
        for (const s of node.specifiers) {
          if (s.type === 'ImportSpecifier' && PROCESS_MODULES.includes(node.source.value) && SHELL_STARTERS.has(s.imported.name)) {
            context.report({ node: s, message: `${s.imported.name} runs a shell string: use spawn with argument arrays (and childEnvironment).` });
          }
        }
      },
      ExportNamedDeclaration: (node) => node.source && checkModule(node, node.source, node.exportKind === 'type'),
      ExportAllDeclaration: (node) => checkModule(node, node.source, node.exportKind === 'type'),
      ImportExpression: (node) => checkModule(node, node.source, false),
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require') return checkModule(node, node.arguments[0], false);
        const name = calleeName(node.callee);
        if (!name || !STARTERS.has(name)) return;
        // `x.launch()` counts only for a browser type (chromium/firefox/webkit); other `launch` methods are ours.
        if (name.startsWith('launch') && !(node.callee.type === 'MemberExpression' && /^(chromium|firefox|webkit)$/.test(node.callee.object.name ?? ''))) return;
        const options = [...node.arguments].reverse().find((a) => a.type === 'ObjectExpression');
        checkStart(node, name, options);
      },
      NewExpression(node) {
        const name = calleeName(node.callee);
        if (name && /StdioClientTransport$|StdioTransport$/.test(name)) checkStart(node, name, node.arguments[0]);
      },
    };
  },
};
