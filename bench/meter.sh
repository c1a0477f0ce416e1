#!/usr/bin/env bash
# Is the meter ever the bottleneck?  yes/vmsplice feeds, side by side in one
# hyperfine run: a bare splice() sink, build/flagbench-meter (splice, counting,
# pinning) and `pv -q > /dev/null`.  Goal: meter >= 90 % of the bare sink
# and >= 1.5x pv.  Usage: bench/meter.sh [LINES] [RUNS] [FEEDER]
# FEEDER is a yes variant: vmsplice (1 MiB chunks, the default) or vmsplice_256k.
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-2000000000}   # 4 GB of "y\n"
runs=${2:-10}
feeder=${3:-vmsplice}
bytes=$((lines * 2))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s build/flagbench-meter
cc -O2 -o "$tmp/vmsplice" "variants/yes/$feeder.c"
cc -O2 -o "$tmp/sink" bench/splice_sink.c
# both placements: producer and consumer on one CPU, and on two
other=$(( $(nproc) > 1 ? 1 : 0 ))
for pair in "0 0" "0 $other"; do
    read -r p c <<<"$pair"
    echo "== yes/$feeder: producer cpu $p, consumer cpu $c, $bytes bytes per run, $runs runs"
    hyperfine --warmup 2 --runs "$runs" --export-json "$tmp/h.json" \
        -n bare "taskset -c $p $tmp/vmsplice $lines | taskset -c $c $tmp/sink" \
        -n meter "build/flagbench-meter --producer-cpu $p --consumer-cpu $c --expect-bytes $bytes -- $tmp/vmsplice $lines" \
        -n pv "taskset -c $p $tmp/vmsplice $lines | taskset -c $c pv -q > /dev/null" >/dev/null
    jq -r --argjson b "$bytes" '
      (.results | map({(.command): .median}) | add) as $m
      | (.results[] | "\(.command)\t\($b / .median / 1073741824 * 100 | round / 100) GiB/s\tmedian \(.median * 1000 | round) ms"),
        "meter / bare = \($m.bare / $m.meter * 100 | round) %   (goal >= 90 %)",
        "meter / pv   = \($m.pv / $m.meter * 100 | round / 100)x  (goal >= 1.5x)"' "$tmp/h.json"
done
