#!/usr/bin/env bats
# Intervals that say their level, precision by default, the cooldown before
# each cell, and bench/repeatability.sh: all with the mock executor
# (--dry-run), so nothing here depends on compilers, sensors or timing.

load helpers

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
    run "$FLAGBENCH" run --dry-run --no-render --suite smoke --runs 3 --statistic median --out "$out"
    [ "$status" -eq 0 ]
    r="$out/results.json"
    jqr "([$measured] | length > 0) and all($measured; (.time_s.runs | length) == 3 and .time_s.ci_level == 0.75 and .time_s.ci95_percent == null
        and .time_s.ci95 == null and .time_s.ci != null and .precision == null)" "$r"
    jqr "([$measured] | length > 0) and all($measured; .time_s.rerun_level == 0.6 and .time_s.rerun == .time_s.ci)" "$r"
    jqr "([$measured | .throughput_Bps] | length > 0) and all($measured | .throughput_Bps; .ci95 == null and .ci.level == 0.75 and .rerun.level == 0.6)" "$r"
    # the tables print the rerun interval: 3 runs hold a rerun's median 60 % of the time
    run "$FLAGBENCH" tables --format md "$out"
    [ "$status" -eq 0 ]
    grep -qF '(60%) |' <<<"$output"
    grep -qF "(83%) after a ±: too few runs for 95 %" <<<"$output"
    # no interval of a speedup without 95 % on both sides (nor ever a ± of a ratio)
    refute grep -qE '[0-9]x (±|\[)' <<<"$output"
    # the same in csv and json
    run "$FLAGBENCH" tables --format csv "$out"
    [ "$status" -eq 0 ]
    grep -qF ',0.6,' <<<"$output"
    run "$FLAGBENCH" tables --format json "$out"
    [ "$status" -eq 0 ]
    jq -e '[.families[].tables[] | select(.name == "throughput") | .rows[].cells[] | select(.state == "ok")]
        | length > 0 and all((.ci_level - 0.6 | fabs) < 1e-9 and .ci95_percent == null)' <<<"$output"
}

@test "the statistic: p25 by default, its order statistic and exact levels; --statistic median|min|pNN; bad names exit 2" {
    out="$BATS_TEST_TMPDIR/r"
    run "$FLAGBENCH" run --dry-run --no-render --suite smoke --runs 3 --out "$out"
    [ "$status" -eq 0 ]
    r="$out/results.json"
    jqr '.run.statistic == "p25"' "$r"
    # p25 of 3 runs is the fastest (rank ceil(0.75) = 1): the interval of the
    # true quartile misses when all 3 runs lie above it (0.75^3) or all below
    # (0.25^3): 1 - 0.421875 - 0.015625 = 0.5625
    jqr "([$measured] | length > 0) and all($measured; .time_s.statistic == \"p25\" and .time_s.value == (.time_s.runs | min)
        and (.time_s.ci_level - 0.5625 | fabs) < 1e-9 and .time_s.rerun_level < 0.5
        and .throughput_Bps.statistic == \"p25\" and (.throughput_Bps.value - .bytes / .time_s.value | fabs) < 1e-3 * .throughput_Bps.value
        and .throughput_Bps.median <= .throughput_Bps.value)" "$r"
    run "$FLAGBENCH" tables --format md "$out"
    [ "$status" -eq 0 ]
    grep -qF 'throughput, lower quartile (p25)' <<<"$output"
    grep -qF 'from the lower quartile (p25) of the timed runs' <<<"$output"
    # 20 runs: X(5), and a rerun interval that reaches 95 % (stats.h: p25 needs 13)
    run "$FLAGBENCH" run --dry-run --no-render --suite smoke --runs 20 --out "$BATS_TEST_TMPDIR/r20"
    [ "$status" -eq 0 ]
    jqr "([$measured] | length > 0) and all($measured; .time_s.value == (.time_s.runs | sort | .[4]) and .time_s.rerun_level >= 0.95
        and .time_s.rerun[0] <= .time_s.value and .time_s.value <= .time_s.rerun[1])" "$BATS_TEST_TMPDIR/r20/results.json"
    # the default precision target takes at least the 13 runs p25 needs
    run "$FLAGBENCH" run --dry-run --no-render --suite smoke --out "$BATS_TEST_TMPDIR/rp"
    [ "$status" -eq 0 ]
    jqr "([$measured] | length > 0) and all($measured; (.time_s.runs | length) >= 13 and .time_s.rerun_level >= 0.95 and .precision.status == \"reached\")" "$BATS_TEST_TMPDIR/rp/results.json"
    for s in median min p10 p12.5; do
        run "$FLAGBENCH" run --dry-run --no-render --suite smoke --runs 8 --statistic "$s" --out "$BATS_TEST_TMPDIR/$s"
        [ "$status" -eq 0 ]
        jqr ".run.statistic == \"$s\" and ([$measured] | length > 0) and all($measured; .time_s.statistic == \"$s\")" "$BATS_TEST_TMPDIR/$s/results.json"
    done
    jqr "([$measured] | length > 0) and all($measured; .time_s.value == .time_s.median)" "$BATS_TEST_TMPDIR/median/results.json"
    jqr "([$measured] | length > 0) and all($measured; .time_s.value == .time_s.min and .time_s.rerun_level < 0.6)" "$BATS_TEST_TMPDIR/min/results.json"
    jqr "([$measured] | length > 0) and all($measured; .time_s.value == (.time_s.runs | min))" "$BATS_TEST_TMPDIR/p10/results.json"
    # a resumed run keeps the statistic its journal was measured with
    run "$FLAGBENCH" run --dry-run --no-render --suite smoke --runs 3 --statistic median --resume "$out"
    [ "$status" -eq 2 ]
    [[ "$output" == *"cannot resume"*"it reports the p25"* ]]
    # a run older than run.statistic reported the median
    cp -r "$out" "$BATS_TEST_TMPDIR/old"
    jq 'del(.run.statistic)' "$out/results.json" > "$BATS_TEST_TMPDIR/old/results.json"
    run "$FLAGBENCH" run --dry-run --no-render --suite smoke --runs 3 --resume "$BATS_TEST_TMPDIR/old"
    [ "$status" -eq 2 ]
    [[ "$output" == *"it reports the median (--resume "*" --statistic median)"* ]]
    for bad in p0 p100 p-5 pp25 mean p25x ""; do
        run "$FLAGBENCH" run --dry-run --suite smoke --statistic "$bad"
        [ "$status" -eq 2 ]
        [[ "$output" == *"--statistic must be median, min or pNN"* ]]
    done
    run "$FLAGBENCH" compare --statistic mean "$out" "$out"
    [ "$status" -eq 2 ]
}

