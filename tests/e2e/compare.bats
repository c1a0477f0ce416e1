#!/usr/bin/env bats
# flagbench compare, rerun and baseline: verdicts on fixture runs (tight,
# 10 % slower, noisy, unmatched, bad input), then a real tiny run of the
# abwork fixture family kept, replayed, saved as a baseline and confirmed.

load helpers

TIGHT="$REPO/tests/fixtures/compare/tight.json"

# A copy of the tight fixture with a jq edit applied, its cells built
# anew (another sha256: not the same binary as the fixture's).
derive() { jq '.cells[].binary.sha256 |= sub("1$"; "3") | '"$1" "$TIGHT" > "$BATS_TEST_TMPDIR/$2.json"; }
# The same, keeping the fixture's binaries.
derive_same() { jq "$1" "$TIGHT" > "$BATS_TEST_TMPDIR/$2.json"; }

verdict() { jq -r --arg id "$2" '.cells[] | select(.id == $id) | .verdict' "$1"; }
# Runs a (the abwork loop) and b (the same binary doing four times the work) of its -O2 cell.
abwork_runs_a_b() {
    abwork_root "$BATS_TEST_TMPDIR/r0" 0
    abwork_root "$BATS_TEST_TMPDIR/r1" 300
    FLAGBENCH_ROOT="$BATS_TEST_TMPDIR/r0" "$FLAGBENCH" run --suite ab --only '*-O2*' --out "$BATS_TEST_TMPDIR/a" \
        --cache "$BATS_TEST_TMPDIR/cache" --precision 0 --no-counters --no-render >/dev/null 2>&1
    FLAGBENCH_ROOT="$BATS_TEST_TMPDIR/r1" "$FLAGBENCH" run --suite ab --only '*-O2*' --out "$BATS_TEST_TMPDIR/b" \
        --cache "$BATS_TEST_TMPDIR/cache" --precision 0 --no-counters --no-render >/dev/null 2>&1
}

@test "identical runs: every cell the same binary; the same times rebuilt: every cell the same, exit 0" {
    run "$FLAGBENCH" compare "$TIGHT" "$TIGHT" --json-out "$BATS_TEST_TMPDIR/c.json"
    [ "$status" -eq 0 ]
    [[ "$output" == *"3 cells: 0 same, 0 slower, 0 faster, 0 inconclusive, 0 n/a, 3 same binary"* ]]
    [[ "$output" == *"1 not ok on both sides"* ]]
    jqr '.counts["same binary"] == 3 and .counts.slower == 0 and (.cells | length) == 3' "$BATS_TEST_TMPDIR/c.json"
    jqr 'all(.cells[]; .verdict == "same binary" and .identical_binary and .ratio == 1 and .ci95 == [1, 1])' "$BATS_TEST_TMPDIR/c.json"
    jqr '.confirmation == null' "$BATS_TEST_TMPDIR/c.json"
    derive '.' rebuilt
    run "$FLAGBENCH" compare "$TIGHT" "$BATS_TEST_TMPDIR/rebuilt.json" --json-out "$BATS_TEST_TMPDIR/c.json"
    [ "$status" -eq 0 ]
    [[ "$output" == *"3 cells: 3 same, 0 slower"* ]]
    jqr '.counts.same == 3 and (.counts["same binary"]) == 0' "$BATS_TEST_TMPDIR/c.json"
    jqr '([.cells[]] | length > 0) and all(.cells[]; .ratio == 1 and .ci95[0] <= 1 and .ci95[1] >= 1)' "$BATS_TEST_TMPDIR/c.json"
}

