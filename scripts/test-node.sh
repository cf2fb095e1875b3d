#!/usr/bin/env bash
# Runs the tests on another Node major, in a copy of the work tree installed for it (scripts/node-copy.sh).
#
#   bash scripts/test-node.sh 22                                          # every package's tests on Node 22
#   bash scripts/test-node.sh 24 --project api --project query --project workspace
#
# Arguments after the version go to `vitest run`. The JSON report is written to
# .node-matrix/node-<major>/.vitest-report.json (what `.ci/run` counts). The exit code is vitest's.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

[ $# -ge 1 ] || {
  echo "test-node: usage: bash scripts/test-node.sh <major|exact version> [vitest arguments...]" >&2
  exit 2
}
bin="$(bash "$root/scripts/setup-node.sh" "$1")"
copy="$(bash "$root/scripts/node-copy.sh" "$1")"
shift

cd "$copy"
# A report left by an earlier run must never be counted as this run's.
rm -f .vitest-report.json
export PATH="$bin:$PATH"
echo "test-node: vitest on Node $(node --version) in $copy" >&2
exec pnpm vitest run "$@"