@test "a slow cell overruns its budget up to 4 times for the runs a 95 % interval needs, no further" {
    out="$BATS_TEST_TMPDIR/r"
    # the dry run spends its made-up times (0.11 to 0.27 s a run): 13 runs of
    # the fast cells fit in 4 x 0.5 s, the slow ones stop when 2 s are spent
    run "$FLAGBENCH" run --dry-run --no-render --suite smoke --cell-budget 0.5 --out "$out"
    [ "$status" -eq 0 ]
    r="$out/results.json"
    jqr "([$measured] | length > 0) and all($measured; .precision.spent_s <= 2 + .time_s.max and .precision.budget_s == 0.5)" "$r"
    jqr "([$measured] | length > 0) and all($measured; (.time_s.runs | length) >= 13 or .precision.spent_s >= 2)" "$r"
    jqr "[$measured | select((.time_s.runs | length) >= 13 and .precision.spent_s > 0.5)] | length > 0" "$r"
    jqr "[$measured | select((.time_s.runs | length) < 13)] | length > 0" "$r"
    # a budget ample for both: every cell stops at the 13 runs p25 needs, its target reached
    run "$FLAGBENCH" run --dry-run --no-render --suite smoke --cell-budget 10 --out "$BATS_TEST_TMPDIR/r10"
    [ "$status" -eq 0 ]
    jqr "([$measured] | length > 0) and all($measured; (.time_s.runs | length) == 13 and .precision.status == \"reached\")" "$BATS_TEST_TMPDIR/r10/results.json"
}