@test "the same binary and argv on both sides: the verdict same binary, whatever the times" {
    # the fixture's cells share one sha256; give chacha20/simd another binary
    # on the new side, and yes/buf other arguments
    derive_same '(.cells[] | select(.id == "chacha20/ref@gcc/-O2/native") | .time_s.runs) |= map(. * 1.10)
          | (.cells[] | select(.id == "chacha20/simd@gcc/-O2/native") | .binary.sha256) = "'"$(printf '%064d' 2)"'"
          | (.cells[] | select(.id == "yes/buf@gcc/-O2/native") | .argv) = ["100000000"]' ident
    run "$FLAGBENCH" compare "$TIGHT" "$BATS_TEST_TMPDIR/ident.json" --json-out "$BATS_TEST_TMPDIR/c.json"
    [ "$status" -eq 0 ]
    [[ "$output" == *"chacha20/ref@gcc/-O2/native"*"1.000x  [1.000x, 1.000x]"*"same binary: the same sha256 and argv on both sides: a difference is the machine's, not the code's"* ]]
    c="$BATS_TEST_TMPDIR/c.json"
    [ "$(verdict "$c" chacha20/ref@gcc/-O2/native)" = "same binary" ]
    jqr '.cells[] | select(.id == "chacha20/ref@gcc/-O2/native")
         | .identical_binary == true and .ratio == 1
           and (.note | test("^the same sha256 and argv on both sides: a difference is the machine.s, not the code.s$"))' "$c"
    jqr '.cells[] | select(.id == "chacha20/simd@gcc/-O2/native") | .identical_binary == false and .note == null and .verdict == "same"' "$c"
    jqr '.cells[] | select(.id == "yes/buf@gcc/-O2/native") | .identical_binary == false and .note == null and .verdict == "same"' "$c"
    run "$FLAGBENCH" compare "$TIGHT" "$BATS_TEST_TMPDIR/ident.json" --format md
    [ "$status" -eq 0 ]
    [[ "$output" == *"| same binary | the same sha256 and argv on both sides: a difference is the machine's, not the code's |"* ]]
    # --times-of-same-binary: the times decide, as for any two builds (A/A checks)
    run "$FLAGBENCH" compare "$TIGHT" "$BATS_TEST_TMPDIR/ident.json" --times-of-same-binary --format json
    [ "$status" -eq 1 ]
    printf '%s\n' "$output" > "$c"
    [ "$(verdict "$c" chacha20/ref@gcc/-O2/native)" = slower ]
    jqr '.cells[] | select(.id == "chacha20/ref@gcc/-O2/native") | .identical_binary == false' "$c"
}

@test "every verdict word, in text, Markdown and JSON" {
    # two more cells on both sides: one rebuilt (same), one the same binary
    more='.cells += [(.cells[0] | .id = "yes/copy@gcc/-O2/native"), (.cells[0] | .id = "yes/twin@gcc/-O2/native")]'
    jq "$more" "$TIGHT" > "$BATS_TEST_TMPDIR/base.json"
    derive "$more"' | (.cells[] | select(.id == "yes/twin@gcc/-O2/native") | .binary.sha256) |= sub("3$"; "1")
          | (.cells[] | select(.id == "chacha20/ref@gcc/-O2/native") | .time_s.runs) |= map(. * 1.10)
          | (.cells[] | select(.id == "yes/buf@gcc/-O2/native") | .time_s.runs) |= map(. * 0.90)
          | (.cells[] | select(.id == "chacha20/simd@gcc/-O2/native") | .time_s.runs) =
              [0.14, 0.10, 0.16, 0.11, 0.15, 0.10, 0.16, 0.12]
          | (.cells[] | select(.id == "fizzbuzz/simple@gcc/-O2/native")) |= (.status = "crashed")' all
    run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/base.json" "$BATS_TEST_TMPDIR/all.json" --json-out "$BATS_TEST_TMPDIR/c.json"
    [ "$status" -eq 1 ]
    [[ "$output" == *"6 cells: 1 same, 1 slower, 1 faster, 1 inconclusive, 1 n/a, 1 same binary"* ]]
    for w in "chacha20/ref@gcc/-O2/native.*slower" "yes/buf@gcc/-O2/native.*faster" \
             "chacha20/simd@gcc/-O2/native.*inconclusive" "fizzbuzz/simple@gcc/-O2/native.*n/a: base: skipped" \
             "yes/copy@gcc/-O2/native.*same$" "yes/twin@gcc/-O2/native.*same binary: "; do
        printf '%s\n' "$output" | grep -q -- "$w"
    done
    jqr '.counts == {"same": 1, "slower": 1, "faster": 1, "inconclusive": 1, "n/a": 1, "same binary": 1}' "$BATS_TEST_TMPDIR/c.json"
    run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/base.json" "$BATS_TEST_TMPDIR/all.json" --format md
    [ "$status" -eq 1 ]
    for w in "| **slower** |" "| faster |" "| inconclusive |" "| n/a |" "| same |" "| same binary |"; do
        [[ "$output" == *"$w"* ]]
    done
}

