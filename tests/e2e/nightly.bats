#!/usr/bin/env bats
# ci/nightly.sh end to end in dry mode (mock executor, the smoke suite): the
# first night stores the baseline, the next compares with it and writes the
# job summary, a doctored baseline makes it fail; the workflows are linted.

load helpers

setup() {
    export NIGHTLY_DRY=1 NIGHTLY_SUITE=smoke
    export NIGHTLY_OUT="$BATS_TEST_TMPDIR/run" NIGHTLY_BASELINES="$BATS_TEST_TMPDIR/baselines"
    export GITHUB_STEP_SUMMARY="$BATS_TEST_TMPDIR/summary.md"
    export FLAGBENCH
}

@test "nightly dry run: no baseline, then the baseline, then a regression" {
    run "$REPO/ci/nightly.sh" host
    [ "$status" -eq 0 ]
    grep -q "no baseline nightly for cpu profile host yet" "$GITHUB_STEP_SUMMARY"
    jqr '.status == "no_baseline" and .metric == "time" and .run_exit == 0' "$NIGHTLY_OUT/nightly.json"
    [ ! -e "$NIGHTLY_BASELINES/host/nightly" ]

    NIGHTLY_SAVE=1 run "$REPO/ci/nightly.sh" host
    [ "$status" -eq 0 ]
    [ -f "$NIGHTLY_BASELINES/host/nightly/results.json" ]

    : > "$GITHUB_STEP_SUMMARY"
    run "$REPO/ci/nightly.sh" host
    [ "$status" -eq 0 ]
    grep -q '^## nightly host (time gate)' "$GITHUB_STEP_SUMMARY"
    grep -q '^| cell | base | new | new/base | 95 % interval | verdict | note |' "$GITHUB_STEP_SUMMARY"
    grep -q '9 cells: 9 same, 0 slower' "$GITHUB_STEP_SUMMARY"
    jqr '.status == "passed" and .compare_exit == 0' "$NIGHTLY_OUT/nightly.json"
    jqr '.counts.same == 9' "$NIGHTLY_OUT/compare.json"

    # a baseline twice as fast on one cell: tonight that cell is slower
    b="$NIGHTLY_BASELINES/host/nightly/results.json"
    jq '(.cells[] | select(.id == "yes/buf@gcc/-O2/native") | .time_s.runs) |= map(. / 2)' "$b" > "$b.new"
    mv "$b.new" "$b"
    before=$(sha256sum < "$b")
    : > "$GITHUB_STEP_SUMMARY"
    NIGHTLY_SAVE=1 run "$REPO/ci/nightly.sh" host
    [ "$status" -eq 1 ]
    grep -q '`yes/buf@gcc/-O2/native` .* \*\*slower\*\*' "$GITHUB_STEP_SUMMARY"
    jqr '.status == "slower" and .compare_exit == 1' "$NIGHTLY_OUT/nightly.json"
    # a failing night never becomes the baseline
    [ "$(sha256sum < "$b")" = "$before" ]
}

@test "nightly: bad usage exits 2" {
    run "$REPO/ci/nightly.sh"
    [ "$status" -eq 2 ]
    NIGHTLY_METRIC=wall run "$REPO/ci/nightly.sh" host
    [ "$status" -eq 2 ]
    run "$REPO/ci/nightly.sh" no-such-profile
    [ "$status" -eq 2 ]
}

@test "the nightly suite is valid and small" {
    run "$FLAGBENCH" run --suite nightly --dry-run --out "$BATS_TEST_TMPDIR/plan"
    [ "$status" -eq 0 ]
    jqr '(.cells | length) <= 16 and all(.cells[]; .status == "ok")' "$BATS_TEST_TMPDIR/plan/results.json"
}
