#!/usr/bin/env bats
# A family outside the repo (its variants sharing a header) goes through
# run, compare --confirm, rerun, explain and tune: a run records where each family came
# from (families.NAME.dir) and keeps a copy of its files (families.NAME.kept,
# with their sha256), and the commands that rebuild or replay its cells load
# that copy.
load helpers

setup_file() {
    export F="$BATS_FILE_TMPDIR/mine/sums"
    mkdir -p "$F"
    cat > "$F/common.h" <<'C'
#include <stdio.h>
#include <stdlib.h>
static unsigned long size_arg(int argc, char **argv) { return argc > 1 ? strtoul(argv[1], 0, 10) : 1000; }
C
    cat > "$F/loop.c" <<'C'
#include "common.h"
int main(int argc, char **argv)
{
	unsigned long n = size_arg(argc, argv), s = 0;
	for (unsigned long i = 0; i < n * 2000; i++)
		s += i ^ (i >> 3);
	printf("%lu\n", s & 1);
	return 0;
}
C
    cat > "$F/family.json" <<'J'
{"family": "sums", "kind": "compute", "unit": "units", "default_size": 2000, "check": "none",
 "baseline": "loop", "variants": [{"name": "loop"}]}
J
    cat > "$BATS_FILE_TMPDIR/suite.json" <<'J'
{"name": "mine", "variants": ["sums/*"], "compilers": ["cc"], "opt": ["-O0", "-O2"], "march": ["default"]}
J
    export RUN="$BATS_FILE_TMPDIR/run"
    "$FLAGBENCH" run --suite "$BATS_FILE_TMPDIR/suite.json" --family-dir "$BATS_FILE_TMPDIR/mine" --runs 7 \
        --no-render --no-counters --cache "$BATS_FILE_TMPDIR/cache" -o "$RUN" >"$BATS_FILE_TMPDIR/run.log" 2>&1 || true
}

@test "the run records where the outside family came from" {
    command -v cc >/dev/null || skip "no cc on PATH"
    jqr '[.cells[] | select(.status == "ok")] | length == 2' "$RUN/results.json"
    [ "$(jq -r '.families.sums.dir' "$RUN/results.json")" = "$(cd "$F" && pwd -P)" ]
}

@test "the run keeps the family's files by their hashes, and explain builds from that copy when the folder is gone" {
    command -v cc >/dev/null || skip "no cc on PATH"
    [ "$(jq -r '.families.sums.kept' "$RUN/results.json")" = "families/sums" ]
    for f in common.h loop.c family.json; do
        [ "$(jq -r --arg f "$f" '.families.sums.files[$f]' "$RUN/results.json")" = "$(sha256sum "$F/$f" | cut -c1-64)" ]
        cmp "$F/$f" "$RUN/families/sums/$f"
    done
    # the user's folder moves on: renamed, its source rewritten; the run's copy stands
    cp -r "$RUN" "$BATS_TEST_TMPDIR/run"
    mv "$BATS_FILE_TMPDIR/mine" "$BATS_FILE_TMPDIR/moved"
    run "$FLAGBENCH" explain "$BATS_TEST_TMPDIR/run" "sums/loop@cc/-O0/default" "sums/loop@cc/-O2/default" --metric time \
        --runs 3 --out "$BATS_TEST_TMPDIR/ex"
    [ "$status" -eq 0 ]
    mv "$BATS_FILE_TMPDIR/moved" "$BATS_FILE_TMPDIR/mine"
    echo "$output"
    [[ "$output" != *"is not among the variants here"* ]]
    [[ "$output" != *"not under variants"* ]]
    # it built both from the copy and compared them (whatever a noisy host made of the gap)
    [[ "$output" == *"B is "*" than A"* || "$output" == *"faster"* ]]
}

@test "compare --confirm replays the outside family's cells from their own folder" {
    command -v cc >/dev/null || skip "no cc on PATH"
    command -v hyperfine >/dev/null || skip "no hyperfine on PATH"
    # a NEW built from another folder whose loop does 1.5x the work: another
    # binary, a suspect to confirm by replaying each run's cells from its
    # own kept copy (the same binary in both runs is an A/A comparison, not
    # confirmed side by side)
    mkdir -p "$BATS_TEST_TMPDIR/other"
    cp -r "$F" "$BATS_TEST_TMPDIR/other/sums"
    sed -i 's/n \* 2000/n * 3000/' "$BATS_TEST_TMPDIR/other/sums/loop.c"
    "$FLAGBENCH" run --suite "$BATS_FILE_TMPDIR/suite.json" --family-dir "$BATS_TEST_TMPDIR/other" --runs 7 \
        --no-render --no-counters --cache "$BATS_FILE_TMPDIR/cache" -o "$BATS_TEST_TMPDIR/new" >/dev/null 2>&1
    rm -rf "$BATS_TEST_TMPDIR/other"
    run "$FLAGBENCH" compare "$RUN" "$BATS_TEST_TMPDIR/new" --confirm 3 --format text
    # 1: a cell slower, as the 1.5x work should be; 0 where the loaded host's
    # replay overturned every suspect (see below); never a crash or a refusal
    [[ "$status" -eq 1 || "$status" -eq 0 ]]
    echo "$output"
    # a cell of either -O level replayed (under a loaded host the 1.5x work
    # of -O2 once measured 0.39x: which cells are suspects is the host's)
    [[ "$output" == *"confirming sums/loop@cc/-O"[02]"/default"* ]]
    [[ "$output" != *"not under variants"* ]]
    [[ "$output" != *"not among the variants"* ]]
    [[ "$output" == *"after "*" interleaved rounds"* ]]
}

@test "explain finds the outside family's variant and its shared header" {
    command -v cc >/dev/null || skip "no cc on PATH"
    run "$FLAGBENCH" explain "$RUN" "sums/loop@cc/-O0/default" "sums/loop@cc/-O2/default" --metric time \
        --runs 3 --out "$BATS_TEST_TMPDIR/ex"
    [ "$status" -eq 0 ]
    [[ "$output" != *"is not among the variants here"* ]]
    [[ "$output" != *"not under variants"* ]]
}

@test "rerun measures the outside family's kept binaries again" {
    command -v cc >/dev/null || skip "no cc on PATH"
    command -v hyperfine >/dev/null || skip "no hyperfine on PATH"
    run "$FLAGBENCH" rerun "$RUN" --out "$BATS_TEST_TMPDIR/again" --runs 3
    echo "$output"
    [ "$status" -eq 0 ]
    jqr '[.cells[] | select(.status == "ok")] | length == 2' "$BATS_TEST_TMPDIR/again/results.json"
}

@test "tune starts from the outside family's cell and finds its variant and header" {
    command -v cc >/dev/null || skip "no cc on PATH"
    command -v hyperfine >/dev/null || skip "no hyperfine on PATH"
    run "$FLAGBENCH" tune "$RUN" "sums/loop@cc/-O2/default" --budget 4 --metric time --no-render \
        --confirm-runs 6 --cache "$BATS_FILE_TMPDIR/cache" --out "$BATS_TEST_TMPDIR/tune"
    echo "$output"
    [ "$status" -eq 0 ]
    jqr '.start.id == "sums/loop@cc/-O2/default" and (.techniques[0].candidates == 4)' "$BATS_TEST_TMPDIR/tune/results.json"
}
