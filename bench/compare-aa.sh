#!/usr/bin/env bash
# A/A: how often does `flagbench compare` cry wolf?  Runs of identical
# binaries (one run, then replays of it with `flagbench rerun`) are compared
# pairwise, time metric, without and with --confirm.  Goal: 0 comparisons
# with a slower cell after --confirm; the rate without it is reported.
# The binaries are identical, which compare answers "same binary" without
# looking at the times: --times-of-same-binary makes it compare them, so
# this measures the noise the comparison (analysis/comparison.h) meets.
# --confirm runs at compare's default --alarm-rate (1 %: each of m confirmed
# cells at the two-sided level 1 - 0.02 / m, shown per confirmed cell),
# paired over its rounds by the sign test: 7 rounds reach 98 %, 10 reach
# 99.8 %, so fewer than 7 can never confirm.
# Usage: bench/compare-aa.sh [COMPARISONS (20)] [ONLY GLOB] [CONFIRM ROUNDS (10)]
# Default cells: the gcc builds of the nightly suite.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20}
only=${2:-'*@gcc/*'}
rounds=${3:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s build/flagbench
fb=build/flagbench
$fb run --suite nightly --only "$only" --out "$tmp/r0" --cache "$tmp/cache" --no-counters >/dev/null 2>&1 || true
cells=$(jq '[.cells[] | select(.status == "ok")] | length' "$tmp/r0/results.json")
printf 'A/A on %s: %s cells, %s comparisons of consecutive runs of identical binaries\n' \
    "$(jq -r .host.cpu_model "$tmp/r0/results.json")" "$cells" "$n"
printf '%-4s %-44s %-44s\n' "#" "without --confirm (slower/faster/inconclusive/same)" "with --confirm $rounds"
alarms=0 alarms_c=0 slow_cells=0 slow_cells_c=0
for i in $(seq 1 "$n"); do
    $fb rerun "$tmp/r$((i - 1))" --out "$tmp/r$i" >/dev/null 2>&1 || true
    $fb compare "$tmp/r$((i - 1))" "$tmp/r$i" --times-of-same-binary --format json > "$tmp/c.json" 2>/dev/null || true
    FLAGBENCH_ROOT=$PWD $fb compare "$tmp/r$((i - 1))" "$tmp/r$i" --times-of-same-binary --confirm "$rounds" --format json \
        > "$tmp/cc.json" 2>/dev/null || true
    a=$(jq -r '.counts | "\(.slower) \(.faster) \(.inconclusive) \(.same)"' "$tmp/c.json")
    b=$(jq -r '.counts | "\(.slower) \(.faster) \(.inconclusive) \(.same)"' "$tmp/cc.json")
    printf '%-4s %-44s %-44s\n' "$i" "$a" "$b"
    # every alarm, before and after confirmation: which cell, how far
    jq -r '.cells[] | select(.verdict == "slower") | "     alarm: \(.id) \(.ratio * 1000 | round / 1000)x [\(.ci95[0] * 1000 | round / 1000), \(.ci95[1] * 1000 | round / 1000)]"' "$tmp/c.json"
    # a cell that could not be compared (failed on a side, unmatched): why
    jq -r '.cells[] | select(.verdict == "n/a") | "     n/a: \(.id): \(.note // "no note")"' "$tmp/c.json"
    jq -r '(.only_in_base // [])[], (.only_in_new // [])[] | "     unmatched: \(.)"' "$tmp/c.json"
    jq -r '.cells[] | select(.confirm) | "     confirm: \(.id) \(.confirm.ratio * 1000 | round / 1000)x [\(.confirm.ci[0] * 1000 | round / 1000), \(.confirm.ci[1] * 1000 | round / 1000)] at \(.confirm.level * 100000 | round / 1000) % -> \(.verdict)"' "$tmp/cc.json"
    s=${a%% *} sc=${b%% *}
    slow_cells=$((slow_cells + s)) slow_cells_c=$((slow_cells_c + sc))
    [ "$s" -gt 0 ] && alarms=$((alarms + 1))
    [ "$sc" -gt 0 ] && alarms_c=$((alarms_c + 1))
    rm -rf "$tmp/r$((i - 1))"
done
printf 'without --confirm: %d of %d comparisons raised an alarm (%d slower cells of %d)\n' \
    "$alarms" "$n" "$slow_cells" "$((n * cells))"
printf 'with --confirm %s: %d of %d comparisons raised an alarm (%d slower cells) (goal: 0)\n' \
    "$rounds" "$alarms_c" "$n" "$slow_cells_c"
