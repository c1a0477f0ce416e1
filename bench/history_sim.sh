#!/usr/bin/env bash
# The nightly history's change points on simulated histories, beside
# today's gate (bench/history_sim.c says how the nights are drawn), then
# `flagbench history import` and `changes` timed over 100 nights x 100 cells.
# Usage: bench/history_sim.sh [SEED (1)]
# Goals (issue 32): a 5 % step found within 3 nights in >= 95 % of the cells
# that have one, 3 % within 5 nights in >= 90 %; at most 1 false change
# point per 1,000 cell-nights without a step; what changed named right at
# every step found; `history changes` over 10,000 cell-nights under 1 s.
# The quiet spreads reach them; on the VM's own nights (last sections) a new
# binary's steps do, measured beside the old one (20 pairs), a library's do not:
# there a night of a cell is known to +-3 to 6 %.  The last columns are the
# bound: a test told the step's night (history_sim.c, oracle_found) at 1
# false alarm per 1,000 cell-nights; where it misses, the spread does.
set -euo pipefail
cd "$(dirname "$0")/.."
seed=${1:-1}
make -s build/flagbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the harness's own objects (analysis/history_changes.c and what it calls), main left
# out, and the libraries the Makefile links them with
srcs=$(find harness -mindepth 2 -name '*.c' | sort)
objs=$(printf 'build/obj/%s\n' ${srcs//.c/.o})
make -s $objs
mk() { printf 'print: ; @echo $(%s)\n' "$1" | make --no-print-directory -s -f Makefile -f - print; }
# shellcheck disable=SC2046,SC2086
cc -std=c11 -O2 -Wall -Wextra -Werror -Iharness $(mk PKG_CFLAGS) -o "$tmp/history_sim" bench/history_sim.c $objs $(mk PKG_LIBS) -lm
# SIM_POOLS: the results.json files whose runs' spread the nights draw
# from (default: the fixtures; real nights of this machine: their runs as
# they were), SIM_MEASURED 0 to leave new binaries unmeasured beside the
# previous night's (the nightly before it measured them: 1, the default),
# SIM_RUNS runs a night (5), SIM_NIGHT_SD the nights' spread
# beyond their runs in percent (0.5; `flagbench history show` says what a
# machine's nights had)
if [ -n "${SIM_POOLS:-}" ]; then
    read -r -a fixtures <<<"$SIM_POOLS"
else
    fixtures=(tests/fixtures/results/quick-5700x.json tests/fixtures/results/fizzbuzz-j4205.json tests/fixtures/results/seed004-host.json)
fi
for cv in ${SIM_CVS:-0.3 1 as-recorded}; do
    echo "== runs' spread: $cv"
    args=(--seed "$seed" --nights 60 --cells "${SIM_CELLS:-100}" --runs "${SIM_RUNS:-5}" --night-sd "${SIM_NIGHT_SD:-0.5}"
          --measured "${SIM_MEASURED:-1}")
    [ "$cv" = as-recorded ] || args+=(--run-cv "$cv")
    "$tmp/history_sim" "${args[@]}" "${fixtures[@]}"
done
# and the nightly suite's own nights on a noisy machine: four nights of the
# 2-vCPU AMD EPYC VM (tests/fixtures/history/vm-nights: runs of 4-14 %
# spread, two cells in two modes), 19 runs a night as the suite took there,
# the nights apart as their runs said (0 % beyond them)
if [ -z "${SIM_POOLS:-}" ] && [ "${SIM_VM:-1}" = 1 ]; then
    echo "== the nightly suite's nights on a 2-vCPU VM, runs as recorded"
    "$tmp/history_sim" --seed "$seed" --nights 60 --cells "${SIM_CELLS:-100}" --runs 19 --night-sd 0 --measured "${SIM_MEASURED:-1}" \
        tests/fixtures/history/vm-nights/night-*.json
    # four later nights of the same VM whose cells kept their rounds
    # (tests/fixtures/history/vm-nights-rounds): a new binary beside the
    # old one is drawn as two builds' residuals of one real round
    echo "== the nightly suite's nights on a 2-vCPU VM, with their rounds (pairs as measured)"
    "$tmp/history_sim" --seed "$seed" --nights 60 --cells "${SIM_CELLS:-100}" --runs 19 --night-sd 0 --measured "${SIM_MEASURED:-1}" \
        tests/fixtures/history/vm-nights-rounds/night-*.json
fi
echo "== flagbench history over 100 nights x 100 cells (10,000 cell-nights)"
"$tmp/history_sim" --seed "$seed" --nights 100 --cells 100 --runs 5 --run-cv 1 --write "$tmp/nights" "${fixtures[@]}"
t0=$(date +%s.%N)
build/flagbench history import --db "$tmp/h.db" "$tmp"/nights/night-*/results.json
t1=$(date +%s.%N)
build/flagbench history changes --db "$tmp/h.db" > "$tmp/changes.txt" || true
t2=$(date +%s.%N)
head -1 "$tmp/changes.txt"
printf 'import: %.2f s; changes: %.3f s\n' "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
