#!/usr/bin/env bats
# Intervals that say their level, precision by default, the cooldown before
# each cell, and bench/repeatability.sh: all with the mock executor
# (--dry-run), so nothing here depends on compilers, sensors or timing.

load helpers

refute() {
    if "$@"; then
        echo "unexpected success: $*"
        return 1
    fi
}

measured='.cells[] | select(.status == "ok" and .same_binary_as == null)'

@test "default: runs until the 95 % rerun interval is within 3 %, its level and the target recorded" {
    out="$BATS_TEST_TMPDIR/r"
    run "$FLAGBENCH" run --dry-run --no-render --suite smoke --out "$out"
    [ "$status" -eq 0 ]
    r="$out/results.json"
    jqr "[$measured] | length > 0" "$r"
    jqr "all($measured; (.time_s.runs | length) >= 9 and .time_s.ci_level >= 0.95
        and .time_s.ci95[0] != null and .time_s.ci95_percent == .time_s.ci_percent
        and .time_s.rerun_level >= 0.95 and .time_s.rerun_percent <= 3
        and .time_s.rerun[0] <= .time_s.ci[0] and .time_s.rerun[1] >= .time_s.ci[1]
        and .precision.status == \"reached\" and .precision.target_percent == 3)" "$r"
}

@test "--runs alone: exactly that many, the level it reaches, never called 95 %" {
    out="$BATS_TEST_TMPDIR/r"
    run "$FLAGBENCH" run --dry-run --no-render --suite smoke --runs 3 --out "$out"
    [ "$status" -eq 0 ]
    r="$out/results.json"
    jqr "all($measured; (.time_s.runs | length) == 3 and .time_s.ci_level == 0.75 and .time_s.ci95_percent == null
        and .time_s.ci95 == [null, null] and .time_s.ci != null and .precision == null)" "$r"
    jqr "all($measured; .time_s.rerun_level == 0.6 and .time_s.rerun == .time_s.ci)" "$r"
    jqr "all($measured | .throughput_Bps; .ci95 == null and .ci.level == 0.75 and .rerun.level == 0.6)" "$r"
    # the tables print the rerun interval: 3 runs hold a rerun's median 60 % of the time
    run "$FLAGBENCH" tables --format md "$out"
    [ "$status" -eq 0 ]
    grep -qF '(60%) |' <<<"$output"
    grep -qF "(83%) after a ±: too few runs for 95 %" <<<"$output"
    # no interval of a speedup without 95 % on both sides
    refute grep -qE '[0-9]x ±' <<<"$output"
    # the same in csv and json
    run "$FLAGBENCH" tables --format csv "$out"
    grep -qF ',0.6,' <<<"$output"
    run "$FLAGBENCH" tables --format json "$out"
    jq -e '[.families[].tables[] | select(.name == "throughput") | .rows[].cells[] | select(.state == "ok")]
        | all((.ci_level - 0.6 | fabs) < 1e-9 and .ci95_percent == null)' <<<"$output"
}

@test "a precision target out of reach: --max-runs ends it, the cell is marked §" {
    out="$BATS_TEST_TMPDIR/r"
    run "$FLAGBENCH" run --dry-run --no-render --suite smoke --precision 0.01 --max-runs 8 --out "$out"
    [ "$status" -eq 0 ]
    r="$out/results.json"
    jqr "all($measured; (.time_s.runs | length) == 8 and .precision.status == \"not_reached\")" "$r"
    run "$FLAGBENCH" tables "$out"
    grep -qF '§' <<<"$output"
    grep -qF "§ the cell's interval did not reach the run's precision target" <<<"$output"
    run "$FLAGBENCH" run --dry-run --suite smoke --precision 101
    [ "$status" -eq 2 ]
    run "$FLAGBENCH" run --dry-run --suite smoke --order backwards
    [ "$status" -eq 2 ]
}

@test "cooldown: one pause before each measured cell, recorded, counted in the phases" {
    for order in interleave sequential; do
        out="$BATS_TEST_TMPDIR/$order"
        run "$FLAGBENCH" run --dry-run --no-render --cpu J4205 --suite smoke --cooldown 2 --order "$order" --out "$out"
        [ "$status" -eq 0 ]
        r="$out/results.json"
        # --cooldown 2 comes first whether or not the host has sensors
        jqr "all($measured; (.details.cooldown | length) == 1 and .details.cooldown[0].waited_s >= 2)" "$r"
        jqr "([$measured | .details.cooldown[].waited_s] | add) as \$w | .run.phases.cooldown_s - \$w | fabs < 1e-6" "$r"
    done
}

@test "bench/repeatability.sh: two runs compared, the share that held" {
    command -v jq >/dev/null || skip "jq is not installed"
    run env FLAGBENCH="$FLAGBENCH" REPEAT_OUT="$BATS_TEST_TMPDIR/rep" "$REPO/bench/repeatability.sh" --dry-run --suite smoke
    [ "$status" -eq 0 ]
    grep -qE '^cells measured in both runs: [0-9]+$' <<<"$output"
    # the mock executor repeats itself exactly
    grep -qE '^within 5 %: [0-9]+ \(100 %\)$' <<<"$output"
    grep -qE '^run-1 intervals holding run 2 median: [0-9]+ \(100 %\)$' <<<"$output"
    grep -qF 'worst cells' <<<"$output"
}
