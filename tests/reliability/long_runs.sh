#!/usr/bin/env bash
# The long runs of the reliability matrix (not part of `uv run pytest`):
#   - the 30-minute soak of the live demo with auto-refresh (memory, tasks, errors);
#   - the race property with 100 key sequences instead of 8.
# Usage: tests/reliability/long_runs.sh [soak seconds, default 1800]
# Figures are written to reliability-soak.json in the current directory.
set -euo pipefail
cd "$(dirname "$0")/../.."

export RELIABILITY_SOAK_SECONDS="${1:-1800}"
export RELIABILITY_SOAK_REPORT="${RELIABILITY_SOAK_REPORT:-$PWD/reliability-soak.json}"
export RELIABILITY_RACE_EXAMPLES="${RELIABILITY_RACE_EXAMPLES:-100}"

echo "== soak: ${RELIABILITY_SOAK_SECONDS} s, figures in ${RELIABILITY_SOAK_REPORT}"
uv run pytest -m slow -n 0 tests/reliability/test_soak.py -s -p no:cacheprovider

echo "== races: ${RELIABILITY_RACE_EXAMPLES} key sequences"
uv run pytest -m e2e -n 0 tests/reliability/test_races.py -p no:cacheprovider --timeout 0