@test "--resamples reaches the bootstrap: another count, another interval of the same runs" {
    derive '(.cells[] | select(.id == "chacha20/ref@gcc/-O2/native") | .time_s.runs) =
              [0.44, 0.36, 0.52, 0.40, 0.47, 0.35, 0.50, 0.42]' noisy
    ci() { "$FLAGBENCH" compare "$TIGHT" "$BATS_TEST_TMPDIR/noisy.json" --format json "$@" |
           jq -c '.cells[] | select(.id == "chacha20/ref@gcc/-O2/native") | .ci95'; }
    few=$(ci --resamples 100) many=$(ci --resamples 20000) again=$(ci --resamples 100)
    [ "$few" != "$many" ]
    [ "$few" = "$again" ] # seeded: the same answer
    [ "$few" != "$(ci --resamples 100 --seed 5)" ]
}

@test "a tight cell 10 % slower is slower and exits 1; 10 % faster is faster" {
    derive '(.cells[] | select(.id == "chacha20/ref@gcc/-O2/native") | .time_s.runs) |= map(. * 1.10)
          | (.cells[] | select(.id == "yes/buf@gcc/-O2/native") | .time_s.runs) |= map(. * 0.90)' slow
    run "$FLAGBENCH" compare "$TIGHT" "$BATS_TEST_TMPDIR/slow.json" --format json
    [ "$status" -eq 1 ]
    printf '%s\n' "$output" > "$BATS_TEST_TMPDIR/c.json"
    [ "$(verdict "$BATS_TEST_TMPDIR/c.json" chacha20/ref@gcc/-O2/native)" = slower ]
    [ "$(verdict "$BATS_TEST_TMPDIR/c.json" yes/buf@gcc/-O2/native)" = faster ]
    [ "$(verdict "$BATS_TEST_TMPDIR/c.json" chacha20/simd@gcc/-O2/native)" = same ]
    jqr '.cells[] | select(.verdict == "slower") | .ratio > 1.09 and .ratio < 1.11 and .ci95[0] > 1.02' \
        "$BATS_TEST_TMPDIR/c.json"
    # the interval as every ratio prints it: its ends, each with the x
    run "$FLAGBENCH" compare "$TIGHT" "$BATS_TEST_TMPDIR/slow.json"
    [ "$status" -eq 1 ]
    grep -qE '^chacha20/ref@gcc/-O2/native +400 ms +440 ms +1\.1[0-9]{2}x +\[1\.[0-9]{3}x, 1\.[0-9]{3}x\] +slower$' <<<"$output"
    # a threshold above the change: not an alarm
    run "$FLAGBENCH" compare "$TIGHT" "$BATS_TEST_TMPDIR/slow.json" --threshold 15
    [ "$status" -eq 0 ]
}

@test "the same 10 % slowdown in noisy runs is inconclusive, exit 0" {
    derive '(.cells[] | select(.id == "chacha20/ref@gcc/-O2/native") | .time_s.runs) =
              [0.44, 0.36, 0.52, 0.40, 0.47, 0.35, 0.50, 0.42]' noisy
    run "$FLAGBENCH" compare "$TIGHT" "$BATS_TEST_TMPDIR/noisy.json" --format json
    [ "$status" -eq 0 ]
    printf '%s\n' "$output" > "$BATS_TEST_TMPDIR/c.json"
    [ "$(verdict "$BATS_TEST_TMPDIR/c.json" chacha20/ref@gcc/-O2/native)" = inconclusive ]
    jqr '.counts.slower == 0' "$BATS_TEST_TMPDIR/c.json"
}

@test "unmatched cells are listed on each side; a failed cell is n/a" {
    derive '.cells |= map(select(.id != "yes/buf@gcc/-O2/native"))
          | .cells += [{"id": "yes/new@gcc/-O2/native", "status": "ok", "time_s": {"runs": [1, 1]}}]
          | (.cells[] | select(.id == "chacha20/simd@gcc/-O2/native")) |= (.status = "crashed" | .time_s = null)' unmatched
    run "$FLAGBENCH" compare "$TIGHT" "$BATS_TEST_TMPDIR/unmatched.json"
    [ "$status" -eq 0 ]
    [[ "$output" == *"only in base: yes/buf@gcc/-O2/native"* ]]
    [[ "$output" == *"only in new: yes/new@gcc/-O2/native"* ]]
    [[ "$output" == *"n/a: new: crashed"* ]]
    run "$FLAGBENCH" compare "$TIGHT" "$BATS_TEST_TMPDIR/unmatched.json" --format md
    [ "$status" -eq 0 ]
    [[ "$output" == *"| cell | base | new | new/base | 95 % interval | verdict | note |"* ]]
    [[ "$output" == *"- only in new: \`yes/new@gcc/-O2/native\`"* ]]
}

