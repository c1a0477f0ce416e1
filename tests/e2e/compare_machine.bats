#!/usr/bin/env bats
# flagbench compare between two runs whose machine moved: the unchanged
# programs (controls) measure the move and it is taken out of every ratio;
# with too few controls the interval says so and widens by the history's
# between-run spread; --confirm measures every changed cell that is not
# same, faster ones too (fixture runs: tests/fixtures/compare/machine).

load helpers

FIX="$REPO/tests/fixtures/compare/machine"

cell() { jq -c --arg id "$2" '.cells[] | select(.id == $id)' "$1"; }

# The pair's runs in DIR with their binaries kept (stand-ins: the mock
# executor runs nothing), so --confirm --dry-run replays them.
kept_pair() {
    cp -r "$FIX/pair" "$1"
    local d x
    for d in base new; do
        mkdir -p "$1/$d/bin"
        for x in 1 2; do printf '#!/bin/sh\n' > "$1/$d/bin/$(printf '%063d%s' 0 "$x")"; done
        chmod +x "$1/$d/bin/"*
    done
}

@test "a 10 % slowdown in a machine 12 % faster: slower against the 5 controls, exit 1 (without them it read faster)" {
    run "$FLAGBENCH" compare "$FIX/pair/base" "$FIX/pair/new" --format json
    [ "$status" -eq 1 ]
    printf '%s\n' "$output" > "$BATS_TEST_TMPDIR/c.json"
    c="$BATS_TEST_TMPDIR/c.json"
    jqr '.machine | .controls == 5 and .taken_out and .shift > 0.875 and .shift < 0.885 and .spread_percent < 1' "$c"
    # as measured, 0.968x: a speedup by the runs' own noise alone
    cell "$c" mix/slow@gcc/-O2/native | jqr '.verdict == "slower" and .control == false
        and .raw_ratio < 0.98 and .raw_ci95[1] < 1 / 1.02
        and .ratio > 1.09 and .ratio < 1.11 and .ci95[0] > 1.02'
    cell "$c" mix/fast@gcc/-O2/native | jqr '.verdict == "faster" and .ratio > 0.91 and .ratio < 0.93'
    cell "$c" mix/tie@gcc/-O2/native | jqr '.verdict == "same" and .raw_ci95[1] < 0.9'
    jqr '[.cells[] | select(.control)] | length == 5 and all(.[]; .verdict == "same")' "$c"
    jqr '.counts.slower == 1 and .counts.faster == 1 and .counts.same == 6' "$c"
    run "$FLAGBENCH" compare "$FIX/pair/base" "$FIX/pair/new"
    [ "$status" -eq 1 ]
    [[ "$output" == *"machine: 0.880x (12.0 % faster in new), from 5 controls (unchanged programs)"* ]]
    grep -qE '^mix/slow@gcc/-O2/native .* 1\.1[0-9]{2}x +\[1\.[0-9]{3}x, 1\.[0-9]{3}x\] +slower: 0\.968x before the machine.s 0\.880x \(5 controls\) was taken out$' <<<"$output"
}

@test "one cell, no controls: the interval says so and widens by the history's between-run spread" {
    run "$FLAGBENCH" compare "$FIX/one/base" "$FIX/one/new" --format json
    [ "$status" -eq 0 ]
    printf '%s\n' "$output" > "$BATS_TEST_TMPDIR/c.json"
    c="$BATS_TEST_TMPDIR/c.json"
    # e2 -> e1 -> base: the base binary moved 8 % and 5 % between runs
    jqr '.machine | .controls == 0 and (.taken_out | not) and .shift == null
         and .between_runs_ratios == 2 and .widened_percent > 6 and .widened_percent < 7.5' "$c"
    cell "$c" mix/slow@gcc/-O2/native | jqr '.verdict == "inconclusive"
        and (.ci95[1] - .ci95[0]) > 4 * (.raw_ci95[1] - .raw_ci95[0])
        and (.note | test("^too few controls \\(0\\): widened by the history.s between-run spread 6\\.[0-9] %$"))'
    jqr '.warnings | length == 1 and (.[0] | test("^0 unchanged programs, fewer than the 3 .* between-run spread of 6\\.[0-9] % \\(2 ratios of earlier runs\\)$"))' "$c"
    # without the earlier runs: nothing to widen by, and the warning says what the interval lacks
    mkdir "$BATS_TEST_TMPDIR/alone"
    cp -r "$FIX/one/base" "$FIX/one/new" "$BATS_TEST_TMPDIR/alone/"
    run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/alone/base" "$BATS_TEST_TMPDIR/alone/new" --format json
    [ "$status" -eq 0 ]
    printf '%s\n' "$output" > "$c"
    jqr '.machine | .controls == 0 and .widened_percent == null and .between_runs_spread_percent == null' "$c"
    cell "$c" mix/slow@gcc/-O2/native | jqr '.ci95 == .raw_ci95 and .verdict == "faster"'
    jqr '.warnings[0] | test("no earlier runs of this host beside NEW .* not the machine.s move$")' "$c"
}

