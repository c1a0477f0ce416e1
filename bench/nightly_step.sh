#!/usr/bin/env bash
# bench/nightly_step.sh [NIGHTS (8)] [STEP_NIGHT (5)]: real nights of the
# nightly, back to back, with a step the bench knows: from night STEP_NIGHT
# on, bignum/fp_mul does 5 % more work (one more field multiplication after
# every 20th, into a number it throws away; its output stays right; the
# 20th, not the first, so that instruction counts, which difference two
# small sizes to cancel start-up, see it: at 5 and 20 operations the extra
# one falls between them).  Each night
# is ci/nightly.sh on a copy of the project (FLAGBENCH_ROOT points the
# harness at it), with its history, baselines and confirmation, as a
# self-hosted machine runs it (the time gate); then every night's history
# is asked, as the nightly asks it, which change points land on that night,
# by time and by instruction counts, and the whole history's change points
# are listed.  Goal (issue 32): the step found at night STEP_NIGHT or the
# one after, attributed to the binary, and no other change point.
#   STEP_OUT=dir (default a new /tmp folder)  STEP_ANALYZE=1 (only the
#   analysis, of STEP_OUT's night1..N already there)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd -P) || exit 2
nights=${1:-8}
at=${2:-5}
out=${STEP_OUT:-$(mktemp -d /tmp/flagbench-nightly-step.XXXXXX)}
fb=$root/build/flagbench
command -v jq >/dev/null || { echo "flagbench: nightly_step.sh needs jq" >&2; exit 2; }
make -C "$root" -s build/flagbench build/flagbench-meter || exit 2
mkdir -p "$out" || exit 2

if [ "${STEP_ANALYZE:-0}" != 1 ]; then
    copy=$out/project
    rm -rf "$copy" "$out/history.db" "$out/baselines"
    mkdir -p "$copy"
    (cd "$root" && git ls-files -z | xargs -0 cp --parents -t "$copy") || exit 2
    for n in $(seq 1 "$nights"); do
        if [ "$n" = "$at" ]; then
            src=$copy/variants/bignum/fp_mul.c
            python3 - "$src" <<'PY' || exit 2
import sys
p = sys.argv[1]
s = open(p).read()
old = "\t\tmpz_clear(z);\n\t}\n"
assert old in s, "fp_mul.c: the loop's end moved"
s = s.replace(old, "\t\tmpz_clear(z);\n\t\tif (i % 20 == 19) {\n\t\t\tmpz_t w;\n\t\t\tmpz_init(w);\n"
              "\t\t\tfp_mul(w, x, y);\n\t\t\tmpz_clear(w);\n\t\t}\n\t}\n", 1)
open(p, "w").write(s)
PY
        fi
        t0=$(date +%s)
        FLAGBENCH_ROOT=$copy FLAGBENCH=$fb NIGHTLY_SAVE=1 NIGHTLY_METRIC=time NIGHTLY_OUT=$out/night$n \
            NIGHTLY_HISTORY=$out/history.db NIGHTLY_BASELINES=$out/baselines \
            "$copy/ci/nightly.sh" host >"$out/night$n.out" 2>"$out/night$n.err"
        rc=$?
        echo "night $n: exit $rc ($(jq -r .status "$out/night$n/nightly.json" 2>/dev/null)), $(($(date +%s) - t0)) s"
    done
fi

# each night as the nightly saw it: the change points that land on it
db=$out/prefix.db
rm -f "$db"
for n in $(seq 1 "$nights"); do
    [ -f "$out/night$n/results.json" ] || { echo "night $n: no results.json in $out/night$n" >&2; exit 2; }
    "$fb" history import --db "$db" "$out/night$n" >/dev/null 2>&1 || exit 2
    id=$(jq -r .run.id "$out/night$n/results.json")
    for m in time instructions; do
        "$fb" history changes --db "$db" --metric "$m" --format json >"$out/changes-$n-$m.json" 2>/dev/null
        jq -r --arg id "$id" --arg n "$n" --arg m "$m" '
          [.changes[] | select(.night == $id)] as $c
          | "night \($n), \($m): \($c | length) change point(s) on this night\(if ($c | length) > 0 then ": " + ($c | map("\(.cell) \(.ratio * 1000 | round / 1000)x [\(.ci95[0] * 1000 | round / 1000), \(.ci95[1] * 1000 | round / 1000)] \(.direction); \(.cause.text)") | join("; ")) else "" end)"' \
            "$out/changes-$n-$m.json"
    done
done
for m in time instructions; do
    echo "== the whole history by $m"
    "$fb" history changes --db "$db" --metric "$m"
done
echo "== how well a night is known (bignum/fp_mul, gcc)"
"$fb" history show --db "$db" 'bignum/fp_mul@gcc/-O2/default' | head -2