@test "instructions: point values, a 1 % change found at a 0.5 % threshold; missing counters are n/a" {
    derive '(.cells[] | select(.id == "chacha20/ref@gcc/-O2/native") | .counters.instructions_per_unit) *= 1.01' instr
    run "$FLAGBENCH" compare "$TIGHT" "$BATS_TEST_TMPDIR/instr.json" --metric instructions --threshold 0.5 --format json
    [ "$status" -eq 1 ]
    printf '%s\n' "$output" > "$BATS_TEST_TMPDIR/c.json"
    [ "$(verdict "$BATS_TEST_TMPDIR/c.json" chacha20/ref@gcc/-O2/native)" = slower ]
    [ "$(verdict "$BATS_TEST_TMPDIR/c.json" chacha20/simd@gcc/-O2/native)" = same ]
    [ "$(verdict "$BATS_TEST_TMPDIR/c.json" yes/buf@gcc/-O2/native)" = n/a ]
    jqr '.cells[] | select(.verdict == "slower") | .ci95[0] == .ratio and .ci95[1] == .ratio' "$BATS_TEST_TMPDIR/c.json"
    # at the default 2 % the same change is not an alarm
    run "$FLAGBENCH" compare "$TIGHT" "$BATS_TEST_TMPDIR/instr.json" --metric instructions
    [ "$status" -eq 0 ]
    # a count is exact: no runs to have too few of, no interval to print
    [[ "$output" == *"exact"* ]]
    [[ "$output" != *"fewer than"* ]]
    [[ "$output" != *"[1.010x, 1.010x]"* ]]
}

@test "bad input exits 2 with a clear message" {
    run "$FLAGBENCH" compare "$TIGHT" "$BATS_TEST_TMPDIR/missing.json"
    [ "$status" -eq 2 ]
    [[ "$output" == *"flagbench: $BATS_TEST_TMPDIR/missing.json: unable to open"* ]]
    printf '{"schema": "flagbench-results/1",\n "cells": [}\n' > "$BATS_TEST_TMPDIR/broken.json"
    run "$FLAGBENCH" compare "$TIGHT" "$BATS_TEST_TMPDIR/broken.json"
    [ "$status" -eq 2 ]
    [[ "$output" == *"broken.json:2:"* ]]
    echo '{"schema": "other/1", "cells": []}' > "$BATS_TEST_TMPDIR/other.json"
    run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/other.json" "$TIGHT"
    [ "$status" -eq 2 ]
    [[ "$output" == *"not a flagbench results file"* ]]
    derive '.cells += [.cells[0]]' twice
    run "$FLAGBENCH" compare "$TIGHT" "$BATS_TEST_TMPDIR/twice.json"
    [ "$status" -eq 2 ]
    [[ "$output" == *"cell id yes/buf@gcc/-O2/native appears twice"* ]]
    run "$FLAGBENCH" compare "$TIGHT"
    [ "$status" -eq 2 ]
    run "$FLAGBENCH" compare "$TIGHT" "$TIGHT" --metric wall
    [ "$status" -eq 2 ]
    [[ "$output" == *"--metric must be time, instructions or cycles"* ]]
    run "$FLAGBENCH" compare "$TIGHT" "$TIGHT" --threshold 200
    [ "$status" -eq 2 ]
    run "$FLAGBENCH" compare "$TIGHT" "$TIGHT" --alarm-rate 25
    [ "$status" -eq 2 ]
    [[ "$output" == *"'alarm-rate' must be a number from 0.01 to 20, not '25'"* ]]
    run "$FLAGBENCH" compare "$TIGHT" "$TIGHT" --alarm-rate 0
    [ "$status" -eq 2 ]
    run "$FLAGBENCH" compare "$TIGHT" "$TIGHT" --treshold 2
    [ "$status" -eq 2 ]
    [[ "$output" == *"did you mean '--threshold'"* ]]
    run "$FLAGBENCH" compare --baseline nightly "$TIGHT" --baselines-dir "$BATS_TEST_TMPDIR/none"
    [ "$status" -eq 2 ]
    [[ "$output" == *"no baseline 'nightly' for cpu profile host"* ]]
}

