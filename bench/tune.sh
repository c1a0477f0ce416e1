#!/usr/bin/env bash
# What flagbench tune finds, measured (issue: flagbench tune): for each start, the
# search (ensemble) and the random baseline side by side at the same budget, each
# technique's best by the screen, and what the confirmation (time, the one
# comparison, paired over its rounds) says of it against the start and the -O
# levels of the same compiler.  Then the repeat: tune twice from one start with
# no real gain to find, which must both say "no better configuration found" or
# name the same minimal flags.
# Goals: the search at least matches random in every case and beats it on most;
# on chacha20/multiblock at -O3 -march=native (AVX-512 here) it finds >= 1.4x over
# -O3 and names the flags.
# Usage: bench/tune.sh [BUDGET (10m)] [OUT (results/bench-tune-<time>)]
#   BUDGET per technique, as tune's --budget; TUNE_ONLY="1 3" runs those starts only;
#   TUNE_REPEAT=0 skips the repeat.
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${1:-10m}
out=${2:-results/bench-tune-$(date -u +%Y%m%dT%H%M%SZ)}
make -s build/flagbench build/flagbench-meter
scripts/project-sources.sh # lua from its Debian source
mkdir -p "$out"
# start: variant, -O level, -march
starts=(
    "chacha20/multiblock -O3 native"
    "chacha20/ref -O3 x86-64-v3"
    "fizzbuzz/batch30 -O3 native"
    "lua/fib -O2 native"
)
summary="$out/summary.md"
{
    echo "# bench/tune.sh: budget $budget per technique, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cpus"
    echo
    echo "| start | screen | ensemble best | random best | ensemble vs start | random vs start | answer | vs -O2 | vs -O3 | vs -Os | flags that carry it |"
    echo "|---|---|---:|---:|---|---|---|---|---|---|---|"
} >"$summary"
i=0
for s in "${starts[@]}"; do
    i=$((i + 1))
    if [ -n "${TUNE_ONLY:-}" ] && [[ " $TUNE_ONLY " != *" $i "* ]]; then continue; fi
    read -r v o m <<<"$s"
    dir="$out/$i-${v//\//-}"
    echo "flagbench: bench/tune.sh: $v $o -march=$m" >&2
    build/flagbench tune "$v" --suite tune --opt "$o" --march "$m" --technique ensemble,random \
        --budget "$budget" --out "$dir" >"$dir.log" 2>&1 || echo "flagbench: tune $v exited $?" >&2
    [ -f "$dir/results.json" ] || continue
    jq -r --arg start "$v $o $m" '
      def vs(l): ([.confirmation.builds[] | select(.build | test(l))][0].vs_start // null);
      def r: if . == null then "-" else (.ratio * 1000 | round / 1000 | tostring) + "x " + .verdict end;
      def ans(l): ([.confirmation.builds[] | select(.build == l)][0].answer_vs_it // null) | r;
      "| \($start) | \(.metric) | \(.techniques[0].best_ratio * 1000 | round / 1000)x | \(.techniques[1].best_ratio * 1000 | round / 1000)x | \(vs("ensemble") | r) | \(vs("random") | r) | \(if .answer.better then .answer.build + ": " + (.answer.vs_start | r) else "none" end) | \(ans("-O2")) | \(ans("-O3")) | \(ans("-Os")) | \(.minimal.flags | join(" ") | if . == "" then "-" else . end) |"
    ' "$dir/results.json" >>"$summary"
done
if [ "${TUNE_REPEAT:-1}" = 1 ]; then
    # no real gain: fizzbuzz/simple is printf-bound
    {
        echo
        echo "Repeat from one start with no real gain (fizzbuzz/simple -O2, budget 2m, ensemble):"
        echo
    } >>"$summary"
    for k in 1 2; do
        dir="$out/repeat-$k"
        build/flagbench tune fizzbuzz/simple --suite quick --opt -O2 --budget 2m --out "$dir" --seed "$k" \
            >"$dir.log" 2>&1 || true
        [ -f "$dir/results.json" ] || continue
        jq -r --arg k "$k" '"- run \($k): " + (if .answer.better then "better: " + .answer.flags + " " + .answer.vs_start.text else "no better configuration found (best candidate: " + ((.confirmation.builds[1].vs_start.text) // "none") + ")" end) + "; minimal flags: " + (.minimal.flags | join(" ") | if . == "" then "none" else . end)' \
            "$dir/results.json" >>"$summary"
    done
fi
cat "$summary"
