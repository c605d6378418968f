import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';

// Loads dist/extension.js in fresh Node processes with a stub `vscode` module and times the require:
// what VS Code pays before `activate` can run. The lazy bundles (dist/tokenizer.js, web.js, openai.js,
// mcp-sdk.js, shell-parser.js, execa.js; see scripts/build.mjs) must not load.

const PROBE = `
const Module = require('node:module');
const stub = new Proxy(function () {}, { get: (t, k) => (k === Symbol.toPrimitive ? () => '' : stub), apply: () => stub, construct: () => stub });
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest); };
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: stub };
const c0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
require(process.argv[1]);
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
const c = process.cpuUsage(c0);
const cpuMs = (c.user + c.system) / 1e3;
const lazy = Object.keys(require.cache).filter((k) => k !== process.argv[1] && k.endsWith('.js')).map((k) => k.split(/[\\/]/).pop());
process.stdout.write(JSON.stringify({ ms, cpuMs, lazy }));
`;

/** Size of dist/extension.js and the median of `runs` cold loads in fresh processes. */
export function benchExtensionLoad(runs = 9): { bytes: number; medianMs: number; medianCpuMs: number; samples: number[]; lazyLoaded: string[] } {
  const file = path.resolve(__dirname, '..', 'dist', 'extension.js');
  const bytes = statSync(file).size;
  const samples: number[] = [];
  const cpu: number[] = [];
  const lazyLoaded = new Set<string>();
  for (let i = 0; i < runs; i++) {
    const child = spawnSync(process.execPath, ['-e', PROBE, file], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`loading the extension failed: ${child.stderr}`);
    const result = JSON.parse(child.stdout) as { ms: number; cpuMs: number; lazy: string[] };
    samples.push(result.ms);
    cpu.push(result.cpuMs);
    for (const name of result.lazy) lazyLoaded.add(name);
  }
  samples.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { bytes, medianMs: samples[Math.floor(samples.length / 2)]!, medianCpuMs: cpu[Math.floor(cpu.length / 2)]!, samples, lazyLoaded: [...lazyLoaded] };
}

/** Prints acceptance 5 of issue 14. */
export function printExtensionLoad(): void {
  const r = benchExtensionLoad();
  const mb = r.bytes / 1024 / 1024;
  console.log('\n# Extension start-up (dist/extension.js with a stub vscode, fresh process per load)');
  console.log(`bundle size      ${mb.toFixed(2)} MB   target < 2 MB: ${mb < 2 ? 'OK' : 'OVER TARGET'}`);
  console.log(`load time        median ${r.medianMs.toFixed(1)} ms over ${r.samples.length} loads   target < 100 ms: ${r.medianMs < 100 ? 'OK' : 'OVER TARGET'}`);
  console.log(`                 CPU time of the load: median ${r.medianCpuMs.toFixed(1)} ms (less sensitive to a busy machine; load average now ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores)`);
  console.log(`lazy bundles loaded at require: ${r.lazyLoaded.length ? `${r.lazyLoaded.join(', ')} (each should load on first use only)` : 'none'}`);
}
