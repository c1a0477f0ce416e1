#!/usr/bin/env bats
# One measuring session (harness/pipeline/session.h) for every command that
# builds: each family kind goes through run, tune, explain, compare --confirm
# and rerun alike.  The kinds: a built-in checker (chacha20), a same_as
# check (examples/families/mix, whose reference variant --only may leave out
# of a run, and a rebuild never has), and a family like variants-projects/lz4
# in miniature, outside the repo, with its own Makefile, an {input} corpus made by a script and a check command
# (tests/fixtures/outside/upper).  The outside folders are moved away before
# the commands that rebuild, so they work from the run's kept copy.
load helpers

setup_file() {
    export OUT="$BATS_FILE_TMPDIR/outside"
    mkdir -p "$OUT"
    cp -a "$REPO/tests/fixtures/outside/upper" "$REPO/examples/families/mix" "$OUT/"
    # the suite selects mix/unrolled alone: plain, its same_as reference, is built by the session
    cat > "$BATS_FILE_TMPDIR/suite.json" <<'J'
{"name": "kinds", "variants": ["upper/loop", "mix/unrolled", "chacha20/ref"], "compilers": ["gcc"],
 "opt": ["-O2", "-O3"], "march": ["x86-64", "x86-64-v3"],
 "sizes": {"mix": 2000000, "upper": 65536, "chacha20": 65536}}
J
    export RUN="$BATS_FILE_TMPDIR/run" CACHE="$BATS_FILE_TMPDIR/cache"
    # two runs a cell: too few for an interval, so explain never stops at "B is not faster"
    "$FLAGBENCH" run --suite "$BATS_FILE_TMPDIR/suite.json" --family-dir "$OUT/upper" --family-dir "$OUT/mix" \
        --runs 2 --precision 0 --no-render --no-counters --cache "$CACHE" -o "$RUN" >"$BATS_FILE_TMPDIR/run.log" 2>&1 || true
    mv "$OUT" "$OUT.moved"
}

teardown_file() {
    [ -d "$OUT.moved" ] && mv "$OUT.moved" "$OUT" || true
}

need_gcc() {
    command -v gcc >/dev/null || skip "no gcc on PATH"
    command -v hyperfine >/dev/null || skip "no hyperfine on PATH"
    command -v make >/dev/null || skip "no make on PATH"
}

# the cell ran here: only a host without x86-64-v3 may leave a cell
# unsupported (those cells skip); any other cell must be ok
need_cell() { # ID
    local st
    st=$(jq -r --arg id "$1" '.cells[] | select(.id == $id) | .status' "$RUN/results.json")
    if [ "$st" = unsupported ] && [[ "$1" == *x86-64-v3* ]]; then
        skip "$1 is unsupported here: $(jq -r --arg id "$1" '.cells[] | select(.id == $id) | .reason' "$RUN/results.json")"
    fi
    [ "$st" = ok ] || { cat "$BATS_FILE_TMPDIR/run.log"; echo "$1: $st" >&2; return 1; }
}

@test "run: every family kind measures, the same_as reference built by the session" {
    need_gcc
    need_cell "upper/loop@gcc/-O2/x86-64"
    need_cell "mix/unrolled@gcc/-O2/x86-64"
    need_cell "chacha20/ref@gcc/-O2/x86-64"
    # the {input} argument is the corpus file the session made
    jqr '[.cells[] | select(.family == "upper") | .argv[-1] | test("/inputs/")] | length > 0 and all' "$RUN/results.json"
}

@test "run --only: the same_as reference the run leaves out is built by the session" {
    need_gcc
    run "$FLAGBENCH" run --suite "$BATS_FILE_TMPDIR/suite.json" --family-dir "$OUT.moved/mix" --family-dir "$OUT.moved/upper" \
        --only 'mix/unrolled@gcc/-O2/x86-64' --runs 2 --precision 0 --no-render --no-counters --cache "$CACHE" \
        -o "$BATS_TEST_TMPDIR/r"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"built mix/plain@gcc/-O2/x86-64, the reference of mix's same_as check"* ]]
    jqr '[.cells[] | select(.variant == "plain")] | length == 0' "$BATS_TEST_TMPDIR/r/results.json"
    jqr '.cells[0].status == "ok"' "$BATS_TEST_TMPDIR/r/results.json"
}

@test "the run's kept copy of a family keeps its files' modes" {
    need_gcc
    [ -x "$RUN/families/upper/gen.sh" ]
    [ -x "$RUN/families/upper/check.sh" ]
    [ ! -x "$RUN/families/upper/main.c" ]
}

