#!/usr/bin/env bats
# The slow tier of core.bats: Ctrl-C + --resume on the README's smoke suite
# at its own sizes (make test-slow also runs tests/e2e/core.bats with
# SMOKE=smoke, SMOKE_RUNS=5: the smoke suite itself instead of the tiny one).

load ../e2e/helpers

setup_file() {
    export CACHE="$BATS_FILE_TMPDIR/cache"
}

@test "Ctrl-C leaves a valid results.json and --resume runs only the missing cells" {
    out="$BATS_TEST_TMPDIR/int"
    # cell after cell, so that the journal has some cells and lacks others
    "$FLAGBENCH" run --no-render --suite smoke --out "$out" --cache "$CACHE" --runs 3 --warmup 0 --order sequential \
        >/dev/null 2>&1 &
    pid=$!
    # wait until the first cell is journaled, then interrupt
    for _ in $(seq 1 600); do
        [ -s "$out/journal.jsonl" ] && break
        sleep 0.1
    done
    kill -INT "$pid"
    wait "$pid" && rc=0 || rc=$?
    [ "$rc" -eq 130 ]
    jqr '.run.interrupted == true and .run.finished == null' "$out/results.json"
    done_before=$(jq '[.cells[] | select(.status == "ok")] | length' "$out/results.json")
    [ "$done_before" -ge 1 ]
    [ "$done_before" -lt 9 ]
    refute pgrep -f "hyperfine.*$out"
    run "$FLAGBENCH" run --no-render --suite smoke --resume "$out" --cache "$CACHE" --runs 3 --warmup 0
    [ "$status" -eq 0 ]
    [[ "$output" == *"resuming $out: $done_before cells already done"* ]]
    jqr '.run.interrupted == false and ([.cells[] | select(.status == "ok")] | length) == 9' "$out/results.json"
}

