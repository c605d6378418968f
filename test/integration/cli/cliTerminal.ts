import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EventEnvelope } from '../../../src/shared/events';
import { CLI_PATH, TEST_STEPWISE_HOME, type CliRun } from './cliProcess';

/** A CLI run on a pseudo-terminal: what it ended with, and everything the terminal showed. */
export interface TerminalRun extends CliRun {
  /** pid of the `script` process that holds the terminal (ended by the caller on failure). */
  pid: number;
  screen: string;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `node dist/cli.js <args>` with a real pseudo-terminal as stdin and stderr (util-linux
 * `script`), stdout to a file (the `--json` envelopes), and types each answer when its prompt
 * appears on the terminal, in order. For what the CLI only does on a terminal, such as the plan
 * review.
 */
export function runCliOnTerminal(args: string[], answers: Array<[prompt: string, answer: string]>, onStart: (pid: number) => void): Promise<TerminalRun> {
  const dir = mkdtempSync(path.join(tmpdir(), 'stepwise-tty-'));
  const out = path.join(dir, 'stdout.jsonl');
  const command = `${[process.execPath, CLI_PATH, ...args].map(quote).join(' ')} > ${quote(out)}`;
  const child = spawn('script', ['-qefc', command, '/dev/null'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', OPENAI_API_KEY: 'sk-test-key', NO_COLOR: '1', STEPWISE_HOME: TEST_STEPWISE_HOME, TERM: 'dumb' },
  });
  onStart(child.pid!);
  let screen = '';
  let seen = 0;
  const queue = [...answers];
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    screen += chunk;
    const next = queue[0];
    const at = next ? screen.indexOf(next[0], seen) : -1;
    if (next && at >= 0) {
      seen = at + next[0].length;
      queue.shift();
      child.stdin!.write(`${next[1]}\r`);
    }
  });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (screen += chunk));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      let stdout = '';
      try {
        stdout = readFileSync(out, 'utf8');
      } catch {
        // No output file: the command never ran; the screen says why.
      }
      rmSync(dir, { recursive: true, force: true });
      const envelopes = stdout.split('\n').filter((l) => l.trim()).map((l) => EventEnvelope.parse(JSON.parse(l)));
      resolve({ code, signal, envelopes, events: envelopes.map((e) => e.event), stdout, stderr: screen, screen, pid: child.pid! });
    });
  });
}
