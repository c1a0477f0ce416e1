#!/usr/bin/env bash
# Issue 30's goals for a real program of some weight: variants-projects/sqlite
# (SQLite's speedtest1 linked with the 244,000-line amalgamation sqlite3.c, from
# the Debian source package sqlite3) run alone by `flagbench run` from a fresh
# build cache, at the projects suite's size and the default matrix (gcc and
# clang at -O2, -O3 and -Os, every -march of the profile).  Every line of the
# run's output (stdout and stderr) is stamped as it comes; the script prints
# the time to the answer (the line "the answers: ..."), the whole run's time,
# its phases (results.json run.phases), and the longest silence: the most
# seconds without a line, from the start to the end.
# Goals: the answer within 5 minutes, no silence longer than 10 s.
# Usage: bench/real_program.sh [OPTIONS...]   (passed to flagbench run: --cpu, -j, ...)
# The run folder and the stamped log are kept (their paths are printed last);
# the build cache is removed.  Exit 1 when a goal is missed or the run failed.
set -euo pipefail
cd "$(dirname "$0")/.."
make -s build/flagbench build/flagbench-meter
scripts/project-sources.sh sqlite || { echo "real_program: the source package sqlite3 could not be fetched" >&2; exit 2; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/flagbench-real-program.XXXXXX")
trap 'rm -rf "$dir/cache"' EXIT
jq --arg fams "$PWD/variants-projects" \
    '.name = "real-program" | .title = "sqlite alone, the default matrix"
     | .family_dirs = [$fams] | .variants = ["sqlite/*"]
     | .compilers = ["gcc", "clang"] | .opt = ["-O2", "-O3", "-Os"] | .march = "profile"
     | .sizes = {"sqlite": .sizes.sqlite}' configs/suites/projects.json >"$dir/suite.json"

start=$EPOCHREALTIME
set +e
build/flagbench run --suite "$dir/suite.json" --cache "$dir/cache" -o "$dir/run" "$@" 2>&1 |
    while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "$line"; done >"$dir/log"
status=${PIPESTATUS[0]}
set -e
end=$EPOCHREALTIME

# the time to the answer, and the longest gap between lines (the start and the
# end count as lines), with the line that ended it
read -r answer total gap after < <(awk -v s="$start" -v e="$end" '
    { t = $1 + 0; if (t - prev > gap) { gap = t - prev; after = NR } prev = t
      if (!answer && index($0, " the answers: ")) answer = t - s }
    BEGIN { prev = s + 0 }
    END { if (e - prev > gap) { gap = e - prev; after = "end" }
          printf "%.1f %.1f %.1f %s\n", (answer ? answer : -1), e - s, gap, after }' "$dir/log")
echo "real_program: sqlite alone, $(jq -r '[.cells[] | .status] | group_by(.) | map("\(length) \(.[0])") | join(", ")' "$dir/run/results.json" 2>/dev/null || echo "no results") (flagbench exit $status)"
if [ "$answer" = "-1.0" ]; then
    echo "  time to the answer: no answer in the output"
else
    echo "  time to the answer: ${answer} s (goal: 300 s at most)"
fi
echo "  whole run: ${total} s; phases: $(jq -r '.run.phases | to_entries | map("\(.key) \(.value * 10 | round / 10)") | join(", ")' "$dir/run/results.json" 2>/dev/null || echo "none")"
if [ "$after" = end ]; then
    echo "  longest silence: ${gap} s, before the end (goal: 10 s at most)"
else
    echo "  longest silence: ${gap} s, before: $(sed -n "${after}p" "$dir/log" | cut -d' ' -f2- | cut -c1-100) (goal: 10 s at most)"
fi
echo "  log: $dir/log  run: $dir/run"
ok=1
[ "$status" -eq 0 ] || ok=0
[ "$answer" != "-1.0" ] && awk -v a="$answer" 'BEGIN { exit !(a <= 300) }' || ok=0
awk -v g="$gap" 'BEGIN { exit !(g <= 10) }' || ok=0
[ "$ok" = 1 ]
