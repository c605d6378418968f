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

/** One batch: files relative to the root, in tree order. */
export interface SearchJob {
  id: number;
  files: string[];
}

/** The batch's scans (aligned with its files, possibly fewer once the limit was reached) and the work it took. */
export interface SearchJobResult {
  id: number;
  scans: FileScan[];
  work: ScanWork;
}

const data = workerData as SearchWorkerData;
const scanner = new FileScanner(data.plan, new RegexMeter(data.meter), data.slot);
parentPort?.on('message', (job: SearchJob) => {
  const before = { ...scanner.work };
  const scans = scanner.scanAll(job.files.map((rel) => path.join(data.root, rel)), job.files, true);
  const work = { filesRead: scanner.work.filesRead - before.filesRead, regexLines: scanner.work.regexLines - before.regexLines };
  parentPort?.postMessage({ id: job.id, scans, work } satisfies SearchJobResult);
});