# abwork_root (helpers.bash): the abwork fixture family in a root of its own.
# Its runs here take --precision 0, the suite's 3 runs a cell: what is tested
# is the kept binaries, the verdicts and --confirm's own rounds, not precision.

@test "a run keeps its binaries; rerun replays them; baseline save and compare --baseline" {
    command -v hyperfine >/dev/null || skip "hyperfine is not installed"
    abwork_root "$BATS_TEST_TMPDIR/root" 0
    export FLAGBENCH_ROOT="$BATS_TEST_TMPDIR/root"
    run "$FLAGBENCH" run --suite ab --out "$BATS_TEST_TMPDIR/a" --cache "$BATS_TEST_TMPDIR/cache" --precision 0 --no-counters --no-render
    [ "$status" -eq 0 ]
    a="$BATS_TEST_TMPDIR/a"
    # every measured binary is in bin/, named by the sha256 results.json records
    for sha in $(jq -r '.cells[].binary.sha256' "$a/results.json"); do
        [ "$(sha256sum < "$a/bin/$sha" | cut -d' ' -f1)" = "$sha" ]
    done
    # the cache may go: the replay needs only the run folder
    rm -rf "$BATS_TEST_TMPDIR/cache"
    run "$FLAGBENCH" rerun "$a" --only 'abwork/loop@gcc/-O2/*' --out "$BATS_TEST_TMPDIR/b"
    [ "$status" -eq 0 ]
    b="$BATS_TEST_TMPDIR/b/results.json"
    jqr '.run.argv | index("--binaries-from='"$a"'") != null' "$b"
    jqr '[.cells[] | select(.status == "ok")] | length == 1' "$b"
    # the cells the replay's --only leaves out are not in it
    jqr '[.cells[].id] == ["abwork/loop@gcc/-O2/default"]' "$b"
    [ ! -e "$BATS_TEST_TMPDIR/cache" ]
    # a stored binary that changed is refused, the cell is skipped with the reason
    sha=$(jq -r '.cells[0].binary.sha256' "$a/results.json")
    cp "$a/bin/$sha" "$BATS_TEST_TMPDIR/saved"; rm "$a/bin/$sha"
    cp "$BATS_TEST_TMPDIR/saved" "$a/bin/$sha"; echo x >> "$a/bin/$sha"
    run "$FLAGBENCH" rerun "$a" --out "$BATS_TEST_TMPDIR/c"
    [ "$status" -eq 0 ]
    jqr '.cells[0] | .status == "skipped" and (.reason | test("has changed"))' "$BATS_TEST_TMPDIR/c/results.json"
    cp "$BATS_TEST_TMPDIR/saved" "$a/bin/$sha"
    # baselines: stored per cpu profile, picked by the new run's profile
    run "$FLAGBENCH" baseline save "$a" --dir "$BATS_TEST_TMPDIR/bl" --name nightly
    [ "$status" -eq 0 ]
    [ -f "$BATS_TEST_TMPDIR/bl/host/nightly/results.json" ]
    [ -f "$BATS_TEST_TMPDIR/bl/host/nightly/bin/$sha" ]
    run "$FLAGBENCH" baseline save "$a" --dir "$BATS_TEST_TMPDIR/bl" --name nightly
    [ "$status" -eq 0 ]
    [ "$(ls -A "$BATS_TEST_TMPDIR/bl/host")" = nightly ]
    run "$FLAGBENCH" compare --baseline nightly "$BATS_TEST_TMPDIR/b" --baselines-dir "$BATS_TEST_TMPDIR/bl" --format json
    [ "$status" -le 1 ]
    [[ "$output" == *'"id": "abwork/loop@gcc/-O2/default"'* ]]
    run "$FLAGBENCH" baseline save "$a" --dir "$BATS_TEST_TMPDIR/bl" --name ../x
    [ "$status" -eq 2 ]
    run "$FLAGBENCH" rerun "$BATS_TEST_TMPDIR/nothing"
    [ "$status" -eq 2 ]
}

