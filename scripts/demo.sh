#!/usr/bin/env bash
# The README's main job: set up a fresh machine, then run the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
pnpm demo "$@"