@test "the same binaries in two runs: the machine's shift, not faster; one that stands out is its own" {
    jq '.run.id = "again" | .run.started = "2026-12-07T10:09:00Z"
        | .cells[].time_s |= (.runs |= map(. * 0.88) | .value *= 0.88 | .median *= 0.88)' \
        "$FIX/pair/base/results.json" > "$BATS_TEST_TMPDIR/again.json"
    run "$FLAGBENCH" compare "$FIX/pair/base" "$BATS_TEST_TMPDIR/again.json" --format json
    [ "$status" -eq 0 ]
    printf '%s\n' "$output" > "$BATS_TEST_TMPDIR/c.json"
    c="$BATS_TEST_TMPDIR/c.json"
    jqr '.machine | .controls == 8 and .taken_out and .shift > 0.875 and .shift < 0.885' "$c"
    jqr '(.cells | length) == 8 and all(.cells[]; .control and .verdict == "same" and .raw_ci95[1] < 0.9)' "$c"
    jqr '.counts.faster == 0' "$c"
    # one program 10 % slower than the machine's move: that program's own (the system's, its note says)
    jq '(.cells[] | select(.id == "mix/b@gcc/-O2/native") | .time_s.runs) |= map(. * 1.10)' \
        "$BATS_TEST_TMPDIR/again.json" > "$BATS_TEST_TMPDIR/again-b.json"
    run "$FLAGBENCH" compare "$FIX/pair/base" "$BATS_TEST_TMPDIR/again-b.json" --format json
    [ "$status" -eq 1 ]
    printf '%s\n' "$output" > "$c"
    cell "$c" mix/b@gcc/-O2/native | jqr '.verdict == "slower" and .same_program and .ratio > 1.08
        and (.note | test("the same binary in two runs"))'
    jqr '[.cells[] | select(.id != "mix/b@gcc/-O2/native")] | length == 7 and all(.[]; .verdict == "same")' "$c"
}

@test "--confirm measures every changed cell that is not same, the faster one too; --confirm-changed the same one as well" {
    kept_pair "$BATS_TEST_TMPDIR/p"
    run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/p/base" "$BATS_TEST_TMPDIR/p/new" --confirm 6 --dry-run --format json
    [ "$status" -eq 0 ]
    printf '%s\n' "$output" | sed -n '/^{/,$p' > "$BATS_TEST_TMPDIR/c.json"
    c="$BATS_TEST_TMPDIR/c.json"
    jqr '.confirmation | .cells == 2 and .status == "done" and .rounds == 6' "$c"
    jqr '[.cells[] | select(.confirm != null) | .id] == ["mix/slow@gcc/-O2/native", "mix/fast@gcc/-O2/native"]' "$c"
    jqr '[.cells[] | select(.confirm != null) | .confirm.first_verdict] == ["slower", "faster"]' "$c"
    # the mock's times are the cell id's on both sides: the same, and said to be made up
    jqr '[.cells[] | select(.confirm != null)] | length == 2 and all(.verdict == "same" and .confirm.rounds >= 6)' "$c"
    jqr 'any(.warnings[]; test("^--confirm: dry run: "))' "$c"
    run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/p/base" "$BATS_TEST_TMPDIR/p/new" --confirm 6 --confirm-changed \
        --dry-run --format json
    [ "$status" -eq 0 ]
    printf '%s\n' "$output" | sed -n '/^{/,$p' > "$c"
    jqr '.confirmation.cells == 3 and ([.cells[] | select(.confirm != null)] | length) == 3' "$c"
    jqr '[.cells[] | select(.control and .confirm != null)] | length == 0' "$c"
}

@test "--confirm without a work folder says so: the status, a warning and each cell's note" {
    kept_pair "$BATS_TEST_TMPDIR/p"
    TMPDIR="$BATS_TEST_TMPDIR/none" run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/p/base" "$BATS_TEST_TMPDIR/p/new" \
        --confirm 6 --dry-run --format json
    [ "$status" -eq 1 ]
    printf '%s\n' "$output" > "$BATS_TEST_TMPDIR/c.json"
    c="$BATS_TEST_TMPDIR/c.json"
    jqr '.confirmation | .status == "no work folder" and .cells == 2' "$c"
    jqr '[.warnings[] | select(test("^--confirm: cannot make a work folder for the replays in .*/none: No such file or directory$"))] | length == 1' "$c"
    jqr '[.cells[] | select(.note != null and (.note | test("not confirmed: cannot make a work folder")))] | length == 2' "$c"
    cell "$c" mix/slow@gcc/-O2/native | jqr '.verdict == "slower" and .confirm == null'
}
