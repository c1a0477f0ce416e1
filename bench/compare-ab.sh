#!/usr/bin/env bash
# A/B: does `flagbench compare` find a known slowdown?  The abwork fixture
# family (tests/fixtures/families/abwork) does SHARE percent more loop steps
# per unit when its argument says so; the binary and the cell id stay the same.
#   instructions: runs with SHARE 0 and 1 (callgrind counts), --threshold 0.5:
#                 the 1 % change must be slower every time
#   time:         runs with SHARE 0 and 10, --confirm ROUNDS (10: the paired
#                 sign test needs 7 for the 98 % of one cell at 1 %): the
#                 10 % slowdown must be slower in at least 18 of 20 comparisons
# Usage: bench/compare-ab.sh [COMPARISONS (20)] [INSTRUCTION COMPARISONS (5)] [ROUNDS (10)]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20}
ni=${2:-5}
rounds=${3:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s build/flagbench
fb=$PWD/build/flagbench
root_with() { # DIR SHARE
    mkdir -p "$1/configs/suites" "$1/variants"
    cp -r configs/cpus "$1/configs/"
    cp -r tests/fixtures/families/abwork "$1/variants/"
    jq --arg s "$2" '.args = [$s]' tests/fixtures/families/abwork/family.json > "$1/variants/abwork/family.json"
    echo '{"name": "ab", "variants": ["abwork/*"], "compilers": ["gcc"], "opt": ["-O2"], "march": ["default"],
           "runs": 5, "warmup": 1}' > "$1/configs/suites/ab.json"
}
root_with "$tmp/s0" 0
root_with "$tmp/s1" 1
root_with "$tmp/s10" 10
run_share() { # SHARE OUT [options]
    local s=$1 out=$2
    shift 2
    FLAGBENCH_ROOT="$tmp/s$s" "$fb" run --suite ab --out "$out" --cache "$tmp/cache" "$@" >/dev/null 2>&1 || true
}

found=0
for i in $(seq 1 "$ni"); do
    run_share 0 "$tmp/i0"
    run_share 1 "$tmp/i1"
    v=$("$fb" compare "$tmp/i0" "$tmp/i1" --metric instructions --threshold 0.5 --format json 2>/dev/null |
        jq -r '.cells[0] | "\(.verdict) \(.ratio)"') || true
    printf 'instructions #%d: %s\n' "$i" "$v"
    [ "${v%% *}" = slower ] && found=$((found + 1))
    rm -rf "$tmp/i0" "$tmp/i1"
done
printf 'instructions, 1 %% more work: slower in %d of %d comparisons (goal: all)\n' "$found" "$ni"

found=0 first=0
for i in $(seq 1 "$n"); do
    run_share 0 "$tmp/t0" --no-counters
    run_share 10 "$tmp/t10" --no-counters
    FLAGBENCH_ROOT="$tmp/s0" "$fb" compare "$tmp/t0" "$tmp/t10" --confirm "$rounds" --format json > "$tmp/c.json" \
        2>/dev/null || true
    v=$(jq -r '.cells[0] | "\(.verdict) first \(.confirm.first_verdict // .verdict) ratio \(.ratio) confirmed \(.confirm.ratio // "-")"' "$tmp/c.json")
    printf 'time #%d: %s\n' "$i" "$v"
    [ "${v%% *}" = slower ] && found=$((found + 1))
    case "$v" in *"first slower"*) first=$((first + 1)) ;; esac
    rm -rf "$tmp/t0" "$tmp/t10"
done
printf 'time, 10 %% more work: slower in %d of %d comparisons after --confirm %s (goal >= 18 of 20); %d slower before confirmation\n' \
    "$found" "$n" "$rounds" "$first"