@test "the machine's drift over the rounds: recorded in run.drift, added to every ± of the tables, not to ratios" {
    out="$BATS_TEST_TMPDIR/r"
    # the quick suite's yes family: 25 cells (all 139 take the ASan build 5 times as long)
    run "$FLAGBENCH" run --dry-run --no-render --suite quick --only 'yes/*' --runs 8 --out "$out"
    [ "$status" -eq 0 ]
    r="$out/results.json"
    jqr '.run.drift.rounds == 8 and .run.drift.cells > 10 and (.run.drift.sd_percent | type) == "number" and .run.drift.why == null' "$r"
    # 9 cells are too few for the machine's speed in a round
    run "$FLAGBENCH" run --dry-run --no-render --suite smoke --runs 8 --out "$BATS_TEST_TMPDIR/few"
    [ "$status" -eq 0 ]
    jqr '.run.drift.sd_percent == null and .run.drift.cells == 9 and (.run.drift.why | startswith("fewer than 5 rounds"))' "$BATS_TEST_TMPDIR/few/results.json"
    # back to back, there are no rounds to compare
    run "$FLAGBENCH" run --dry-run --no-render --suite quick --only 'yes/*' --runs 8 --order sequential --out "$BATS_TEST_TMPDIR/s"
    [ "$status" -eq 0 ]
    jqr '.run.drift.sd_percent == null and (.run.drift.why | startswith("--order sequential"))' "$BATS_TEST_TMPDIR/s/results.json"
    # a drift of 1 %: each rerun interval widened by exp(2 x 0.01) on both sides
    jq '.run.drift.sd_percent = 1' "$r" > "$BATS_TEST_TMPDIR/d.json"
    jq '.run.drift.sd_percent = 0' "$r" > "$BATS_TEST_TMPDIR/none.json"
    "$FLAGBENCH" tables --format json "$BATS_TEST_TMPDIR/none.json" > "$BATS_TEST_TMPDIR/plain.json"
    run "$FLAGBENCH" tables --format json "$BATS_TEST_TMPDIR/d.json"
    [ "$status" -eq 0 ]
    jq -e --slurpfile p "$BATS_TEST_TMPDIR/plain.json" '$p[0] as $p | [.families[].tables[] | select(.name == "throughput") | .rows[].cells[] | select(.state == "ok" and .low != null)] as $d
        | [$p.families[].tables[] | select(.name == "throughput") | .rows[].cells[] | select(.state == "ok" and .low != null)] as $q
        | ($d | length) > 0 and ($q | length) == ($d | length)
        and all(range($d | length) as $i | ((($d[$i].low - $q[$i].low / 1.02020134) | fabs) < 1e-6 * $q[$i].low
                                            and (($d[$i].high - $q[$i].high * 1.02020134) | fabs) < 1e-6 * $q[$i].high); .)' <<<"$output"
    # ratios keep theirs: a drift both cells share cancels
    jq -e --slurpfile p "$BATS_TEST_TMPDIR/plain.json" '$p[0] as $p | [.families[].tables[] | select(.name != "throughput") | .rows[].cells[].low] == [$p.families[].tables[] | select(.name != "throughput") | .rows[].cells[].low]' <<<"$output"
    run "$FLAGBENCH" tables "$BATS_TEST_TMPDIR/d.json"
    [ "$status" -eq 0 ]
    grep -qF "± includes the machine's drift over the run, 2.0 % either way" <<<"$output"
    run "$FLAGBENCH" tables "$BATS_TEST_TMPDIR/none.json"
    [ "$status" -eq 0 ]
    refute grep -qF "machine's drift" <<<"$output"
}

@test "a precision target out of reach: --max-runs ends it, the cell is marked §" {
    out="$BATS_TEST_TMPDIR/r"
    run "$FLAGBENCH" run --dry-run --no-render --suite smoke --precision 0.01 --max-runs 8 --out "$out"
    [ "$status" -eq 0 ]
    r="$out/results.json"
    jqr "([$measured] | length > 0) and all($measured; (.time_s.runs | length) == 8 and .precision.status == \"not_reached\")" "$r"
    run "$FLAGBENCH" tables "$out"
    [ "$status" -eq 0 ]
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
        jqr "([$measured] | length > 0) and all($measured; (.details.cooldown | length) == 1 and .details.cooldown[0].waited_s >= 2)" "$r"
        jqr "([$measured | .details.cooldown[].waited_s] | add) as \$w | .run.phases.cooldown_s - \$w | fabs < 1e-6" "$r"
        # the pause as taken, for compare --confirm: the profile's with --cooldown applied
        jqr '.run.cooldown | .seconds == 2 and .override == true and .max_wait_seconds == 120 and .below_celsius == 50' "$r"
    done
    run "$FLAGBENCH" run --dry-run --no-render --cpu J4205 --suite smoke --out "$BATS_TEST_TMPDIR/profile"
    [ "$status" -eq 0 ]
    jqr '.run.cooldown | .seconds == 10 and .override == false' "$BATS_TEST_TMPDIR/profile/results.json"
}

@test "bench/repeatability.sh: two runs compared, the share that held" {
    command -v jq >/dev/null || skip "jq is not installed"
    run env FLAGBENCH="$FLAGBENCH" REPEAT_OUT="$BATS_TEST_TMPDIR/rep" "$REPO/bench/repeatability.sh" --dry-run --suite smoke
    [ "$status" -eq 0 ]
    grep -qE '^cells measured in both runs: [0-9]+$' <<<"$output"
    # the mock executor repeats itself exactly
    grep -qE '^within 5 %: [0-9]+ \(100 %\)$' <<<"$output"
    grep -qE '^run-1 intervals holding run 2 figure: [0-9]+ \(100 %\)$' <<<"$output"
    grep -qxF 'statistic: p25 in run 1, p25 in run 2' <<<"$output"
    grep -qF 'worst cells' <<<"$output"
}
