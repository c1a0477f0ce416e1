#!/usr/bin/env bash
# Layouts: is a layout's effect seen, and is a difference smaller than it
# called "not attributable to the flags"?  One run of the layout-sensitive
# fixture family (tests/fixtures/families/aliasing: a loop whose speed
# follows the stack's place) at gcc -O2, built twice: plain and with
# -frecord-gcc-switches (a different binary, the same instructions), each
# under K code and environment layouts.  Reports the spread of the plain
# build's figure over the layouts beside one layout's own interval, and the
# answer for the pair.
# Usage: bench/layouts.sh [LAYOUTS (8)] [RUNS PER LAYOUT (7)]
set -euo pipefail
cd "$(dirname "$0")/.."
k=${1:-8}
runs=${2:-7}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s build/flagbench build/flagbench-meter
cat > "$tmp/suite.json" <<J
{"name": "layouts-bench", "variants": ["aliasing/*"], "compilers": ["gcc"], "opt": ["-O2"], "march": ["default"],
 "flags": {"base": [], "rec": ["-frecord-gcc-switches"]}, "sizes": {"aliasing": 100000}}
J
build/flagbench run --suite "$tmp/suite.json" --family-dir tests/fixtures/families/aliasing --layouts "$k" \
    --runs "$runs" --precision 0 --no-render --no-counters --cache "$tmp/cache" -o "$tmp/run" >"$tmp/out" 2>"$tmp/err" || true
r="$tmp/run/results.json"
echo "layouts: $k layouts x $runs runs, gcc -O2 plain and -frecord-gcc-switches, aliasing/add"
jq -r '[.cells[] | select(.flags == "base" and .status == "ok")]
    | (map(.rate.value) | [min, max]) as $mm
    | (map(.rate.rerun | select(. != null) | (.high - .low) / 2 / ((.high + .low) / 2) * 100) | add / length) as $one
    | "  base: figures over the layouts from \($mm[0] | . / 1000 | round) to \($mm[1] | . / 1000 | round) krounds/s: "
      + "\((($mm[1] / $mm[0]) - 1) * 100 | round) % apart; one layout'"'"'s own rerun interval +-\($one | . * 10 | round / 10) % on average"' "$r"
grep -E '^aliasing/add: ' "$tmp/out" | sed 's/^/  answer: /'
