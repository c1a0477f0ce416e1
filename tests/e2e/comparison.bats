#!/usr/bin/env bats
# The one comparison (analysis/comparison.h) behind every answer and ratio:
# on a run whose cells have rounds, the answer calls a lead real exactly
# when the ratio the tables print for the same pair has an interval that
# excludes 1.00x; a pair within its noise is "not a real lead" (~); two
# byte-identical builds are "the same binary" (≡), never a ratio.
load helpers

setup_file() {
    export RUN="$BATS_FILE_TMPDIR/run"
    "$FLAGBENCH" run --suite smoke --dry-run --no-render --runs 13 --precision 0 -o "$BATS_FILE_TMPDIR/dry" \
        >/dev/null 2>&1
    mkdir -p "$RUN"
    # yes/simple: clang's runs are gcc's within 2 % either way (too close
    # to call); yes/vmsplice_256k: within 0.3 % (the same within 1 %);
    # yes/buf: both builds the same binary; vmsplice as the mock made it
    jq '(.cells | map(select(.id == "yes/simple@gcc/-O2/native"))[0].time_s.runs) as $g
        | (.cells | map(select(.id == "yes/vmsplice_256k@gcc/-O2/native"))[0].time_s.runs) as $vg
        | .cells |= map(
            if .id == "yes/simple@clang/-O2/native" then
                .time_s.runs = [range(0; $g | length) as $i | $g[$i] * (if $i % 2 == 0 then 1.02 else 0.98 end)]
                | .throughput_Bps.value = (.bytes / (.time_s.runs | sort | .[3]))
            elif .id == "yes/simple@gcc/-O2/native" then
                .throughput_Bps.value = (.bytes / (.time_s.runs | sort | .[3]))
            elif .id == "yes/vmsplice_256k@clang/-O2/native" then
                .time_s.runs = [range(0; $vg | length) as $i | $vg[$i] * (if $i % 2 == 0 then 1.003 else 0.997 end)]
                | .throughput_Bps.value = (.bytes / (.time_s.runs | sort | .[3]))
            elif .id == "yes/vmsplice_256k@gcc/-O2/native" then
                .throughput_Bps.value = (.bytes / (.time_s.runs | sort | .[3]))
            elif (.id | startswith("yes/buf@")) then .binary = {"sha256": ("ab" * 32), "bytes": 1000}
            else . end)' "$BATS_FILE_TMPDIR/dry/results.json" > "$RUN/results.json"
}

# "real", "not real" or "same binary", as the answer says of variant V
answer_verdict() {
    local line
    line=$("$FLAGBENCH" tables "$RUN" --format json | jq -r --arg v "yes/$1:" '.families[0].answer[] | select(startswith($v))')
    case "$line" in
    *"(a real lead"*) echo real ;;
    *"(not a real lead"* | *"(the same within 1 %"*) echo "not real" ;;
    *"(the same binary as "*) echo "same binary" ;;
    *) echo "unknown: $line" ;;
    esac
}

# the same, as the compilers table's cell of variant V says (its marks and interval)
table_verdict() {
    "$FLAGBENCH" tables "$RUN" --format json | jq -r --arg v "$1" '
        .families[0].tables[] | select(.name == "compilers") | .rows[] | select(.label == $v) | .cells[0]
        | if (.marks | index("\u2261")) then "same binary"
          elif (.marks | index("~")) then (if .low <= 1 and .high >= 1 then "not real" else "mark without 1 inside" end)
          elif .low > 1 or .high < 1 then "real"
          else "real without excluding 1" end'
}

@test "every answer agrees with the ratio printed for the same pair" {
    for v in simple buf vmsplice vmsplice_256k; do
        a=$(answer_verdict "$v")
        t=$(table_verdict "$v")
        echo "$v: answer $a, table $t"
        [ "$a" = "$t" ]
    done
    # and the fixture holds each case
    [ "$(answer_verdict simple)" = "not real" ]
    [ "$(answer_verdict buf)" = "same binary" ]
    [ "$(answer_verdict vmsplice)" = "real" ]
    [ "$(answer_verdict vmsplice_256k)" = "not real" ]
}

@test "a pair within its noise is not a real lead, paired over the rounds, and says so" {
    run "$FLAGBENCH" tables "$RUN"
    [ "$status" -eq 0 ]
    [[ "$output" == *"yes/simple: "*"(not a real lead: ["*"] at "*" %, which holds 1.00x, paired over 13 rounds)"* ]]
    [[ "$output" == *"yes/vmsplice_256k: "*"(the same within 1 %: ["*"] at "*" %, paired over 13 rounds)"* ]]
    [[ "$output" == *"~ not a real difference: the interval holds 1.00x."* ]]
    # the ratio legend says which comparison and at what level
    [[ "$output" == *"from the one comparison: paired over the rounds both cells ran in"* ]]
}

@test "two byte-identical builds are the same binary, not a ratio" {
    run "$FLAGBENCH" tables "$RUN"
    [ "$status" -eq 0 ]
    # the answer names the twin with the leader, and ranks it against nothing
    [[ "$output" == *"yes/buf: "*"/-O2/native (the same binary as "*"/-O2/native): no other build to compare"* ]]
    [[ "$output" == *"≡ the same binary: both builds are byte-identical"* ]]
    grep -qE '^buf +1\.00x ≡$' <<<"$output"
}

@test "without rounds the comparison falls back to a bootstrap, and counts its leads" {
    jq '.cells |= map(.time_s.rounds = null)' "$RUN/results.json" > "$BATS_TEST_TMPDIR/r.json"
    run "$FLAGBENCH" tables "$BATS_TEST_TMPDIR/r.json"
    [ "$status" -eq 0 ]
    [[ "$output" != *"paired over 13 rounds"* ]]
    [[ "$output" == *"yes/vmsplice: "*"(a real lead: ["*"] at "*" %, a bootstrap of both cells' runs (no rounds in common))"* ]]
    [[ "$output" == *"leads are real (the run's "*" comparisons at a 5 % false-lead rate)"* ]]
}

@test "a run ends with every family's answers, then where the tables, plots and page are" {
    run "$FLAGBENCH" run --suite smoke --dry-run -o "$BATS_TEST_TMPDIR/r"
    [ "$status" -eq 0 ]
    # the answers come again after the last table, each family's, and the run's places last
    tail_block=$(sed -n '/^the answers, every family.s:$/,$p' <<<"$output")
    [ -n "$tail_block" ]
    grep -qE '^  yes/simple: .* fastest, ' <<<"$tail_block"
    grep -qE '^  yes: most often fastest: ' <<<"$tail_block"
    refute grep -q '±' <<<"$(sed 1d <<<"$tail_block" | grep -v '^  ')"
    grep -qxF "every table in the terminal: flagbench tables $BATS_TEST_TMPDIR/r" <<<"$tail_block"
    grep -qxF "tables: $BATS_TEST_TMPDIR/r/tables/, plots: $BATS_TEST_TMPDIR/r/plots/, page: $BATS_TEST_TMPDIR/r/index.html" <<<"$tail_block"
    # nothing of the tables after the answers: stdout ends there (stderr's last line aside)
    refute grep -qE '^variant ' <<<"$tail_block"
}
