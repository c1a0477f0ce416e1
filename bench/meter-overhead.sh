#!/usr/bin/env bash
# The meter's fixed cost per timed run: hyperfine -N times, side by side in
# one run, the bare producer, the floor of any wrapper (a static program
# that only forks, execs and waits: no meter can cost less),
# build/flagbench-meter (stream and --compute mode, what `flagbench run`
# times) and `build/flagbench meter` (the same code inside the whole
# harness).  ROUNDS rounds of RUNS runs each, so that a change of load on a
# shared machine hits every command; per command the median of the round
# medians.  Goal: build/flagbench-meter adds at most 0.1 ms per run.
# Usage: bench/meter-overhead.sh [RUNS] [ROUNDS] [PRODUCER...]  (default 200 15 /bin/true)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-200}
rounds=${2:-15}
prod=("${@:3}")
[ ${#prod[@]} -gt 0 ] || prod=(/bin/true)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s build/flagbench build/flagbench-meter
# the floor, built as the Makefile builds the meter (musl where installed)
printf '%s\n' '#include <sys/wait.h>' '#include <unistd.h>' \
    'int main(int argc, char **argv) {' \
    '	int st = 0; pid_t pid = fork();' \
    '	if (pid == 0) { execvp(argv[1], argv + 1); _exit(127); }' \
    '	if (argc < 2 || pid < 0 || waitpid(pid, &st, 0) < 0) return 127;' \
    '	return WIFEXITED(st) ? WEXITSTATUS(st) : 128; }' > "$tmp/floor.c"
"$(command -v musl-gcc || echo cc)" -O2 -static -o "$tmp/floor" "$tmp/floor.c"
q() { printf '%q ' "$@"; }
p=$(q "${prod[@]}")
names=(bare floor flagbench-meter "flagbench-meter --compute" "flagbench meter")
cmds=("$p" "$tmp/floor $p" "build/flagbench-meter -- $p" "build/flagbench-meter --compute -- $p"
    "build/flagbench meter -- $p")
args=()
for i in "${!cmds[@]}"; do args+=(-n "${names[$i]}" "${cmds[$i]}"); done
echo "== ${prod[*]}: $rounds rounds of $runs runs; build/flagbench-meter $(file -b build/flagbench-meter | grep -o "statically linked" || echo "dynamically linked")"
for r in $(seq "$rounds"); do
    hyperfine -N --warmup 20 --runs "$runs" --export-json "$tmp/r$r.json" "${args[@]}" >/dev/null 2>&1
done
jq -rs '
  def med: sort | .[length / 2 | floor];
  def ms: . * 1e6 | round / 1000;
  (map(.results) | transpose | map({name: .[0].command, median: (map(.median) | med), min: (map(.min) | min)})) as $c
  | $c[0] as $bare
  | ($c[] | "\(.name)\tmedian \(.median | ms) ms\tmin \(.min | ms) ms" +
      (if .name == "bare" then "" else "\t+\((.median - $bare.median) | ms) ms per run\t(min to min +\((.min - $bare.min) | ms) ms)" end))
' "$tmp"/r*.json | column -t -s $'\t'
jq -rs '
  (map(.results) | transpose | map(map(.median) | sort | .[length / 2 | floor])) as $m
  | "goal: build/flagbench-meter adds at most 0.1 ms per run: \(if $m[2] - $m[0] <= 0.0001 then "met" else "not met" end)" +
    " (+\(($m[2] - $m[0]) * 1e6 | round / 1000) ms; the floor of any wrapper here: +\(($m[1] - $m[0]) * 1e6 | round / 1000) ms)"
' "$tmp"/r*.json
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cpus"
