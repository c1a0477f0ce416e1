#!/usr/bin/env bats
# A run whose paired ratios shift between its first and second half of
# rounds (results/ratio_drift.h): the between-run spread its own rounds
# show is added to every ratio's interval, and the legend says so.
# Fixtures: tests/fixtures/results/drift-steady.json (chacha20 ref and
# rotate, four builds, 16 rounds, ratios steady to 0.3 %) and
# drift-halves.json (the same, every ratio 8 % apart between the halves).

load helpers

FIX="$REPO/tests/fixtures/results"

width() { # FIXTURE VARIANT CONFIG: high - low of the against table's cell
    "$FLAGBENCH" tables --format json "$FIX/$1.json" --table against |
        jq --arg v "$2" --arg c "$3" '.families[0].tables[0] | (.columns | index($c)) as $i
            | .rows[] | select(.label == $v) | .cells[$i] | .high - .low'
}

@test "ratios that drift between the halves of a run get intervals as wide as the drift" {
    d=$("$FLAGBENCH" tables --format json "$FIX/drift-halves.json" | jq '.runs[0].ratio_drift_percent')
    echo "drift $d"
    # every ratio 8 % apart: a random shift of sd 8.4 % fits that median best
    jq -ne "$d > 7 and $d < 9"
    steady=$(width drift-steady ref gcc/-O3/x86-64-v2)
    halves=$(width drift-halves ref gcc/-O3/x86-64-v2)
    echo "steady $steady halves $halves"
    # 2 x 1.96 x 8.4 % of 1.3x at least, where the steady run's is a hundredth of that
    jq -ne "$halves > 0.25 and $steady < 0.05"
    run "$FLAGBENCH" tables --width 0 "$FIX/drift-halves.json" --table against
    [[ "$output" == *"Each interval includes the drift of the run's paired ratios between its first and second half of rounds, beyond their noise (sd 8."* ]]
}

@test "steady ratios: no drift added, no word of it" {
    d=$("$FLAGBENCH" tables --format json "$FIX/drift-steady.json" | jq '.runs[0].ratio_drift_percent')
    jq -ne "$d == 0"
    run "$FLAGBENCH" tables --width 0 "$FIX/drift-steady.json" --table against
    [[ "$output" == *"1.299x [1.299x, 1.299x]"* ]]
    refute grep -qF "drift of the run's paired ratios" <<<"$output"
}
