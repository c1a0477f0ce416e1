#!/usr/bin/env bash
# Issue 46's explain on a real program: the zstd CLI from the Debian source
# package (bench/explain-real/: its own Makefile, one compile of the
# compressor and the CLI, about 40 files, a generated corpus, a round trip through the system's zstd; a
# .gitignore in the family, as a real project has one).  Steps:
#   1. a small matrix: gcc and clang at -O2 and -O3 (flagbench run; ONLY to cut it,
#      OPTS, a JSON list, to change the levels)
#   2. flagbench explain of the slowest and the fastest gcc cell (A the slower, B the faster)
#      with --budget 10m, interrupted (SIGINT) after INTERRUPT_S seconds,
#      then --resume with --budget 10m
#   3. flagbench explain across compilers: gcc against clang at -O2
# Every line of output is stamped; the script prints the estimate, whether
# A and B came from the run's builds (compiled 0), the time to the answer of
# each step and each explain's state and answer.
# Usage: bench/explain-real.sh [VERSION]   (a version of the source package zstd;
#        default: each that `apt-cache showsrc zstd` lists, newest first, until
#        one fetches: the newest may 404 on a mirror)
# Environment: INTERRUPT_S (default 300), RUNS (default 10), SIZE (default 16M),
# BUILD_TIMEOUT (default 1800 s), ONLY (the matrix's cells, flagbench run --only).
# The folder with the run, the explains and the logs is kept (printed last).
set -euo pipefail
cd "$(dirname "$0")/.."
make -s build/flagbench build/flagbench-meter
fb=$PWD/build/flagbench
interrupt_s=${INTERRUPT_S:-300}
dir=$(mktemp -d "${TMPDIR:-/tmp}/flagbench-explain-real.XXXXXX")
fam=$dir/zstd
. bench/explain-real/family.sh
src=$(zstd_family "$dir" "$@") || exit 2
opts=${OPTS:-'["-O2", "-O3"]'}
cat >"$dir/suite.json" <<J
{"name": "explain-real", "variants": ["zstd/l3"], "compilers": ["gcc", "clang"], "opt": $opts,
 "march": ["default"], "sizes": {"zstd": "${SIZE:-16M}"}, "runs": ${RUNS:-10}}
J
# a compile that takes a minute on a quiet machine takes several on a busy one
bt=${BUILD_TIMEOUT:-1800}

stamp() { # LOG: each line stamped with the seconds since the step began
    local t0=$EPOCHREALTIME
    while IFS= read -r line; do printf '%7.1f %s\n' "$(echo "$EPOCHREALTIME - $t0" | bc)" "$line"; done >"$1"
}
elapsed() { echo "$1 $EPOCHREALTIME" | awk '{ printf "%.0f", $2 - $1 }'; }

echo "explain-real: zstd from $src, in $dir (the machine: $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg))"
t=$EPOCHREALTIME
set +e
"$fb" run --suite "$dir/suite.json" --family-dir "$fam" --cache "$dir/cache" -o "$dir/run" --no-render \
    --build-timeout "$bt" ${ONLY:+--only "$ONLY"} 2>&1 | stamp "$dir/run.log"
set -e
[ -f "$dir/run/results.json" ] || { echo "explain-real: the matrix wrote no results ($dir/run.log)" >&2; exit 1; }
echo "1. the matrix: $(elapsed "$t") s; $(jq -r '[.cells[] | "\(.id | sub("zstd/l3@"; "")) \(.status) \(.time_s.median // "-" | tostring | .[0:6]) s"] | join(", ")' "$dir/run/results.json")"
jq -e '.families.zstd.files[".gitignore"]' "$dir/run/results.json" >/dev/null &&
    echo "   the kept family holds .gitignore: $(ls -A "$dir/run/families/zstd" | tr '\n' ' ')"

# A the slower gcc cell, B the faster
read -r a b < <(jq -r '[.cells[] | select(.compiler == "gcc" and .status == "ok")] | sort_by(-.time_s.median)
    | map(.id) | [first, last] | join(" ")' "$dir/run/results.json")
echo "2. explain $a (A) against $b (B), --budget 10m, SIGINT after ${interrupt_s} s"
t=$EPOCHREALTIME
set +e
( "$fb" explain "$dir/run" "$a" "$b" --budget 10m --cache "$dir/cache" -o "$dir/ex" \
    --build-timeout "$bt" 2>&1 | stamp "$dir/explain.log" ) &
pid=$!
for _ in $(seq 1 "$interrupt_s"); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 1
done
explain_pid=$(pgrep -f "flagbench explain $dir/run" | head -1)
[ -n "$explain_pid" ] && kill -INT "$explain_pid"
wait "$pid"
set -e
first=$(elapsed "$t")
grep -E "candidate flags|A and B built|groups measured|interrupted|budget is spent|not faster" "$dir/explain.log" | sed 's/^/   /' || true
echo "   ended after ${first} s: $(jq -r '.explain.state // "no results"' "$dir/ex/results.json" 2>/dev/null || echo "no results")"
if [ -f "$dir/ex/journal.json" ] && [ "$(jq -r .explain.state "$dir/ex/results.json")" != complete ]; then
    t=$EPOCHREALTIME
    set +e
    "$fb" explain --resume "$dir/ex" --budget 10m --cache "$dir/cache" --build-timeout "$bt" 2>&1 | stamp "$dir/resume.log"
    set -e
    echo "   --resume --budget 10m: $(elapsed "$t") s"
    grep -E "resume|A and B built|groups measured|budget is spent" "$dir/resume.log" | sed 's/^/   /' || true
fi
if [ -f "$dir/ex/results.json" ]; then
    echo "   state: $(jq -r .explain.state "$dir/ex/results.json"), $(jq -r .explain.builds "$dir/ex/results.json") builds of $(jq -r .explain.full_builds "$dir/ex/results.json") for one per flag"
    grep -E '^\*\*' "$dir/ex/explain.md" | sed 's/^/   /'
fi

echo "3. explain across compilers: gcc/-O2 against clang/-O2, --budget 10m"
t=$EPOCHREALTIME
set +e
"$fb" explain "$dir/run" zstd/l3@gcc/-O2/default zstd/l3@clang/-O2/default --budget 10m --cache "$dir/cache" \
    -o "$dir/cross" --build-timeout "$bt" 2>&1 | stamp "$dir/cross.log"
set -e
echo "   $(elapsed "$t") s"
[ -f "$dir/cross/explain.md" ] && grep -E '^(\*\*|A and B|Metric)' "$dir/cross/explain.md" | sed 's/^/   /'
echo "explain-real: logs and folders in $dir"
