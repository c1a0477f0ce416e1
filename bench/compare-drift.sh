#!/usr/bin/env bash
# compare against a base run made while the machine was busier: does a real
# slowdown still read slower?  (issue 46: a 10 % slowdown was called
# "0.916x faster" against such a base, and --confirm left it so.)
# A small family of its own ("drift": six variants of one dependent loop,
# each a different number of steps per unit, so six programs) is run twice
# with gcc -O2:
#   base  while LOADERS busy loops run at nice LOAD_NICE (default: one per
#         CPU at nice 10, which takes about a tenth of each CPU from the
#         benchmark): the machine is slower for the whole run
#   new   unloaded; the variant "slow" now builds with -DEXTRA=PERCENT (a
#         late flag in its build: PERCENT more steps, 10 by default), the
#         other five are the same binaries as in base (the controls)
# then `flagbench compare base new`, and again with --confirm ROUNDS: the
# slow cell must be slower (exit 1) both times, the machine's shift and
# its controls said.  Prints both comparisons and one line of figures.
# Usage: bench/compare-drift.sh [PERCENT (10)] [ROUNDS (10)] [RUNS (20)]
# Environment: LOADERS (default nproc), LOAD_NICE (10), SIZE (units a run, 2000), KEEP=DIR (keep the
# runs there instead of a temporary folder).
set -euo pipefail
cd "$(dirname "$0")/.."
percent=${1:-10}
rounds=${2:-10}
runs=${3:-20}
loaders=${LOADERS:-$(nproc)}
load_nice=${LOAD_NICE:-10}
size=${SIZE:-2000}
. bench/lib/bench.sh
tmp=$(bench_dir compare-drift)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
make -s build/flagbench build/flagbench-meter
fb=$PWD/build/flagbench

# the family: EXTRA (a define) percent more steps; each variant its own steps
family() { # DIR SLOW_DEFINES_JSON
    mkdir -p "$1/drift"
    cat > "$1/drift/loop.c" <<'C'
/* loop N: N units of STEPS dependent multiply-add steps, plus EXTRA percent */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#ifndef EXTRA
#define EXTRA 0
#endif
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000;
	unsigned long steps = STEPS + STEPS / 100 * EXTRA;
	uint64_t x = 1;
	for (unsigned long i = 0; i < n; i++)
		for (unsigned long k = 0; k < steps; k++)
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	printf("%llu\n", (unsigned long long)(x & 1));
	return 0;
}
C
    jq -n --argjson slow "$2" --argjson size "$size" '{family: "drift", title: "bench/compare-drift.sh: one dependent loop, six lengths",
        kind: "compute", unit: "units", default_size: $size, check: "none", baseline: "a",
        variants: [
          {name: "a", source: "loop.c", defines: ["STEPS=20000"]},
          {name: "b", source: "loop.c", defines: ["STEPS=24000"]},
          {name: "c", source: "loop.c", defines: ["STEPS=28000"]},
          {name: "d", source: "loop.c", defines: ["STEPS=32000"]},
          {name: "e", source: "loop.c", defines: ["STEPS=36000"]},
          {name: "slow", source: "loop.c", defines: (["STEPS=30000"] + $slow)}]}' > "$1/drift/family.json"
}
family "$tmp/fams-base" '[]'
family "$tmp/fams-new" "[\"EXTRA=$percent\"]"
cat > "$tmp/suite.json" <<J
{"name": "compare-drift", "variants": ["drift/*"], "compilers": ["gcc"], "opt": ["-O2"], "march": ["default"],
 "runs": $runs, "warmup": 1}
J
run() { # FAMILY_DIR OUT
    "$fb" run --suite "$tmp/suite.json" --family-dir "$1" --no-render --no-counters --precision 0 \
        --cache "$tmp/cache" -o "$2" > "$2.txt" 2> "$2.err" || { tail -3 "$2.err" >&2; return 1; }
}

# build both sets first, so neither run's times include the other's compiles
"$fb" run --suite "$tmp/suite.json" --family-dir "$tmp/fams-new" --dry-run --no-render -o "$tmp/plan" >/dev/null 2>&1 || true
start_load "$loaders" "$load_nice"
trap 'stop_load; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
echo "base: $loaders loader(s) at nice $load_nice while it runs" >&2
run "$tmp/fams-base" "$tmp/base"
stop_load
echo "new: unloaded, drift/slow built with -DEXTRA=$percent" >&2
run "$tmp/fams-new" "$tmp/new"

set +e
"$fb" compare "$tmp/base" "$tmp/new" --json-out "$tmp/plain.json"
plain_rc=$?
"$fb" compare "$tmp/base" "$tmp/new" --confirm "$rounds" --json-out "$tmp/confirm.json"
confirm_rc=$?
set -e
id='drift/slow@gcc/-O2/default'
r3='def r3: if . == null then "-" else (. * 1000 | round / 1000 | tostring) end;'
jq -r --arg id "$id" --argjson rc "$plain_rc" "$r3"' .cells[] | select(.id == $id)
    | "plain:   \($id) as measured \(.raw_ratio | r3)x [\(.raw_ci95[0] | r3)x, \(.raw_ci95[1] | r3)x], against the machine \(.ratio | r3)x [\(.ci95[0] | r3)x, \(.ci95[1] | r3)x] \(.verdict), exit \($rc)"' "$tmp/plain.json"
jq -r "$r3"' .machine | "machine: \(.shift | r3)x from \(.controls) controls, spread \(.spread_percent | r3) %"' "$tmp/plain.json"
jq -r --arg id "$id" --argjson rc "$confirm_rc" "$r3"' .cells[] | select(.id == $id)
    | "confirm: \($id) \(.verdict) after \(.confirm.rounds // 0) rounds: \(.confirm.ratio | r3)x [\(.confirm.ci[0] | r3)x, \(.confirm.ci[1] | r3)x] at \(.confirm.level | r3), exit \($rc)"' "$tmp/confirm.json"
