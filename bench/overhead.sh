#!/usr/bin/env bash
# Harness overhead and the build cache, from results.json phases:
#  1. a run of SUITE (default quick): time outside build, verify, hyperfine
#     and cooldown as a share of the total (goal < 5 %);
#  2. the same run again with the same cache: its build phase against the
#     first run's (goal < 5 %).
# Usage: bench/overhead.sh [SUITE] [extra flagbench run options]
set -euo pipefail
cd "$(dirname "$0")/.."
suite=${1:-quick}; shift || true
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s build/flagbench
build/flagbench run --suite "$suite" --out "$tmp/first" --cache "$tmp/cache" "$@" >/dev/null
build/flagbench run --suite "$suite" --out "$tmp/second" --cache "$tmp/cache" "$@" >/dev/null
jq -r '.run.phases | "first run: total \(.total_s | . * 10 | round / 10) s, build \(.build_s | . * 100 | round / 100) s, verify \(.verify_s | . * 10 | round / 10) s, measure \(.measure_s | . * 10 | round / 10) s, cooldown \(.cooldown_s) s, other \(.other_s | . * 100 | round / 100) s = \(.other_s / .total_s * 1000 | round / 10) % of the total (goal < 5 %)"' "$tmp/first/results.json"
jq -rn --slurpfile a "$tmp/first/results.json" --slurpfile b "$tmp/second/results.json" \
  '"second run: build \($b[0].run.phases.build_s | . * 1000 | round) ms = \($b[0].run.phases.build_s / $a[0].run.phases.build_s * 1000 | round / 10) % of the first run'"'"'s \($a[0].run.phases.build_s * 1000 | round) ms (goal < 5 %)"'
