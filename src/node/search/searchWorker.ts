// A search worker thread (started by searchPool.ts from `dist/search-worker.js` beside the bundle,
// or from this source through tsx in tests): reads and matches the batches of files it is sent.
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { FileScanner, type FileScan, type ScanPlan, type ScanWork } from './fileScanner';
import { RegexMeter } from './regexMeter';

/** What a worker is started with. */
export interface SearchWorkerData {
  root: string;
  plan: ScanPlan;
  meter: SharedArrayBuffer;
  slot: number;
}

/** One batch: files relative to the root, in tree order, joined by NUL (one string is cheaper to post than an array; no name holds a NUL). */
export interface SearchJob {
  id: number;
  files: string;
}

/** The batch's files that gave something (index in the batch, scan; most give nothing and are not sent back), and the work it took. */
export interface SearchJobResult {
  id: number;
  found: Array<[number, FileScan]>;
  work: ScanWork;
}

const data = workerData as SearchWorkerData;
const scanner = new FileScanner(data.plan, new RegexMeter(data.meter), data.slot);
parentPort?.on('message', (job: SearchJob) => {
  const before = { ...scanner.work };
  const files = job.files.split('\0');
  const scans = scanner.scanAll(files.map((rel) => path.join(data.root, rel)), files, true);
  const found: Array<[number, FileScan]> = [];
  scans.forEach((scan, i) => scan !== undefined && found.push([i, scan]));
  const work = { filesRead: scanner.work.filesRead - before.filesRead, regexLines: scanner.work.regexLines - before.regexLines };
  parentPort?.postMessage({ id: job.id, found, work } satisfies SearchJobResult);
});
