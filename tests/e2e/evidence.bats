#!/usr/bin/env bats
# Answers that use every piece of evidence (report/model_evidence.h): a
# compute family whose times tie on a busy machine while its exact counts
# differ (tests/fixtures/results/counts-tie.json: chacha20/ref by gcc and
# clang at -O2, nine paired rounds 30 % apart, callgrind counts 129.6 and
# 137.0 instructions a byte).

load helpers

FIX="$REPO/tests/fixtures/results/counts-tie.json"

answer() { # RESULTS.json: the first answer as JSON
    "$FLAGBENCH" tables --format json "$1" | jq -c '.families[0].answers[0]'
}

@test "time ties, counts differ: the answer gives both, and the time a decision would take" {
    a=$(answer "$FIX")
    echo "$a"
    [ "$(jq -r .verdict <<<"$a")" = inconclusive ]
    [[ "$(jq -r .evidence <<<"$a")" == "by instructions (exact): gcc/-O2/native runs 5.4 % fewer than clang/-O2/native; time could not decide (its interval reaches "*" % from the ratio): to reach 3 % would take about "*" runs a cell, "* ]]
    jq -e '.count_ratio > 0.945 and .count_ratio < 0.947 and .counts_disagree == false' <<<"$a"
    # 9 rounds at a half-width of ~39 %: (39/3)^2 x 9 runs of ~0.09 s, some 2 minutes a cell
    jq -e '.need_s_per_cell > 60 and .need_s_per_cell < 300' <<<"$a"
    # the sentence the run prints carries it too
    "$FLAGBENCH" tables --format json "$FIX" | jq -e '.families[0].answer[0] | test("by instructions \\(exact\\): gcc/-O2/native runs 5.4 % fewer")'
}

@test "a real lead by time for the build with more instructions: time and counts disagree, and no time is asked for" {
    d="$BATS_TEST_TMPDIR/real"
    mkdir -p "$d"
    # clang's runs 0.8 of gcc's in every round: a real lead for clang, which counts more
    jq '(.cells[] | select(.id | test("@gcc")) | .time_s.runs) as $g |
        .cells |= map(if (.id | test("@clang")) then .time_s.runs = ($g | map(. * 0.8)) |
            .time_s.value = ((.time_s.runs | sort)[2]) | .time_s.median = ((.time_s.runs | sort)[4]) else . end)' \
        "$FIX" >"$d/results.json"
    a=$(answer "$d/results.json")
    echo "$a"
    [ "$(jq -r .verdict <<<"$a")" = faster ]
    jq -e '.counts_disagree == true and .need_s_per_cell == null' <<<"$a"
    [[ "$(jq -r .evidence <<<"$a")" == *"time and counts disagree"* ]]
}

@test "no counts and a real lead: nothing is added" {
    d="$BATS_TEST_TMPDIR/plain"
    mkdir -p "$d"
    jq '(.cells[] | select(.id | test("@gcc")) | .time_s.runs) as $g |
        .cells |= map(.counters = null | if (.id | test("@clang")) then .time_s.runs = ($g | map(. * 0.8)) else . end)' \
        "$FIX" >"$d/results.json"
    a=$(answer "$d/results.json")
    echo "$a"
    jq -e '.evidence == null and .count_ratio == null' <<<"$a"
}

@test "flagbench report ends with the answers: the counts beside the time, and the gaps counts tell apart" {
    run "$FLAGBENCH" report --width 0 "$FIX"
    echo "$output"
    [ "$status" -eq 0 ]
    # an inconclusive lead that may turn real says how likely it is (the
    # line wrapped where it may)
    flat=$(tr -s ' \n' '  ' <<<"$output")
    [[ "$flat" == *"over gcc/-O2/native: not a real lead; a second run calls it real about 33 % of the time; by instructions (exact):"* ]]
    # and as data, beside the gaps' own
    "$FLAGBENCH" tables --format json "$FIX" | jq -e '.families[0] | (.answers[0].repeat_chance | . > 0.32 and . < 0.34)
        and ([.gaps[].entries[] | .repeat_chance | type == "number"] | length > 0 and all)
        and ([.gaps[].entries[] | select(.verdict != "faster" and .verdict != "slower") | .repeat_unsure] | length > 0 and all(. == false))'
    [[ "$output" == *"where time found no real gap, the exact counts differ"* ]]
    [[ "$output" == *"clang against gcc by instructions: 0.95x ref"* ]]
    d="$BATS_TEST_TMPDIR/nocounts"
    mkdir -p "$d"
    jq '.cells |= map(.counters = null)' "$FIX" >"$d/results.json"
    run "$FLAGBENCH" report --width 0 "$d"
    [ "$status" -eq 0 ]
    [[ "$output" != *"by instructions"* ]]
    # the answers are terminal text: a report in another format stays that format
    "$FLAGBENCH" report --format json "$FIX" | jq -e '.families[0].answers | length > 0'
}

@test "counts asked for and not had: the answer says why, never silent" {
    d="$BATS_TEST_TMPDIR/skipped"
    mkdir -p "$d"
    jq '.cells |= map(.counters = {"skipped": "valgrind cannot run this build'"'"'s instructions (-march=native)"})' "$FIX" >"$d/results.json"
    a=$(answer "$d/results.json")
    echo "$a"
    [[ "$(jq -r .evidence <<<"$a")" == "no exact counts: valgrind cannot run this build's instructions (-march=native); time could not decide"* ]]
}

@test "a lead at its interval's edge says it may not repeat: the answer, the family's line, the gaps and the page" {
    # 1.03x over runs that spread 2 % each way (tests/fixtures/results/edge-lead.json), beside a 2x lead
    d="$BATS_TEST_TMPDIR/edge"
    mkdir -p "$d"
    cp "$REPO/tests/fixtures/results/edge-lead.json" "$d/results.json"
    run "$FLAGBENCH" report --width 120 "$d"
    echo "$output"
    [ "$status" -eq 0 ]
    grep -qxF 'g: gcc fastest for 2 of 2 variants, -O3/native for 2 of 2; 2 of these 2 leads are real, 1 of them may not repeat' <<<"$output"
    flat=$(tr -s ' \n' '  ' <<<"$output")
    [[ "$flat" == *"over gcc/-O2/native: a real lead; a second run calls it real about 54 % of the time"* ]]
    grep -qE '^  y +gcc/-O3/native +2\.00x \[[0-9.]+x, [0-9.]+x\] over gcc/-O2/native: a real lead$' <<<"$output"
    grep -qF -- '-O3 against -O2: 2.00x y, 1.03x x (repeats 54'"$(printf '\xc2\xa0')"'%)' <<<"$output"
    command -v gnuplot >/dev/null || skip "gnuplot is not installed (scripts/deps.sh installs it)"
    FLAGBENCH_RENDER_QUIET=1 "$REPO/plots/render.sh" "$d"
    grep -qF '<li><b>-O3 against -O2</b>: 2.00x y, 1.03x x (repeats 54 %)</li>' "$d/index.html"
}