@test "--confirm measures a suspect cell again with both binaries, interleaved" {
    command -v hyperfine >/dev/null || skip "hyperfine is not installed"
    abwork_runs_a_b
    # four times the work (about twice the time with the start-up): slower before and after confirmation
    FLAGBENCH_ROOT="$BATS_TEST_TMPDIR/r0" run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b" \
        --confirm 5 --format json
    [ "$status" -eq 1 ]
    printf '%s\n' "$output" | sed -n '/^{/,$p' > "$BATS_TEST_TMPDIR/c.json"
    jqr '.cells[] | select(.id == "abwork/loop@gcc/-O2/default")
         | .verdict == "slower" and .confirm.rounds == 5 and .confirm.ratio > 1.25' "$BATS_TEST_TMPDIR/c.json"
    # m suspects confirmed at the default 1 % alarm rate: each at 1 - 2 * 0.01 / m
    jqr '.confirmation | .rounds == 5 and .alarm_rate_percent == 1 and .cells >= 1
         and ((.level - (1 - 0.02 / .cells)) | . < 1e-12 and . > -1e-12)' "$BATS_TEST_TMPDIR/c.json"
    jqr '.confirmation.level as $l | .cells[] | select(.id == "abwork/loop@gcc/-O2/default")
         | .confirm.level == $l and .confirm.ci[0] <= .confirm.ratio and .confirm.ratio <= .confirm.ci[1]
         and (.note | test("^confirmed after 5 interleaved rounds: [0-9.]+x \\[[0-9.]+x, [0-9.]+x\\] at [0-9.]+ %$"))
         and .identical_binary == false' "$BATS_TEST_TMPDIR/c.json"
    # a profile pause of 1 s without a sensor (a run older than run.cooldown):
    # one pause before the cell, none between its runs (not 2 x 3 of them),
    # and the JSON says what it waited
    jq 'del(.run.cooldown) | .profile.cooldown = {"seconds": 1}' "$BATS_TEST_TMPDIR/b/results.json" > "$BATS_TEST_TMPDIR/p.json"
    mkdir -p "$BATS_TEST_TMPDIR/p"
    cp "$BATS_TEST_TMPDIR/p.json" "$BATS_TEST_TMPDIR/p/results.json"
    cp -r "$BATS_TEST_TMPDIR/b/bin" "$BATS_TEST_TMPDIR/p/bin"
    FLAGBENCH_ROOT="$BATS_TEST_TMPDIR/r0" run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/p" \
        --confirm 3 --format json
    [ "$status" -eq 1 ]
    printf '%s\n' "$output" | sed -n '/^{/,$p' > "$BATS_TEST_TMPDIR/p.json"
    jqr '.cells[] | select(.id == "abwork/loop@gcc/-O2/default")
         | .confirm.rounds == 3 and .confirm.cooldown_s >= 1 and .confirm.cooldown_s < 2' "$BATS_TEST_TMPDIR/p.json"
    # the run's own pause wins over its profile's (run.cooldown: --cooldown 1 on a 30 s profile)
    jq '.profile.cooldown = {"seconds": 30} | .run.cooldown = {"seconds": 1, "below_celsius": null,
        "max_wait_seconds": 1, "override": true}' "$BATS_TEST_TMPDIR/b/results.json" > "$BATS_TEST_TMPDIR/p/results.json"
    FLAGBENCH_ROOT="$BATS_TEST_TMPDIR/r0" run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/p" \
        --confirm 3 --format json
    [ "$status" -eq 1 ]
    printf '%s\n' "$output" | sed -n '/^{/,$p' > "$BATS_TEST_TMPDIR/o.json"
    jqr '.cells[] | select(.id == "abwork/loop@gcc/-O2/default")
         | .confirm.rounds == 3 and .confirm.cooldown_s >= 1 and .confirm.cooldown_s < 2' "$BATS_TEST_TMPDIR/o.json"
    # the same binaries both ways round: the confirmation finds no slowdown
    FLAGBENCH_ROOT="$BATS_TEST_TMPDIR/r0" run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/b" "$BATS_TEST_TMPDIR/a" \
        --confirm 5 --alarm-rate 5 --format json
    [ "$status" -eq 0 ]
    printf '%s\n' "$output" | sed -n '/^{/,$p' > "$BATS_TEST_TMPDIR/r.json"
    jqr '.confirmation | .alarm_rate_percent == 5 and .rounds == 5
         and (if .cells == 0 then .level == null else (.level - (1 - 0.1 / .cells)) | . < 1e-12 and . > -1e-12 end)' \
        "$BATS_TEST_TMPDIR/r.json"
    # without the stored binaries a suspect keeps its verdict from the runs, and says why: slower (exit 1),
    # or inconclusive (exit 0) where make test's load left the runs' few times an interval reaching 1.00x
    # (seen: 1.64x [0.9996x, 2.50x] beside five other files)
    rm -rf "$BATS_TEST_TMPDIR/b/bin"
    FLAGBENCH_ROOT="$BATS_TEST_TMPDIR/r0" run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b" --confirm 5
    [ "$status" -le 1 ]
    if [ "$status" -eq 1 ]; then
        [[ "$output" == *"slower: not confirmed: binary "*"is not stored in"* ]]
    else
        [[ "$output" == *"inconclusive: not confirmed: binary "*"is not stored in"* ]]
    fi
}

