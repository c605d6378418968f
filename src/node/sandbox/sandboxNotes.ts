import { existsSync } from 'node:fs';
import path from 'node:path';
import { SANDBOX_BLOCKED, type SandboxMode } from '../../shared/sandboxModes';
import { LEFTOVER_MARKER } from './sandboxScripts';

/** What the notes need to know of the sandbox a command ran in. */
export interface NoteContext {
  mode: Exclude<SandboxMode, 'off'>;
  workspace: string;
  /** Locations hidden from the command (absolute). */
  hidden: readonly string[];
}

const FAILURE = /Permission denied|No such file or directory|cannot open|cannot access|Operation not permitted|Connection refused|Couldn't connect|ECONNREFUSED|EACCES|ENOENT/i;
const NO_NETWORK = /Could not resolve host|Temporary failure in name resolution|Name or service not known|Network is unreachable|ENETUNREACH|EAI_AGAIN|ENOTFOUND|getaddrinfo/i;
const LOOPBACK_REFUSED = /(Connection refused|ECONNREFUSED|Failed to connect to (127\.|localhost|::1|\[::1\]))/i;
const PROXY_REFUSED = /blocked by the sandbox: \S+ is not an allowed host|CONNECT tunnel failed, response 403/i;
const NO_PROCESS = /No such process|ESRCH/;
const ABS_PATH = /\/[^\s:'"`,;()<>]+/g;

/**
 * Reads a sandboxed command's output for what the sandbox stopped or ended, as sentences that
 * start with "blocked by the sandbox" (or say what was cleaned up). Heuristic by nature: it names
 * the likely cause so the model can ask to run the command outside; it never changes the output.
 */
export function sandboxNotes(output: string, context: NoteContext, command = ''): string[] {
  const notes = new Set<string>();
  if (/Read-only file system|EROFS/.test(output)) {
    notes.add(context.mode === 'read-only' ? `${SANDBOX_BLOCKED}: write (the sandbox is read-only)` : `${SANDBOX_BLOCKED}: write outside the workspace`);
  }
  for (const line of output.split('\n')) {
    if (PROXY_REFUSED.test(line)) notes.add(`${SANDBOX_BLOCKED}: network request to a host that is not allowed`);
    else if (NO_NETWORK.test(line)) notes.add(`${SANDBOX_BLOCKED}: no network (only allowed hosts, through the sandbox's proxy)`);
    else if (LOOPBACK_REFUSED.test(line)) notes.add(`${SANDBOX_BLOCKED}: the host's network, loopback included, is not reachable from the sandbox`);
    if (NO_PROCESS.test(line) || (FAILURE.test(line) && /\/proc\/\d+\//.test(line))) notes.add(`${SANDBOX_BLOCKED}: processes outside the sandbox are not visible`);
    if (!FAILURE.test(line)) continue;
    // The failing line may not name the path (curl's "Couldn't connect" to a socket): then the command's own paths.
    const hidden = hiddenIn(line, context) ?? hiddenIn(command, context);
    if (hidden) notes.add(`${SANDBOX_BLOCKED}: ${hidden} is hidden from sandboxed commands`);
  }
  const leftovers = LEFTOVER_MARKER.exec(output);
  if (leftovers) notes.add(`cleaned up by the sandbox: ${leftovers[1]} process(es) that outlived the command were ended`);
  return [...notes];
}

/** The hidden location a failing line names (a secret location, a socket, or the host's /tmp), if any. */
function hiddenIn(line: string, context: NoteContext): string | undefined {
  for (const found of line.match(ABS_PATH) ?? []) {
    // /proc/self/root/x is x (the sandbox's own root).
    const p = path.resolve(found.replace(/^\/proc\/(self|\d+)\/root(?=\/)/, ''));
    const hit = context.hidden.find((h) => p === h || p.startsWith(h + path.sep));
    if (hit) return hit;
    // The sandbox's /tmp is its own: a path there that fails inside but exists outside was the host's.
    if (p.startsWith('/tmp/') && !(p === context.workspace || p.startsWith(context.workspace + path.sep)) && existsOnHost(p)) return `the host's /tmp (${p})`;
  }
  return undefined;
}

/** True when the path, or a folder it would be in (below /tmp), exists outside the sandbox. */
function existsOnHost(p: string): boolean {
  for (let at = p; at !== '/tmp' && at !== '/'; at = path.dirname(at)) if (existsSync(at)) return true;
  return false;
}
