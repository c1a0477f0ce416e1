#!/usr/bin/env bats
# Inputs the fuzzers found (tests/fuzz/regressions/, see make fuzz-run),
# and in make test-slow the seed corpus too, replayed through the ASan/UBSan harness: each is a
# config or a run folder that must be accepted or refused with a message
# (exit 0, 1 or 2), never crash it.  The leak checks stay with the fuzzers
# (make test-slow replays the same files there, with leak detection).

load helpers

setup() {
    # a sanitizer finding exits 99, apart from the harness's own 0, 1, 2
    export ASAN_OPTIONS="detect_leaks=0:exitcode=99" UBSAN_OPTIONS="halt_on_error=1:exitcode=99"
    export ROOT="$BATS_TEST_TMPDIR/root"
    mkdir -p "$ROOT/variants/f" "$ROOT/configs/suites" "$ROOT/configs/cpus"
    cp "$REPO/tests/fixtures/families/faults/good.c" "$REPO/tests/fixtures/families/faults/common.h" "$ROOT/variants/f/"
}

no_crash() { # what status output
    case "$2" in 0 | 1 | 2) ;; *) echo "$1: exit $2"; echo "$3" | tail -20; return 1 ;; esac
}

@test "config inputs: as a suite, a cpu profile and a family.json, each accepted or refused, never a crash" {
    local f n=0
    local corpus=""
    slow_tier && corpus="$REPO/tests/fuzz/corpus/config"
    for f in "$REPO"/tests/fuzz/regressions/config/* ${corpus:+"$corpus"/*}; do
        [ -f "$f" ] || continue
        n=$((n + 1))
        FLAGBENCH_ROOT="$ROOT" run "$FLAGBENCH" run --no-render --suite "$f" --dry-run --out "$BATS_TEST_TMPDIR/o$n"
        no_crash "suite $f" "$status" "$output"
        FLAGBENCH_ROOT="$ROOT" run "$FLAGBENCH" run --no-render --cpu "$f" --suite "$REPO/configs/suites/smoke.json" --dry-run \
            --out "$BATS_TEST_TMPDIR/p$n"
        no_crash "profile $f" "$status" "$output"
        cp "$f" "$ROOT/variants/f/family.json"
        FLAGBENCH_ROOT="$ROOT" run "$FLAGBENCH" list variants
        no_crash "family $f" "$status" "$output"
    done
    [ "$n" -gt 0 ]
}

@test "results inputs: as results.json (tables in every format, merge), never a crash" {
    local f n=0 d
    local corpus="$REPO/tests/fuzz/corpus/results" # few and small: in both tiers
    for f in "$REPO"/tests/fuzz/regressions/results/* "$corpus"/*; do
        [ -f "$f" ] || continue
        n=$((n + 1))
        d="$BATS_TEST_TMPDIR/r$n"
        mkdir -p "$d"
        cp "$f" "$d/results.json"
        for fmt in term md csv json tsv; do
            run "$FLAGBENCH" tables "$d" --format "$fmt"
            no_crash "tables --format $fmt $f" "$status" "$output"
        done
        run "$FLAGBENCH" merge "$d" "$d"
        no_crash "merge $f" "$status" "$output"
    done
    [ "$n" -gt 0 ]
}
