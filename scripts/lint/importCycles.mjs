// Import circles are an error (docs/architecture.md: "No import circles: when two files need the
// same type, the type moves to a third file"). Reads every .ts file under the given folders, takes
// each relative import (value or type-only, static or dynamic, `export … from`, `require`) and
// reports every strongly connected group of files with more than one member, or a file importing
// itself. Exit 1 when any circle exists. Usage: node scripts/lint/importCycles.mjs [folder…]
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Every .ts file below `dir` (no declaration files). */
function tsFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...tsFiles(full));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** The file a relative specifier names, or undefined for packages and files outside the set. */
function resolveSpecifier(from, spec, known) {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}

/** The import graph of `files`: file → the files it imports. */
export function importGraph(files) {
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set();
    for (const ref of info.importedFiles) {
      const target = resolveSpecifier(file, ref.fileName, known);
      if (target) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The circles of `graph` (Tarjan's strongly connected components), each sorted, biggest first. */
export function importCycles(graph) {
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const visit = (start) => {
    // Iterative, so a deep chain of imports cannot overflow the stack.
    const work = [[start, [...(graph.get(start) ?? [])], 0]];
    indices.set(start, index); low.set(start, index); index++; stack.push(start); onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const [node, edges] = frame;
      if (frame[2] < edges.length) {
        const next = edges[frame[2]++];
        if (!indices.has(next)) {
          indices.set(next, index); low.set(next, index); index++; stack.push(next); onStack.add(next);
          work.push([next, [...(graph.get(next) ?? [])], 0]);
        } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), indices.get(next)));
        continue;
      }
      work.pop();
      if (work.length) { const parent = work[work.length - 1][0]; low.set(parent, Math.min(low.get(parent), low.get(node))); }
      if (low.get(node) === indices.get(node)) {
        const group = [];
        let member;
        do { member = stack.pop(); onStack.delete(member); group.push(member); } while (member !== node);
        if (group.length > 1 || graph.get(node)?.has(node)) cycles.push(group.sort());
      }
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return cycles.sort((a, b) => b.length - a.length);
}

/** The circles among the .ts files under `folders` (relative to `root`). */
export function cyclesIn(root, folders) {
  const files = folders.map((f) => path.join(root, f)).filter((f) => existsSync(f)).flatMap(tsFiles);
  return importCycles(importGraph(files)).map((group) => group.map((f) => path.relative(root, f)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const folders = process.argv.slice(2).length ? process.argv.slice(2) : ['src', 'webview-ui/src'];
  const cycles = cyclesIn(root, folders);
  for (const group of cycles) console.error(`import circle (${group.length} files):\n  ${group.join('\n  ')}`);
  if (cycles.length) {
    console.error(`${cycles.length} import circle(s). Move the shared part (usually a type) into a file of its own.`);
    process.exit(1);
  }
  console.log(`no import circles in ${folders.join(', ')}`);
}
