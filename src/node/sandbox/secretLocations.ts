import path from 'node:path';

/** Folders and files under the home folder that hold credentials, keys, browser profiles and keyrings. */
export const HOME_SECRETS: readonly string[] = [
  '.ssh', '.aws', '.azure', '.config/gcloud', '.docker', '.kube', '.gnupg', '.netrc', '.git-credentials',
  '.npmrc', '.pypirc', '.config/gh', '.config/hub', '.password-store', '.local/share/keyrings',
  '.mozilla', '.config/google-chrome', '.config/chromium', '.config/BraveSoftware', '.config/microsoft-edge',
  '.vscode-server/data/User/globalStorage', '.config/Code/User/globalStorage',
];

/** Sockets (and folders of sockets) that lead out of any sandbox: Docker, containerd, D-Bus, the user's runtime folder. */
export const SYSTEM_SOCKETS: readonly string[] = [
  '/var/run/docker.sock', '/run/docker.sock', '/run/containerd', '/run/podman', '/run/dbus', '/var/run/dbus', '/run/user',
];

/** Workspace paths a sandboxed command must not change: what runs outside later (git hooks, editor tasks) or Stepwise's own. */
export const WORKSPACE_PROTECTED: readonly string[] = ['.git/hooks', '.git/config', '.vscode', '.stepwise'];

/** The socket paths the environment names (`SSH_AUTH_SOCK`, a unix `DOCKER_HOST`, D-Bus, `XDG_RUNTIME_DIR`). */
export function socketsFromEnvironment(env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  if (env.SSH_AUTH_SOCK) out.push(env.SSH_AUTH_SOCK);
  if (env.XDG_RUNTIME_DIR) out.push(env.XDG_RUNTIME_DIR);
  const docker = /^unix:\/\/(\/.+)$/.exec(env.DOCKER_HOST ?? '');
  if (docker?.[1]) out.push(docker[1]);
  const bus = /unix:path=([^,;]+)/.exec(env.DBUS_SESSION_BUS_ADDRESS ?? '');
  if (bus?.[1]) out.push(bus[1]);
  return out.filter((p) => path.isAbsolute(p));
}

/** Every location hidden from sandboxed commands, absolute: the home's secrets, Stepwise's state, sockets. */
export function hiddenLocations(home: string, stepwiseState: string, env: NodeJS.ProcessEnv): string[] {
  const all = [...HOME_SECRETS.map((p) => path.join(home, p)), stepwiseState, ...SYSTEM_SOCKETS, ...socketsFromEnvironment(env)];
  return [...new Set(all.map((p) => path.resolve(p)))];
}
