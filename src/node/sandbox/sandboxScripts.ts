/**
 * The shell program run inside the sandbox: the command in a subshell, then a count of what it
 * left running (everything in the sandbox's process namespace but its init, this shell and its
 * parent; zombies not counted), said on stderr, since all of it ends when the sandbox does.
 * Only shell built-ins after the command: no extra process per command. `$1` is the command.
 */
export const INNER_SHELL_SCRIPT = [
  '( eval "$1" ); __s=$?; __n=0',
  'for __p in /proc/[0-9]*; do case "${__p#/proc/}" in 1|$$|$PPID) continue;; esac',
  '  __l=""; read -r __l < "$__p/stat" 2>/dev/null || continue',
  '  case "$__l" in *") Z "*|*") X "*) ;; *) __n=$((__n+1));; esac',
  'done',
  'if [ "$__n" -gt 0 ]; then printf "\\n[sandbox: %s process(es) still running when the command ended were ended with it]\\n" "$__n" >&2; fi',
  'exit $__s',
].join('\n');

/** The marker the inner script prints for leftovers (parsed by `sandboxNotes`). */
export const LEFTOVER_MARKER = /\[sandbox: (\d+) process\(es\) still running when the command ended were ended with it\]/;

/**
 * The network shim (run by `node -e` as the sandbox's first process when hosts are allowed): the
 * sandbox has only its own loopback, so the shim listens on 127.0.0.1:PORT inside and relays each
 * connection to the egress proxy's unix socket bound in; then it runs the command and exits with
 * its code. Arguments: socket, port, program, args….
 */
export const PROXY_SHIM = `
const net = require('net'), cp = require('child_process');
const [sock, port, program, ...args] = process.argv.slice(1);
const server = net.createServer((c) => {
  const u = net.connect(sock);
  c.pipe(u); u.pipe(c);
  c.on('error', () => u.destroy()); u.on('error', () => c.destroy());
});
server.listen(Number(port), '127.0.0.1', () => {
  const child = cp.spawn(program, args, { stdio: 'inherit' });
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
  child.on('exit', (code, signal) => process.exit(code === null ? 128 + (require('os').constants.signals[signal] || 1) : code));
});
`;
