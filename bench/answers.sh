#!/usr/bin/env bash
# The answer's error rates, measured: how often a run calls a lead real
# between two builds that differ by nothing measurable (A/A), and how often
# it calls a build with 3 % more work slower (power).  Each repetition is a
# fresh `flagbench run` at the quick suite's settings (default precision,
# the quick suite's cell budget, interleaved rounds) of the abwork fixture family (a
# dependent loop; SHARE percent more steps per unit):
#   A/A    loop built plain and with -frecord-gcc-switches (different
#          binaries, the same instructions): a false lead is an answer
#          that calls either the faster
#   power  the variant "more" (3 % more steps) against "loop", by the
#          speedup table's verdict: called slower, or not
# Goals (issue: the answer you can trust): A/A at most 1 false lead in 20
# runs; power at least 18 of 20.
# Usage: bench/answers.sh [REPETITIONS (20)] [SIZE (4000)]
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-20}
size=${2:-4000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s build/flagbench build/flagbench-meter
mkdir -p "$tmp/fams/abwork"
cp tests/fixtures/families/abwork/loop.c "$tmp/fams/abwork/"
cat > "$tmp/fams/abwork/family.json" <<J
{"family": "abwork", "kind": "compute", "unit": "units", "default_size": $size, "check": "none",
 "baseline": "loop", "variants": [{"name": "loop", "args": ["0"]}, {"name": "more", "source": "loop.c", "args": ["3"]}]}
J
budget=$(jq '.cell_budget // 2.5' configs/suites/quick.json)
cat > "$tmp/suite.json" <<J
{"name": "answers-bench", "variants": ["abwork/*"], "compilers": ["gcc"], "opt": ["-O2"], "march": ["default"],
 "flags": {"base": [], "rec": ["-frecord-gcc-switches"]}, "cell_budget": $budget}
J
false_leads=0 slower=0 done=0
for i in $(seq 1 "$reps"); do
    out="$tmp/r$i"
    build/flagbench run --suite "$tmp/suite.json" --family-dir "$tmp/fams" --no-render --no-counters \
        --cache "$tmp/cache" -o "$out" >"$out.txt" 2>"$out.err" || true
    [ -f "$out/results.json" ] || { echo "run $i: no results ($(tail -1 "$out.err"))"; continue; }
    done=$((done + 1))
    build/flagbench tables "$out" --format json >"$out.tables.json"
    aa=$(jq -r '.families[0].answer[] | select(startswith("abwork/loop: "))' "$out.tables.json")
    verdict=$(jq -r '.families[0].answers[] | select(.variant == "loop") | .verdict' "$out.tables.json")
    case "$verdict" in faster|slower) false_leads=$((false_leads + 1)) ;; esac
    v=$(jq -r '.families[0].tables[] | select(.name == "speedup")
        | .rows[] | select(.label == "more") | .cells[0] | "\(.value) \(.marks)"' "$out.tables.json")
    case "$v" in 0.*) case "$v" in *"~"*) ;; *) slower=$((slower + 1)) ;; esac ;; esac
    # the runs before it lie beside it: its tables read them (results/ratio_drift.h)
    earlier=$(jq '.runs[0].between_runs.runs // [] | length' "$out.tables.json")
    printf 'run %2d: A/A %s | more/loop %s | earlier runs read %s\n' "$i" "$(sed -E 's/.*\((.*)\)$/\1/' <<<"$aa")" "$v" "$earlier"
done
echo "A/A: $false_leads false real leads in $done runs (goal: at most 1 in 20)"
echo "power: 3 % more work called slower in $slower of $done runs (goal: at least 18 of 20)"
