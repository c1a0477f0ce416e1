#!/usr/bin/env bats
# The slow tier of compare.bats: --confirm with two suspects at once, each
# confirmed at the Bonferroni level of the alarm rate (the level itself is
# unit-tested in tests/unit/test_compare.c, one suspect end to end in
# tests/e2e/compare.bats).  Four real runs and 40 confirming runs.

load ../e2e/helpers

@test "--confirm with several suspects: each at the Bonferroni level of the alarm rate, paired over its rounds" {
    command -v hyperfine >/dev/null || skip "hyperfine is not installed"
    abwork_root "$BATS_TEST_TMPDIR/r0" 0
    abwork_root "$BATS_TEST_TMPDIR/r1" 300
    # both cells (-O1 and -O2) do four times the work: two suspects, m = 2
    FLAGBENCH_ROOT="$BATS_TEST_TMPDIR/r0" "$FLAGBENCH" run --suite ab --out "$BATS_TEST_TMPDIR/a" \
        --cache "$BATS_TEST_TMPDIR/cache" --precision 0 --no-counters --no-render >/dev/null 2>&1
    FLAGBENCH_ROOT="$BATS_TEST_TMPDIR/r1" "$FLAGBENCH" run --suite ab --out "$BATS_TEST_TMPDIR/b" \
        --cache "$BATS_TEST_TMPDIR/cache" --precision 0 --no-counters --no-render >/dev/null 2>&1
    FLAGBENCH_ROOT="$BATS_TEST_TMPDIR/r0" run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b" \
        --confirm 10 --alarm-rate 2 --format json
    [ "$status" -eq 1 ]
    printf '%s\n' "$output" | sed -n '/^{/,$p' > "$BATS_TEST_TMPDIR/c.json"
    # 1 - 2 * 0.02 / 2 = 98 % each: 10 pairs reach it (99.8 %)
    jqr '.confirmation | .cells == 2 and ((.level - 0.98) | . < 1e-12 and . > -1e-12)' "$BATS_TEST_TMPDIR/c.json"
    jqr '[.cells[] | select(.confirm) | .confirm.level == 0.98 and .confirm.rounds == 10 and .verdict == "slower"
          and (.note | test("^confirmed after 10 interleaved rounds: .* at 98 %$"))] == [true, true]' "$BATS_TEST_TMPDIR/c.json"
}
