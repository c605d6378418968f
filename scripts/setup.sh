#!/usr/bin/env bash
# Installs everything Stepwise's build and tests need, from the npm registry and Debian's packages.
# Idempotent: each step is skipped when already done. Run as root (or with sudo available) for apt.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v rg >/dev/null 2>&1 || need_apt+=(ripgrep)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "== apt: ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

echo "== npm ci"
npm ci --loglevel=error --no-audit --no-fund