@test "--confirm verifies the replays: a new binary whose output is wrong is reported with its status, not timed" {
    command -v hyperfine >/dev/null || skip "hyperfine is not installed"
    command -v gcc >/dev/null || skip "no gcc on PATH"
    abwork_runs_a_b
    # NEW's kept binary replaced by one that prints another line than the yes check expects
    sha=$(jq -r '.cells[] | select(.id == "abwork/loop@gcc/-O2/default") | .binary.sha256' "$BATS_TEST_TMPDIR/b/results.json")
    [ -f "$BATS_TEST_TMPDIR/b/bin/$sha" ]
    sed 's/puts(share);/puts("lie");/' "$REPO/tests/fixtures/families/abwork/loop.c" > "$BATS_TEST_TMPDIR/lie.c"
    grep -q '"lie"' "$BATS_TEST_TMPDIR/lie.c"
    rm -f "$BATS_TEST_TMPDIR/b/bin/$sha"
    gcc -O2 -o "$BATS_TEST_TMPDIR/b/bin/$sha" "$BATS_TEST_TMPDIR/lie.c"
    FLAGBENCH_ROOT="$BATS_TEST_TMPDIR/r0" run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b" \
        --confirm 3 --format json
    [ "$status" -eq 1 ]
    printf '%s\n' "$output" | sed -n '/^{/,$p' > "$BATS_TEST_TMPDIR/c.json"
    jqr '[.cells[] | select(.id == "abwork/loop@gcc/-O2/default")] | length == 1' "$BATS_TEST_TMPDIR/c.json"
    # the verification's status and reason, and no rounds of it
    jqr '.cells[] | select(.id == "abwork/loop@gcc/-O2/default")
         | (.note | test("^not confirmed: new: wrong_output: ")) and .confirm == null' "$BATS_TEST_TMPDIR/c.json"
    [[ "$output" != *"confirming abwork/loop@gcc/-O2/default"* ]]
}

