#!/usr/bin/env bash
# Runs bats files six at a time (most tests wait on timeouts, pauses and
# child processes, so more files than cores keep the machine busy), prints
# each file's TAP as it finishes, and ends with one summary line that CI
# reads: passed, failed, skipped, and the reason of every skip.
#   scripts/run-e2e.sh [-j N] FILE.bats...
# FLAGBENCH is the harness the files test.  A file named in E2E_SAN (a
# space-separated list) tests FLAGBENCH_SAN instead, the ASan/UBSan build:
# the fast tier runs most files on the plain build (an ASan start costs
# about 80 ms of CPU, a third of the fast tier's CPU in all) and a few that
# reach every command's input handling under the sanitizers.
set -u
jobs=6
if [ "${1:-}" = -j ]; then jobs=$2; shift 2; fi
out=$(mktemp -d) || exit 2
trap 'rm -rf "$out"' EXIT
i=0
for f in "$@"; do
    i=$((i + 1))
    # one file per job; at most $jobs at once
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    fb=${FLAGBENCH:-}
    case " ${E2E_SAN:-} " in *" $f "*) fb=${FLAGBENCH_SAN:?E2E_SAN needs FLAGBENCH_SAN} ;; esac
    ( start=$(date +%s)
      FLAGBENCH=$fb bats --tap --print-output-on-failure "$f" >"$out/$i.tap" 2>&1
      echo "$?" >"$out/$i.rc"
      echo "# $f: $(($(date +%s) - start))s" >>"$out/$i.tap"
      cat "$out/$i.tap" ) &
done
wait
pass=0 fail=0 skip=0 rc=0
i=0
for f in "$@"; do
    i=$((i + 1))
    [ "$(cat "$out/$i.rc" 2>/dev/null || echo 1)" = 0 ] || rc=1
    s=$(grep -c '^ok .* # skip' "$out/$i.tap")
    p=$(grep -c '^ok ' "$out/$i.tap")
    n=$(grep -c '^not ok ' "$out/$i.tap")
    pass=$((pass + p - s)); skip=$((skip + s)); fail=$((fail + n))
done
[ -n "${E2E_SAN:-}" ] && echo "under ASan/UBSan: $(printf '%s\n' $E2E_SAN | sed 's|.*/||' | tr '\n' ' ')"
if [ "$skip" -gt 0 ]; then
    echo "skipped:"
    cat "$out"/*.tap | sed -n 's/^ok [0-9]* \(.*\) # skip\(.*\)/  \1:\2/p'
fi
echo "e2e: $pass passed, $fail failed, $skip skipped"
[ "$rc" = 0 ] && [ "$fail" = 0 ]
