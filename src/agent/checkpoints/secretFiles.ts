/**
 * File names that hold secrets by convention. The checkpoint store never stores them, whether or
 * not the workspace ignores them: a checkpoint is a copy of the user's files kept outside the
 * workspace for weeks, and a key must not be copied there. Matched on the last path segment, case
 * insensitively. Conservative on purpose: every `.env*` is a secret except names that are clearly
 * templates (`.env.example`, `.env.sample`, `.env.template`, also with `.dist`/`.defaults`), which
 * projects commit and a restore should bring back.
 */
const SECRET_NAMES: readonly RegExp[] = [
  /^\.env(\..*)?$/, // .env, .env.local, .env.production, …
  /^\.envrc$/,
  /\.(pem|key|p12|pfx|jks|keystore|kdbx|ppk|asc|gpg)$/,
  /^id_(rsa|dsa|ecdsa|ed25519)(_sk)?(\..*)?$/, // ssh keys (and their .pub: conservative)
  /^\.(npmrc|yarnrc\.yml|netrc|pypirc|pgpass|git-credentials|htpasswd|dockercfg)$/,
  /^_netrc$/,
  /^credentials(\.json|\.ya?ml|\.xml)?$/, // ~/.aws/credentials-style files, gcloud's credentials.json
  /^(client_secrets?|service[-_]account)[^/]*\.json$/,
  /^secrets?\.(json|ya?ml|toml|env)$/,
];

/** Names matched by `SECRET_NAMES` that are templates without real values. */
const TEMPLATE_NAME = /^\.env\.(example|sample|template|dist|defaults)$/;

/** True when `relPath` (workspace-relative, `/`-separated) names a secret file the checkpoint store must leave out. */
export function isSecretFile(relPath: string): boolean {
  const name = (relPath.split('/').pop() ?? '').toLowerCase();
  if (TEMPLATE_NAME.test(name)) return false;
  return SECRET_NAMES.some((pattern) => pattern.test(name));
}

/** The reason a snapshot gives for a secret file it left out (also how the core recognises one). */
export const SECRET_SKIP_REASON = 'a secret file (keys, .env): never copied into checkpoints';
