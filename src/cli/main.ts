import { EXIT } from './cliIo';
import { cliEntry } from './cliEntry';
import { ttyPrompter } from './prompter';
import { Redactor } from '../agent/secrets/redactor';

// The CLI's edge: wires the real process in and turns Ctrl-C into cancellation.
const controller = new AbortController();
let interrupts = 0;
process.on('SIGINT', () => {
  interrupts += 1;
  if (interrupts > 1) process.exit(EXIT.cancelled);
  process.stderr.write('\nCancelling… (Ctrl-C again to quit at once)\n');
  controller.abort();
});
process.on('SIGTERM', () => controller.abort());
// Windows' Ctrl+Break (Ctrl+C arrives as SIGINT there too).
process.on('SIGBREAK', () => controller.abort());
// The terminal closed: nobody reads our output any more, but the commands must still end.
process.on('SIGHUP', () => {
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  controller.abort();
  setTimeout(() => process.exit(EXIT.cancelled), 10_000).unref();
});
// Whatever way we exit (second Ctrl-C, internal error), no command of ours outlives us: the first
// command's tag arms that sweep (src/node/processTag.ts, in the bundle that runs commands).

const interactive = Boolean(process.stdin.isTTY && process.stderr.isTTY);
cliEntry({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
  prompter: interactive ? ttyPrompter(process.stdin, process.stderr) : undefined,
  signal: controller.signal,
  stdin: process.stdin,
}).then(
  // Exit explicitly once stdout drained: a keep-alive socket must not keep a finished CLI alive.
  (code) => {
    process.stdout.write('', () => process.exit(code));
  },
  (error) => {
    // Even a crash report must not print a key (an error message may echo it).
    const redactor = new Redactor();
    redactor.addFromEnvironment(process.env);
    process.stderr.write(redactor.redact(`stepwise: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`));
    process.exitCode = EXIT.failed;
  },
);
