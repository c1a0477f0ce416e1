#!/usr/bin/env bash
# The meter's fixed cost per timed run: hyperfine -N times, side by side in
# one run, the bare producer, build/flagbench-meter (stream and --compute
# mode, what `flagbench run` times) and `build/flagbench meter` (the same
# code inside the whole harness).  ROUNDS rounds of RUNS runs each, the
# commands interleaved round by round so that a change of load on a shared
# machine hits them all; per command the median of the round medians.
# Goal: build/flagbench-meter adds at most 0.1 ms per run.
# Usage: bench/meter-overhead.sh [RUNS] [ROUNDS] [PRODUCER...]  (default 1000 3 /bin/true)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1000}
rounds=${2:-3}
shift 2 2>/dev/null || shift $#
prod=("$@")
[ ${#prod[@]} -gt 0 ] || prod=(/bin/true)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s build/flagbench build/flagbench-meter
q() { printf '%q ' "$@"; }
p=$(q "${prod[@]}")
names=(bare flagbench-meter "flagbench-meter --compute" "flagbench meter")
cmds=("$p" "build/flagbench-meter -- $p" "build/flagbench-meter --compute -- $p" "build/flagbench meter -- $p")
args=()
for i in "${!cmds[@]}"; do args+=(-n "${names[$i]}" "${cmds[$i]}"); done
echo "== ${prod[*]}: $rounds rounds of $runs runs; build/flagbench-meter is $(file -b build/flagbench-meter | cut -d, -f1-5)"
for r in $(seq "$rounds"); do
    hyperfine -N --warmup 50 --runs "$runs" --export-json "$tmp/r$r.json" "${args[@]}" >/dev/null 2>&1
done
jq -rs '
  def med: sort | if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end;
  def ms: . * 1e6 | round / 1000;
  (map(.results) | transpose | map({name: .[0].command, median: (map(.median) | med), min: (map(.min) | min)})) as $c
  | $c[0] as $bare
  | ($c[] | "\(.name)\tmedian \(.median | ms) ms\tmin \(.min | ms) ms" +
      (if .name == "bare" then "" else "\tper-run overhead \((.median - $bare.median) | ms) ms (min to min \((.min - $bare.min) | ms) ms)" end)),
    "goal: build/flagbench-meter adds at most 0.1 ms per run: \(if ($c[1].median - $bare.median) <= 0.0001 then "met" else "not met" end)"
' "$tmp"/r*.json | column -t -s $'\t'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cpus"
