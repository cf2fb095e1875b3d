#!/usr/bin/env bash
# The README's test command: set up a fresh machine, then run every package's tests against the sources.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
pnpm test "$@"
