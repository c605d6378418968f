import { existsSync } from 'node:fs';
import path from 'node:path';
import { printContextCache } from './contextCache';
import { benchCheckpoints } from './checkpoints';
import { benchEditFile } from './editFile';
import { benchHistory } from './history';
import { printExtensionLoad } from './extensionLoad';
import { benchLoopOverhead } from './loopOverhead';
import { benchPromptTokens } from './promptTokens';
import { benchReadFileWindows } from './readFileWindows';
import { benchSearchFiles } from './searchFiles';
import { benchToolBlockFilter } from './toolBlockFilter';
import { benchWriteFileArgs } from './writeFileArgs';

// Prints Stepwise's speed, memory and token figures. Targets are checked here, never in tests:
// the machines are shared and noisy, so read the figures, and compare ratios within one run.

const fmt = (n: number, digits = 2) => n.toFixed(digits);
const verdict = (ok: boolean) => (ok ? 'OK' : 'OVER TARGET');

async function main(): Promise<void> {
  console.log('\n# Fixed prompt as sent (o200k tokens of the system message and the tools array of the first request; built CLI, loopback fake model)');
  const sentPrompts = await benchPromptTokens();
  for (const sent of sentPrompts) {
    console.log(`${JSON.stringify(sent.task).padEnd(42)} system ${sent.systemPrompt}   tools ${sent.toolSchemas} (${sent.tools.length}: ${sent.tools.join(', ')})   total ${sent.total}`);
  }
  const [plain] = sentPrompts;
  console.log(`default single agent      ${plain!.total}   anchor: leanest peer measured 4.5k (field.md: Continue ~2k, OpenManus ~1.8k)   target <= 1200: ${verdict(plain!.total <= 1200)}`);

  // Issue 28's rows: each figure beside its anchor, timed in the same run (child processes, wall time).
  const h = await benchHistory();
  console.log(`\n# History and CLI start through the built CLI, ${h.tasks} stored tasks (median of 5 runs each)`);
  console.log(`history list              ${fmt(Number(h.listMs), 0)} ms   anchor ls -t | head | xargs head -n1: ${fmt(Number(h.listAnchorMs), 0)} ms   target < 100 ms: ${verdict(Number(h.listMs) < 100)}`);
  console.log(`history list WORD (none)  ${fmt(Number(h.searchMs), 0)} ms   anchor ${h.searchAnchor}: ${fmt(Number(h.searchAnchorMs), 0)} ms   target < 500 ms: ${verdict(Number(h.searchMs) < 500)}`);
  console.log(`CLI start (--help)        ${fmt(Number(h.helpMs), 0)} ms   anchor node -e 0: ${fmt(Number(h.nodeMs), 0)} ms   target < 120 ms: ${verdict(Number(h.helpMs) < 120)}`);

  console.log('\n# search_files without rg on PATH (the JavaScript engine; median of 5), beside rg -n -C1 on the same folder in the same run (interleaved)');
  for (const r of await benchSearchFiles()) {
    const ratio = Number(r.ms) / Number(r.rgMs);
    console.log(`${String(r.label).padEnd(32)} /${r.pattern}/`.padEnd(62) + `${fmt(Number(r.ms), 0)} ms   anchor rg: ${fmt(Number(r.rgMs), 0)} ms   ${fmt(ratio, 1)}x   target <= 3x rg: ${verdict(ratio <= 3)}   (${r.worker} worker)`);
  }

  // Issue 28's row: a 50 MB argument, as in its table; the slope from 1 MB takes out start-up and the task's fixed turns.
  const small = await benchWriteFileArgs(1);
  const large = await benchWriteFileArgs(50);
  const perMb = (large.ms - small.ms) / 1000 / 49;
  const curlPerMb = (large.curlMs - small.curlMs) / 1000 / 49;
  console.log('\n# write_file with a large argument, end to end (built CLI, loopback fake model streaming 256-character fragments; --token-budget lifted: the default 2M effective tokens stops a write of ~7 MB of code, whose output tokens it counts)');
  console.log(`1 MB ${fmt(small.ms / 1000)} s (${small.ok ? 'on disk whole' : 'NOT on disk'})   50 MB ${fmt(large.ms / 1000)} s (${large.ok ? 'on disk whole' : 'NOT on disk'})   ${fmt(perMb)} s per further MB   anchor curl -sN reading the same stream: ${fmt(large.curlMs / 1000)} s, ${fmt(curlPerMb)} s per MB   target linear, <= 0.3 s per MB: ${verdict(small.ok && large.ok && perMb <= 0.3)}`);

  const loop = await benchLoopOverhead();
  console.log('\n# Agent loop overhead per step (zero-latency scripted model, no-op tool)');
  console.log(`median ${fmt(loop.medianMs, 3)} ms   p95 ${fmt(loop.p95Ms, 3)} ms   over ${loop.turns} steps   target < 1 ms: ${verdict(loop.medianMs < 1)}`);

  const edit = await benchEditFile();
  console.log(`\n# edit_file on a ${edit.lines.toLocaleString('en')}-line file (median; read + match + diff + atomic write)`);
  console.log(`exact search              ${fmt(edit.exactMs)} ms   target < 50 ms: ${verdict(edit.exactMs < 50)}`);
  console.log(`whitespace-drifted search ${fmt(edit.tolerantMs)} ms   target < 50 ms: ${verdict(edit.tolerantMs < 50)}`);
  console.log(`matching alone            ${fmt(edit.matchOnlyMs)} ms`);

  console.log('\n# read_file windows on big files (real tool, 6,000-token cap): 30 continuing windows (warm), and cold windows at 25/50/75/95 % of the lines, each after evicting the file from the page cache (dd iflag=nocache) and with no line index (a fresh workspace), beside sed -n on the same lines after the same eviction');
  for (const r of await benchReadFileWindows()) {
    console.log(`${r.label.padEnd(18)} warm median ${fmt(r.medianMs)} ms   p95 ${fmt(r.p95Ms)} ms   target median < 50 ms: ${verdict(r.medianMs < 50)}`);
    console.log(`${''.padEnd(18)} cold median ${fmt(r.coldMedianMs)} ms   anchor sed -n (cold): ${fmt(r.coldSedMedianMs)} ms   bytes resident before a cold read: ${r.residentBeforeCold}   target <= 2x sed: ${verdict(r.coldMedianMs <= 2 * r.coldSedMedianMs)}`);
    console.log(`${''.padEnd(18)} cold, line index built in the background: median ${fmt(r.coldIndexedMedianMs)} ms   anchor sed -n (cold): ${fmt(r.coldIndexedSedMedianMs)} ms   target <= 2x sed: ${verdict(r.coldIndexedMedianMs <= 2 * r.coldIndexedSedMedianMs)}`);
  }
  const cp = await benchCheckpoints();
  console.log(`\n# Checkpoints on a generated ${cp.files!.toLocaleString('en')}-file workspace of ${fmt(cp.bytes! / 1e6, 0)} MB (git store outside the workspace; anchors timed in the same run, interleaved; load average ${fmt(cp.load!, 1)})`);
  console.log(`first checkpoint          ${fmt(cp.firstMs!, 0)} ms   anchor git add -A && git write-tree (first): ${fmt(cp.anchorFirstMs!, 0)} ms   (taken in the background while the model is first asked)`);
  console.log(`per tool call (1 file changed) median ${fmt(cp.medianMs!, 1)} ms   p95 ${fmt(cp.p95Ms!, 1)} ms   anchor git add -A && git write-tree: ${fmt(cp.anchorMs!, 1)} ms   target < 50 ms: ${verdict(cp.medianMs! < 50)}`);
  console.log(`  work per such checkpoint: ${fmt(cp.gitPerCall!, 1)} git processes (${fmt(cp.indexReadsPerCall!, 1)} reading the index), ${fmt(cp.stagedPerCall!, 1)} paths staged, ${fmt(cp.scopedPerCall! * 100, 0)}% limited to the written paths`);
  console.log(`per tool call after a command (full look) median ${fmt(cp.afterCommandMs!, 1)} ms   anchor (same): ${fmt(cp.anchorMs!, 1)} ms`);
  console.log(`per tool call after calls that changed nothing median ${fmt(cp.unchangedMs!, 2)} ms (${cp.unchangedSnapshots} snapshots for 10 calls)   target: nothing: ${verdict(cp.unchangedSnapshots === 0)}`);
  console.log(`store after the first and ${cp.calls} checkpoints     ${cp.store!.toLocaleString('en')} bytes in all`);
  console.log(`growth for those ${cp.calls}        ${cp.growth!.toLocaleString('en')} bytes for ${cp.changed!.toLocaleString('en')} bytes changed (${fmt(cp.growth! / cp.changed!)}x; ${cp.growthDisk!.toLocaleString('en')} bytes of disk blocks)   target < 2x: ${verdict(cp.growth! < 2 * cp.changed!)}`);

  const first = await (await import('./firstCheckpoint')).benchFirstCheckpoint();
  console.log(`\n# The first checkpoint of a ${first.files.toLocaleString('en')}-file, ${fmt(first.bytes / 1024 / 1024, 0)} MB tree, through the built CLI (loopback fake model)`);
  console.log(`first snapshot written    ${fmt(first.firstCheckpointMs, 0)} ms after the start   anchor git add -A && git write-tree: ${fmt(first.gitMs, 0)} ms`);
  console.log(`model's first request     ${fmt(first.firstRequestMs, 0)} ms after the start   anchor: the same task in a one-file folder ${fmt(first.firstRequestSmallMs, 0)} ms   target off the task's path (within 500 ms of it): ${verdict(first.firstRequestMs <= first.firstRequestSmallMs + 500)}`);

  const filter = await benchToolBlockFilter();
  console.log(`\n# Text-protocol streaming filter, one 10 MB line in ${filter.deltas!.toLocaleString('en')} 4-character deltas`);
  console.log(`time ${fmt(filter.ms! / 1000)} s   target < 2 s: ${verdict(filter.ms! < 2000)}`);
  console.log(`peak RSS above baseline ${fmt(filter.peakAboveBaselineMb!, 1)} MB   target < 100 MB: ${verdict(filter.peakAboveBaselineMb! < 100)}`);

  await (await import('./readFormat')).printReadFormat();
  await printContextCache();
  printExtensionLoad();

  // Benches of later parts (planning flow, webview) join when their modules exist.
  const optional: Array<[string, string, (m: Record<string, unknown>) => Promise<void>]> = [
    ['flowTokens', 'benchFlowTokens', async (m) => {
      const r = await (m.benchFlowTokens as () => Promise<Record<string, number>>)();
      console.log('\n# Planning flow token cost (scripted 5-step task, o200k prompt tokens)');
      console.log(`planning call prompt            ${r.planningPromptTokens}`);
      console.log(`mean step prompt (step context) ${fmt(r.meanStepPromptTokens!, 0)}`);
      console.log(`mean step prompt (full history) ${fmt(r.fullTranscriptMeanStepPromptTokens!, 0)}`);
      console.log(`step context / full history      ${fmt(r.ratio!)} (${fmt(1 / r.ratio!, 1)}x fewer prompt tokens per step)`);
    }],
    ['commandPolicy', 'benchCommandPolicy', async (m) => {
      const r = await (m.benchCommandPolicy as () => Promise<Record<string, number>>)();
      console.log(`\n# Command policy (tree-sitter-bash in WebAssembly; ${r.judged} judgements of the policy table)`);
      console.log(`parser load            ${fmt(r.loadMs!)} ms`);
      console.log(`judge one command line median ${fmt(r.medianMs!, 3)} ms   p95 ${fmt(r.p95Ms!, 3)} ms   target < 5 ms: ${verdict(r.p95Ms! < 5)}`);
      console.log(`wasm/array-buffer growth ${fmt(r.arrayBufferGrowthMb!)} MB (trees are freed after each walk)`);
    }],
    ['webviewRender', 'benchWebviewRender', async (m) => {
      const r = await (m.benchWebviewRender as () => Promise<Record<string, number>>)();
      console.log(`\n# Plan panel rendering in Chromium (${r.events} events)`);
      console.log(`time to first paint   ${fmt(r.firstPaintMs!)} ms`);
      console.log(`append per event      mean ${fmt(r.meanAppendMs!, 3)} ms   p95 ${fmt(r.p95AppendMs!, 3)} ms`);
      console.log(`DOM nodes at the end  ${r.domNodes} (windowed)`);
      console.log(`click to paint        ${fmt(r.clickToPaintMs!)} ms (a tool card opened with all events in; one frame is ~16.7 ms)`);
      console.log(`replay after reload   ${fmt(r.replayMs!)} ms (all events)`);
    }],
  ];
  for (const [file, , print] of optional) {
    if (!existsSync(path.join(__dirname, `${file}.ts`))) continue;
    await print(await import(`./${file}`));
  }

  const sandbox = await (await import('./sandboxOverhead')).benchSandboxOverhead();
  console.log('\n# Command sandbox (bubblewrap, workspace-write): `true` through the real runner, plain vs sandboxed');
  if ('unavailable' in sandbox) console.log(`not measured: ${sandbox.unavailable}`);
  else {
    console.log(`through the runner: plain median ${fmt(sandbox.plainMs, 1)} ms   sandboxed median ${fmt(sandbox.sandboxedMs, 1)} ms   overhead ${fmt(sandbox.overheadMs, 1)} ms over ${sandbox.runs} runs   target < 30 ms: ${verdict(sandbox.overheadMs < 30)}`);
    console.log(`bubblewrap alone (spawn to exit): bash -c true ${fmt(sandbox.spawnPlainMs, 1)} ms   in the sandbox ${fmt(sandbox.spawnSandboxedMs, 1)} ms   overhead ${fmt(sandbox.spawnOverheadMs, 1)} ms   target < 30 ms: ${verdict(sandbox.spawnOverheadMs < 30)}`);
    console.log('(a sandboxed command skips the /proc sweeps a plain one needs after it: its process namespace ends with it)');
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