@test "tune: a same_as family from the run, its reference rebuilt" {
    need_gcc
    need_cell "mix/unrolled@gcc/-O2/x86-64"
    run "$FLAGBENCH" tune "$RUN" "mix/unrolled@gcc/-O2/x86-64" --budget 2 --screen-runs 3 --confirm-runs 6 \
        --metric time --no-render --cache "$CACHE" -o "$BATS_TEST_TMPDIR/t"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"the reference of mix's same_as check"* ]]
    [[ "$output" != *"fails its check"* ]]
    [ -s "$BATS_TEST_TMPDIR/t/tune.md" ]
}

@test "tune: an own-build family with an {input} corpus and a check script, from the kept copy" {
    need_gcc
    need_cell "upper/loop@gcc/-O2/x86-64"
    run "$FLAGBENCH" tune "$RUN" "upper/loop@gcc/-O2/x86-64" --budget 2 --screen-runs 3 --confirm-runs 6 \
        --no-render --cache "$CACHE" -o "$BATS_TEST_TMPDIR/t"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" != *"Permission denied"* ]]
    [[ "$output" != *"{input}"* ]]
    # every candidate that built passed the check script
    jqr '[.[] | select(.status? == "wrong_output")] | length == 0' <(jq -s '.' "$BATS_TEST_TMPDIR/t/journal.jsonl")
}

@test "explain: an own-build family with {input} and a check script, a -march pair" {
    need_gcc
    # at -O3 gcc widens upper's loop to the -march's vectors: two binaries
    need_cell "upper/loop@gcc/-O3/x86-64"
    need_cell "upper/loop@gcc/-O3/x86-64-v3"
    run "$FLAGBENCH" explain "$RUN" "upper/loop@gcc/-O3/x86-64" "upper/loop@gcc/-O3/x86-64-v3" --metric time --runs 3 \
        --cache "$CACHE" -o "$BATS_TEST_TMPDIR/e"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"candidate flags: one build per flag needs"* ]]
    [[ "$output" != *"unsupported"* ]]
    [[ "$output" != *"wrong_output"* ]]
    [ -s "$BATS_TEST_TMPDIR/e/explain.md" ]
}

@test "explain: a same_as family, its reference rebuilt, an -O pair" {
    slow_tier || skip "rebuilds and times every kind again: make test-slow"
    need_gcc
    need_cell "mix/unrolled@gcc/-O2/x86-64"
    need_cell "mix/unrolled@gcc/-O3/x86-64"
    run "$FLAGBENCH" explain "$RUN" "mix/unrolled@gcc/-O2/x86-64" "mix/unrolled@gcc/-O3/x86-64" --metric time --runs 3 \
        --cache "$CACHE" -o "$BATS_TEST_TMPDIR/e"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"candidate flags: one build per flag needs"* ]]
    [[ "$output" == *"the reference of mix's same_as check"* ]]
    [[ "$output" != *"same_as:"* ]]
    [ -s "$BATS_TEST_TMPDIR/e/explain.md" ]
}

@test "explain: a built-in checker's family, -O pair" {
    need_gcc
    need_cell "chacha20/ref@gcc/-O2/x86-64"
    slow_tier || skip "the -O pair builds some 30 candidates of chacha20: make test-slow"
    run "$FLAGBENCH" explain "$RUN" "chacha20/ref@gcc/-O2/x86-64" "chacha20/ref@gcc/-O3/x86-64" --metric time \
        --runs 3 --cache "$CACHE" -o "$BATS_TEST_TMPDIR/c"
    echo "$output"
    [ "$status" -eq 0 ]
    [ -s "$BATS_TEST_TMPDIR/c/explain.md" ]
}

@test "rerun: the kept binaries of every kind, inputs and references prepared again" {
    slow_tier || skip "rebuilds and times every kind again: make test-slow"
    need_gcc
    run "$FLAGBENCH" rerun "$RUN" --runs 2 -o "$BATS_TEST_TMPDIR/r"
    echo "$output"
    [ "$status" -eq 0 ]
    jqr '[.cells[] | select(.status != "ok" and .status != "unsupported")] | length == 0' "$BATS_TEST_TMPDIR/r/results.json"
    jqr '[.cells[] | select(.status == "ok")] | length >= 3' "$BATS_TEST_TMPDIR/r/results.json"
}

