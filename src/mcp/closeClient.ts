import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** How long a stdio server may take to exit after its stdin closes before it gets SIGTERM. */
const GRACE_MS = 300;
/** After SIGTERM, how long before SIGKILL. */
const KILL_AFTER_MS = 2000;

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {}
}

/**
 * Closes a client and, for a stdio server, waits until its process has exited. The SDK ends the
 * process by closing stdin and waits 2 s before SIGTERM, without waiting after SIGKILL, and a second
 * `close()` returns at once while the first is still waiting; so this waits for the connection's
 * own close event and escalates by PID (SIGTERM after a short grace, then SIGKILL). The PID is ours
 * until that event: it is only signalled before it fires.
 */
export async function closeClient(client: Client, pid: number | undefined): Promise<void> {
  if (!client.transport) return;
  let done = false;
  const closed = new Promise<void>((resolve) => {
    const previous = client.onclose;
    client.onclose = () => {
      done = true;
      previous?.();
      resolve();
    };
  });
  const timers =
    pid === undefined
      ? []
      : [
          setTimeout(() => done || signalPid(pid, 'SIGTERM'), GRACE_MS),
          setTimeout(() => done || signalPid(pid, 'SIGKILL'), GRACE_MS + KILL_AFTER_MS),
        ];
  // A transport that never reports its end (a broken HTTP connection) must not hold disposal forever.
  const cap = new Promise<void>((resolve) => timers.push(setTimeout(resolve, GRACE_MS + KILL_AFTER_MS + 1000)));
  await client.close().catch(() => {});
  await Promise.race([closed, cap]);
  for (const timer of timers) clearTimeout(timer);
}
