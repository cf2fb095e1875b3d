#!/usr/bin/env bash
# Runs the demo (examples/config-editor) on another Node major, in a copy of the work tree installed for it.
#
#   bash scripts/demo-node.sh 24
#
# Arguments after the version go to the demo. The exit code is the demo's.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

[ $# -ge 1 ] || {
  echo "demo-node: usage: bash scripts/demo-node.sh <major|exact version> [demo arguments...]" >&2
  exit 2
}
bin="$(bash "$root/scripts/setup-node.sh" "$1")"
copy="$(bash "$root/scripts/node-copy.sh" "$1")"
shift

cd "$copy"
export PATH="$bin:$PATH"
echo "demo-node: the demo on Node $(node --version) in $copy" >&2
exec pnpm demo "$@"
