import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EventEnvelope, type AgentEvent } from '../../../src/shared/events';

/** The built CLI bundle; integration tests run what users run. */
export const CLI_PATH = path.resolve(__dirname, '../../../dist/cli.js');

/** The CLI's state folder (task history) for every CLI these tests start, unless a test passes its own; removed at exit. */
export const TEST_STEPWISE_HOME = mkdtempSync(path.join(tmpdir(), 'stepwise-home-'));
process.on('exit', () => rmSync(TEST_STEPWISE_HOME, { recursive: true, force: true }));

/** A finished CLI process: exit code, parsed `--json` envelopes, raw output. */
export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  envelopes: EventEnvelope[];
  events: AgentEvent[];
  stdout: string;
  stderr: string;
}

/** A running CLI process, with a hook to act when an event appears. */
export interface CliProcess {
  child: ChildProcess;
  /** Resolves with the first event matching `predicate` (rejects if the process ends first). */
  waitForEvent(predicate: (event: AgentEvent) => boolean): Promise<AgentEvent>;
  done: Promise<CliRun>;
}

/** Starts `node dist/cli.js run <task> --json ...` without a TTY, with a clean model environment. */
export function startCli(args: string[], env: Record<string, string> = {}, stdin: 'ignore' | 'pipe' = 'ignore'): CliProcess {
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    stdio: [stdin, 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      OPENAI_API_KEY: 'sk-test-key',
      NO_COLOR: '1',
      STEPWISE_HOME: TEST_STEPWISE_HOME,
      ...env,
    },
  });
  let stdout = '';
  let stderr = '';
  let pending = '';
  const envelopes: EventEnvelope[] = [];
  const waiters: { predicate: (e: AgentEvent) => boolean; resolve: (e: AgentEvent) => void; reject: (e: Error) => void }[] = [];
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    stdout += chunk;
    pending += chunk;
    let nl;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (!line.trim()) continue;
      const parsed = EventEnvelope.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`CLI printed an invalid envelope: ${line}\n${parsed.error.message}`);
      envelopes.push(parsed.data);
      for (const w of [...waiters]) {
        if (w.predicate(parsed.data.event)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(parsed.data.event);
        }
      }
    }
  });
  child.stderr!.on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<CliRun>((resolve) => {
    child.on('close', (code, signal) => {
      for (const w of waiters) w.reject(new Error(`CLI exited (${code}) before the awaited event; stderr:\n${stderr}`));
      resolve({ code, signal, envelopes, events: envelopes.map((e) => e.event), stdout, stderr });
    });
  });
  return {
    child,
    done,
    waitForEvent(predicate) {
      const seen = envelopes.find((e) => predicate(e.event));
      if (seen) return Promise.resolve(seen.event);
      return new Promise((resolve, reject) => waiters.push({ predicate, resolve, reject }));
    },
  };
}

/** Runs the CLI to the end. */
export function runCliProcess(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return startCli(args, env).done;
}
