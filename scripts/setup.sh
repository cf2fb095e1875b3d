#!/usr/bin/env bash
# Sets up a fresh machine (Node 20 with npm, nothing else needed): pnpm at the pinned version,
# node-gyp pointed at the local Node headers, and the workspace installed from the frozen lockfile.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=12.4.2
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  echo "setup: installing pnpm $PNPM_VERSION" >&2
  # corepack fails its signature check on this kind of machine; npm installs pnpm fine.
  npm install --global --no-fund --no-audit "pnpm@$PNPM_VERSION" >&2
fi

# pnpm does not pass npm's nodedir to node-gyp: without it better-sqlite3 tries to download headers.
if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node.h ]; then
  export npm_config_nodedir=/usr
fi

# The CLI's chat test drives a real terminal through tmux, the dashboard's tests Debian's chromium (through
# playwright-core, which downloads no browser); install them where the machine can (root with apt).
apt_packages=()
command -v tmux >/dev/null 2>&1 || apt_packages+=(tmux)
[ -x /usr/bin/chromium ] || apt_packages+=(chromium)
if [ "${#apt_packages[@]}" -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "setup: installing ${apt_packages[*]} (the gateway's terminal and browser tests)" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${apt_packages[@]}"; } >&2 ||
    echo "setup: ${apt_packages[*]} could not be installed; the terminal chat and browser tests will report themselves skipped" >&2
fi

pnpm install --frozen-lockfile --reporter=append-only >&2