@test "compare --confirm: the replayed binaries of every kind measure again" {
    slow_tier || skip "rebuilds and times every kind again: make test-slow"
    need_gcc
    need_cell "upper/loop@gcc/-O2/x86-64"
    run "$FLAGBENCH" compare "$RUN" "$RUN" --confirm 2 --threshold 0 --times-of-same-binary --format json \
        --json-out "$BATS_TEST_TMPDIR/c.json"
    echo "$output"
    # 1 where a cell measured slower than itself at threshold 0: the host's
    [[ "$status" -eq 0 || "$status" -eq 1 ]]
    [ -s "$BATS_TEST_TMPDIR/c.json" ]
    # no cell failed to replay or to verify, but mix's: its same_as reference
    # (plain) was built by the run's session, not kept, so a replay cannot be checked
    run jq -r '[.. | strings | select(test("not confirmed: (base|new):"))
                | select(test("same_as: a replayed cell has no build of plain") | not)] | length' "$BATS_TEST_TMPDIR/c.json"
    [ "$status" -eq 0 ]
    [ "$output" = 0 ]
}

@test "tune --dry-run: the mock executor through the same session, its folder marked" {
    command -v gcc >/dev/null || skip "no gcc on PATH: the flag space is the compiler's listing"
    run "$FLAGBENCH" tune "$RUN" "mix/unrolled@gcc/-O2/x86-64" --dry-run --budget 4 --no-render \
        --cache "$BATS_TEST_TMPDIR/cache" -o "$BATS_TEST_TMPDIR/t"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"dry run: nothing was compiled or timed"* ]]
    # the pretend binaries of one build are one: the start's screen is the start's
    grep -q '"status": *"ok"' "$BATS_TEST_TMPDIR/t/journal.jsonl"
    # nothing compiled: the cache has no entry of this tune
    [ ! -d "$BATS_TEST_TMPDIR/cache" ]
}

@test "explain --dry-run: the mock executor through the same session, its folder marked" {
    command -v gcc >/dev/null || skip "no gcc on PATH: the candidates are the compiler's listing"
    "$FLAGBENCH" run --dry-run --only 'chacha20/ref@gcc/*' --no-render -o "$BATS_TEST_TMPDIR/r" >/dev/null 2>&1
    run "$FLAGBENCH" explain "$BATS_TEST_TMPDIR/r" 'chacha20/ref@gcc/-O2/native' 'chacha20/ref@gcc/-O3/native' --dry-run \
        --cache "$BATS_TEST_TMPDIR/cache"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"dry run: nothing was compiled or timed"* ]]
    ls -d "$BATS_TEST_TMPDIR"/r/explain-dry-run-*
    [ ! -d "$BATS_TEST_TMPDIR/cache" ]
}

@test "run --dry-run without --out: its folder under results/dry-run/, never among real runs" {
    root="$BATS_TEST_TMPDIR/root"
    make_fixture_root "$root"
    FLAGBENCH_ROOT="$root" run "$FLAGBENCH" run --dry-run --suite smoke --only 'yes/*' --no-render
    echo "$output"
    [ "$status" -eq 0 ]
    ls "$root"/results/dry-run/*/results.json
    [ "$(ls "$root/results")" = dry-run ]
}

@test "a run of one build a variant says there is nothing to compare, not that runs were too few" {
    run "$FLAGBENCH" run --dry-run --only 'chacha20/ref@gcc/-O2/*' --no-render -o "$BATS_TEST_TMPDIR/one"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"one build a variant: nothing to compare it with"* ]]
    [[ "$output" != *"too few runs"* ]]
}

@test "run: a build whose check fails is never counted nor timed; the one that passes is counted before the timing" {
    need_gcc
    root="$BATS_TEST_TMPDIR/root"
    abwork_root "$root" 0
    # a second variant printing another line than the yes check expects
    sed 's/puts(share);/puts("lie");/' "$REPO/tests/fixtures/families/abwork/loop.c" > "$root/variants/abwork/lie.c"
    grep -q '"lie"' "$root/variants/abwork/lie.c"
    jq '.variants += [{"name": "lie", "title": "prints the wrong line"}]' "$root/variants/abwork/family.json" > "$root/f.json"
    mv "$root/f.json" "$root/variants/abwork/family.json"
    FLAGBENCH_ROOT="$root" run "$FLAGBENCH" run --suite ab --only '*-O2*' --precision 0 --no-render \
        --cache "$BATS_TEST_TMPDIR/cache" -o "$BATS_TEST_TMPDIR/r"
    echo "$output"
    [ "$status" -eq 1 ]
    r="$BATS_TEST_TMPDIR/r/results.json"
    jqr '[.cells[]] | length == 2' "$r"
    jqr '.cells[] | select(.variant == "lie") | .status == "wrong_output" and .counters == null and .time_s == null' "$r"
    # the one verified build went to the counters (counted, or skipped with the reason), then was timed
    jqr '.cells[] | select(.variant == "loop") | .status == "ok" and .counters != null and .time_s != null' "$r"
    [[ "$output" == *"counting 1 build, 1 at a time"* ]]
}