@test "--confirm-changed --record: a new binary measured beside the old one both ways, kept in results.json, the history's measured step" {
    command -v hyperfine >/dev/null || skip "hyperfine is not installed"
    abwork_root "$BATS_TEST_TMPDIR/r0" 0
    abwork_root "$BATS_TEST_TMPDIR/r1" 0
    # a new binary doing four times the work: another sha256, the same cell id and argv (about twice the
    # time with the start-up; CI's load has read 1.95x [1.48x, 2.84x] in 3 rounds, so the ratios asked
    # below are well clear of 1.00x, not near 2)
    sed -i 's/unsigned long steps = 10000 + 100 \* pct;/unsigned long steps = 40000 + 100 * pct;/' \
        "$BATS_TEST_TMPDIR/r1/variants/abwork/loop.c"
    grep -q 40000 "$BATS_TEST_TMPDIR/r1/variants/abwork/loop.c"
    FLAGBENCH_ROOT="$BATS_TEST_TMPDIR/r0" "$FLAGBENCH" run --suite ab --only '*-O2*' --out "$BATS_TEST_TMPDIR/a" \
        --cache "$BATS_TEST_TMPDIR/cache" --precision 0 --no-counters --no-render >/dev/null 2>&1
    sleep 1 # run ids are stamped to the second
    FLAGBENCH_ROOT="$BATS_TEST_TMPDIR/r1" "$FLAGBENCH" run --suite ab --only '*-O2*' --out "$BATS_TEST_TMPDIR/b" \
        --cache "$BATS_TEST_TMPDIR/cache" --precision 0 --no-counters --no-render >/dev/null 2>&1
    a_id=$(jq -r .run.id "$BATS_TEST_TMPDIR/a/results.json")
    cp "$BATS_TEST_TMPDIR/b/results.json" "$BATS_TEST_TMPDIR/b.before.json"
    # --record and --confirm-changed are about the cells measured again
    run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b" --record
    [ "$status" -eq 2 ]
    [[ "$output" == *"--record needs --confirm N"* ]]
    # faster the other way round: not a suspect, measured all the same
    FLAGBENCH_ROOT="$BATS_TEST_TMPDIR/r0" run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/b" "$BATS_TEST_TMPDIR/a" \
        --confirm 3 --confirm-changed --format json
    [ "$status" -eq 0 ]
    printf '%s\n' "$output" | sed -n '/^{/,$p' > "$BATS_TEST_TMPDIR/f.json"
    jqr '.cells[] | select(.id == "abwork/loop@gcc/-O2/default")
         | .verdict == "faster" and .confirm.rounds == 3 and .confirm.ratio < 0.8 and (.note | test("^measured again after 3 interleaved rounds"))' \
        "$BATS_TEST_TMPDIR/f.json"
    # without --record nothing is written into the runs
    cmp "$BATS_TEST_TMPDIR/b/results.json" "$BATS_TEST_TMPDIR/b.before.json"
    FLAGBENCH_ROOT="$BATS_TEST_TMPDIR/r0" run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b" \
        --confirm 3 --confirm-changed --record --threshold 3 --format json
    [ "$status" -eq 1 ]
    [[ "$output" == *"flagbench: 1 cell measured beside $a_id, recorded in $BATS_TEST_TMPDIR/b"* ]]
    b="$BATS_TEST_TMPDIR/b/results.json"
    jqr --arg a "$a_id" '.beside | .run == $a and .threshold_percent == 3 and .alarm_rate_percent == 1 and (.cells | length) == 1' "$b"
    jqr --slurpfile A "$BATS_TEST_TMPDIR/a/results.json" '.beside.cells[0] as $m | .cells[0] as $c
         | $m.cell == "abwork/loop@gcc/-O2/default" and $m.verdict == "slower" and $m.rounds == 3 and $m.ratio > 1.25
           and $m.ci[0] <= $m.ratio and $m.ratio <= $m.ci[1] and $m.sha256 == $c.binary.sha256
           and $m.base_sha256 == $A[0].cells[0].binary.sha256 and $m.base_sha256 != $m.sha256' "$b"
    # the rest of the record as it was
    jqr --slurpfile B "$BATS_TEST_TMPDIR/b.before.json" 'del(.beside) == $B[0]' "$b"
    # the history: the step at b's night, of the measured size, the binary's, alarming on the newest night
    db="$BATS_TEST_TMPDIR/h.db"
    "$FLAGBENCH" history import --db "$db" "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
    run "$FLAGBENCH" history changes --db "$db" --format json
    [ "$status" -eq 1 ]
    jqr --slurpfile B "$b" '.changes | length == 1 and .[0].night == $B[0].run.id and .[0].cause.kind == "binary"
         and .[0].alarm and .[0].measured.step and .[0].measured.rounds == 3 and .[0].ratio == $B[0].beside.cells[0].ratio
         and (.[0].cause.text | test("measured beside night .*s binary in 3 interleaved rounds"))' <<<"$output"
    # the measurement is kept by the history: a rebuilt one has it, and the text says it
    run "$FLAGBENCH" history import --rebuild --db "$db" "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
    [ "$status" -eq 0 ]
    run "$FLAGBENCH" history show --db "$db" 'abwork/loop@gcc/-O2/default'
    [ "$status" -eq 0 ]
    [[ "$output" == *"-- change point: "*"x ["*"] slower, the binary: code of family abwork; measured beside night $a_id's binary in 3 interleaved rounds"* ]]
    # two nights cannot say what step they would miss: no figure from them
    refute grep -qF "may go unseen" <<<"$output"
    # the page's label says the step was measured
    run "$FLAGBENCH" history show --db "$db" 'abwork/loop@gcc/-O2/default' --format tsv
    [ "$status" -eq 0 ]
    [[ "$output" == *$'\t+'*"% binary: code of family abwork (measured beside the night before)"$'\t'* ]]
}

# --confirm with several suspects (m = 2, the Bonferroni level): tests/slow/compare.bats
