#!/usr/bin/env bash
# Runs each cmocka test binary and ends with one summary line that CI reads.
set -u
pass=0 fail=0 skip=0
for t in "$@"; do
    out=$("$t" 2>&1); rc=$?
    printf '%s\n' "$out"
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
    k=$(printf '%s\n' "$out" | sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' | tail -1)
    pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0})); skip=$((skip + ${k:-0}))
    if [ "$rc" != 0 ] && [ -z "$f" ]; then fail=$((fail + 1)); echo "flagbench: $t exited $rc"; fi
done
echo "unit: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
