#!/usr/bin/env bats
# What a run prints while it builds (pipeline/build_progress.h): a dry run
# whose mock pretends each compile takes a while, on a pretend clock, so
# the lines of a slow build come at once.

load helpers

@test "a slow build says how it goes every 9 s, with the longest compile and an eta from the first done" {
    run "$FLAGBENCH" run --dry-run --suite smoke --pretend-build 25 --jobs 2 --out "$BATS_TEST_TMPDIR/r" --no-render
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"flagbench: building 8 programs, 2 at a time"* ]]
    [[ "$output" == *"flagbench: built 8 of 8 in 1m40s"* ]]
    # the pretend clock of every line: no gap over 9 s from 0 to the end (100 s): never 10 s silent
    secs=$(printf '%s\n' "$output" | sed -n 's/.* after \([0-9m]*\)s; builds eta.*/\1/p' |
        awk -F'm' '{ print NF == 2 ? $1 * 60 + $2 : $1 }')
    echo "$secs"
    printf '%s\n' 0 $secs 100 | awk 'NR > 1 && $1 - prev > 9 { bad = 1 } { prev = $1 } END { exit bad }'
    [ "$(printf '%s\n' "$secs" | wc -l)" -ge 11 ]
    # nothing finished: no eta made up; from the first done on, the true time left (all compiles 25 s)
    [[ "$output" == *"0 of 8 done, 2 running (the longest: "*", for 18s) after 18s; builds eta ?"* ]]
    [[ "$output" == *"2 of 8 done, 2 running"*" after 27s; builds eta 1m13s"* ]]
    [[ "$output" == *"6 of 8 done, 2 running"*" after 1m30s; builds eta 10s"* ]]
}

@test "a build that is quick says nothing while it builds; --pretend-build needs --dry-run" {
    run "$FLAGBENCH" run --dry-run --suite smoke --jobs 2 --out "$BATS_TEST_TMPDIR/q" --no-render
    [ "$status" -eq 0 ]
    refute grep -q "flagbench: building: " <<<"$output"
    run "$FLAGBENCH" run --suite smoke --pretend-build 5 --out "$BATS_TEST_TMPDIR/x" --no-render
    [ "$status" -eq 2 ]
    [[ "$output" == *"--pretend-build needs --dry-run"* ]]
}
