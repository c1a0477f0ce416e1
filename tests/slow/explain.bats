#!/usr/bin/env bats
# The slow tier of explain.bats: -march attribution on the vecloop fixture
# (a search by halves over the ISA extensions, callgrind counts), deterministic through instruction counts.

load ../e2e/helpers

setup_file() {
    export CACHE="$BATS_FILE_TMPDIR/cache"
    export ROOT="$BATS_FILE_TMPDIR/root"
    make_vecloop_root "$ROOT"
}

needs_valgrind() {
    command -v valgrind >/dev/null || skip "valgrind not installed (instruction counts)"
}

@test "explain -march: -mavx2 is among the flags that carry x86-64-v3's speedup" {
    needs_valgrind
    grep -qw avx2 /proc/cpuinfo || skip "this host lacks avx2: the x86-64-v3 build cannot run here"
    FLAGBENCH_ROOT="$ROOT" "$FLAGBENCH" run --suite vecloop --out "$BATS_TEST_TMPDIR/run3" --cache "$CACHE" \
        --runs 1 --no-counters --only 'vecloop/dot@gcc/-O3/*' >/dev/null 2>&1
    out="$BATS_TEST_TMPDIR/ex"
    FLAGBENCH_ROOT="$ROOT" run "$FLAGBENCH" explain "$BATS_TEST_TMPDIR/run3" vecloop/dot@gcc/-O3/default \
        vecloop/dot@gcc/-O3/x86-64-v3 --out "$out" --cache "$CACHE"
    [ "$status" -eq 0 ]
    r="$out/results.json"
    jqr '.explain.mode == "isa extensions"' "$r"
    jqr '.explain.selected | index("-mavx2") != null' "$r"
    jqr '.explain.check.explained > 0.8' "$r"
    # bmi, movbe and the like do nothing for a dot product
    jqr '[.explain.candidates[] | select(.flag == "-mmovbe") | .finding] | length == 1 and .[0] != "carries"' "$r"
    # by halves: not one build per ISA extension
    jqr '.explain.builds < (.explain.candidates | length)' "$r"
}

