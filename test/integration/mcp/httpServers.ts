import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { EVERYTHING_SCRIPT } from './mcpKit';

/** A reference server running as a child process on 127.0.0.1. */
export interface HttpServerProcess {
  /** Base URL, e.g. `http://127.0.0.1:40123`. */
  origin: string;
  pid: number;
  /** Ends the process by its PID (SIGTERM, then SIGKILL) and waits for it to exit. */
  stop(): Promise<void>;
}

/** A port that was free a moment ago (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Ends a child by PID: SIGTERM, SIGKILL after `graceMs`; resolves once it has exited. */
export async function killChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const done = exited(child);
  try {
    process.kill(child.pid, 'SIGTERM');
  } catch {}
  const timer = setTimeout(() => {
    try {
      if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
    } catch {}
  }, graceMs);
  await done;
  clearTimeout(timer);
}

/**
 * Starts server-everything in `streamableHttp` (endpoint `/mcp`) or `sse` (`/sse`) mode on a free
 * port (or `port`) and resolves once it accepts connections. Rejects (and leaves nothing running) when it exits first.
 */
export async function startEverythingHttp(mode: 'streamableHttp' | 'sse', port?: number): Promise<HttpServerProcess> {
  port ??= await freePort();
  const child = spawn(process.execPath, [EVERYTHING_SCRIPT, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 15_000;
  while (!(await canConnect(port))) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      await killChild(child);
      throw new Error(`server-everything ${mode} did not start on port ${port}: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { origin: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => killChild(child) };
}
