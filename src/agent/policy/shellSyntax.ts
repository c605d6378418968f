import type * as TreeSitter from 'web-tree-sitter';
import type { Node, Parser } from 'web-tree-sitter';

/** The two WebAssembly files the shell parser needs; the Node adapter reads them (the core touches no files). */
export type ShellWasmFile = 'tree-sitter.wasm' | 'tree-sitter-bash.wasm';

/** Reads one of the parser's WebAssembly files. */
export type ShellWasmLoader = (file: ShellWasmFile) => Promise<Uint8Array>;

/** A parsed command line's root, or why it could not be parsed. */
export type ShellTree = { ok: true; root: Node } | { ok: false; error: string };

/**
 * Bash syntax through tree-sitter-bash (the grammar VS Code's own terminal tools use), compiled to
 * WebAssembly and run by web-tree-sitter: pure wasm, no native build, loads once, then parses
 * synchronously in well under a millisecond. Any ERROR or MISSING node counts as unparseable.
 */
export class ShellSyntax {
  private constructor(private readonly parser: Parser) {}

  /** Loads the runtime and the bash grammar (once per process for the runtime). */
  static async load(loader: ShellWasmLoader): Promise<ShellSyntax> {
    // Required here, not imported: the bundles keep web-tree-sitter in `dist/shell-parser.js`
    // (scripts/build.mjs), loaded when the first command is checked, never at activation.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load is the point
    const { Language, Parser } = require('web-tree-sitter') as typeof TreeSitter;
    runtime ??= loader('tree-sitter.wasm').then((wasmBinary) => Parser.init({ wasmBinary }));
    try {
      await runtime;
    } catch (error) {
      runtime = undefined;
      throw error;
    }
    const language = await Language.load(await loader('tree-sitter-bash.wasm'));
    const parser = new Parser();
    parser.setLanguage(language);
    return new ShellSyntax(parser);
  }

  /**
   * Parses `text` as a bash script and hands the result to `use`. The tree lives in WebAssembly
   * memory, which JavaScript's garbage collector does not free: it is deleted when `use` returns,
   * so nodes must not escape it.
   */
  withTree<T>(text: string, use: (tree: ShellTree) => T): T {
    const tree = this.parser.parse(text);
    if (!tree) return use({ ok: false, error: 'the parser gave no tree' });
    try {
      const root = tree.rootNode;
      return use(root.hasError ? { ok: false, error: `not valid shell syntax near "${firstError(root)}"` } : { ok: true, root });
    } finally {
      tree.delete();
    }
  }
}

let runtime: Promise<void> | undefined;

function firstError(node: Node): string {
  if (node.type === 'ERROR' || node.isMissing) return node.text.slice(0, 40) || node.type;
  for (const child of node.children) {
    if (child?.hasError) return firstError(child);
  }
  return node.text.slice(0, 40);
}
