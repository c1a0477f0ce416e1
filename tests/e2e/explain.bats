#!/usr/bin/env bats
# flagbench explain (issue 13) on the vecloop fixture: a dot product that
# only the vectorizer's dynamic cost model (gcc -O3) or wider vectors
# (-march) speed up.  Instruction counts under callgrind are deterministic,
# so the named flags and their shares cannot flake on a loaded machine.
# The -march attribution (twice the builds) is in tests/slow/explain.bats.

load helpers

setup_file() {
    export CACHE="$BATS_FILE_TMPDIR/cache"
    export ROOT="$BATS_FILE_TMPDIR/root"
    make_vecloop_root "$ROOT"
    export RUN="$BATS_FILE_TMPDIR/run"
    # the run explain reads: built and verified, timed once (explain measures again)
    FLAGBENCH_ROOT="$ROOT" "$FLAGBENCH" run --suite vecloop --out "$RUN" --cache "$CACHE" --runs 1 \
        --no-counters --only '*/default' >/dev/null 2>&1 || true
}

needs_valgrind() {
    command -v valgrind >/dev/null || skip "valgrind not installed (instruction counts)"
}

@test "explain gcc -O2 vs -O3: the vectorizer's cost model carries the speedup, checked by the rebuild" {
    needs_valgrind
    out="$BATS_TEST_TMPDIR/ex"
    FLAGBENCH_ROOT="$ROOT" run "$FLAGBENCH" explain "$RUN" vecloop/dot@gcc/-O2/default vecloop/dot@gcc/-O3/default \
        --out "$out" --cache "$CACHE"
    [ "$status" -eq 0 ]
    r="$out/results.json"
    jqr '.schema == "flagbench-results/1" and .run.suite == "explain"' "$r"
    jqr '.explain.metric == "instructions_per_unit" and .explain.mode == "optimizer flags"' "$r"
    # gcc 12: -fvect-cost-model=dynamic; gcc 11 and older: -ftree-loop-vectorize
    jqr '.explain.selected | length >= 1 and (.[0] == "-fvect-cost-model=dynamic" or .[0] == "-ftree-loop-vectorize")' "$r"
    jqr '[.explain.candidates[] | select(.selected)][0].alone.share > 0.8' "$r"
    jqr '.explain.check.explained > 0.8 and .explain.state == "complete"' "$r"
    # searched by halves: far fewer builds than one per flag, and most -O3
    # flags change nothing in this loop (their groups give B's binary)
    jqr '.explain.builds < (.explain.candidates | length) and .explain.builds <= .explain.estimated_builds + 4' "$r"
    jqr '.explain.unchanged_flags >= 5' "$r"
    [[ "$output" == *"change nothing"* ]]
    [[ "$output" == *"**Answer**:"*"carries most of the speedup. Check: B without it"* ]]
    [ -s "$out/explain.md" ]
    # every build was verified like a run's: the cells are ok, with their instruction counts
    jqr '([.cells[]] | length > 0) and all(.cells[]; .status == "ok" and .counters.instructions_per_unit > 0)' "$r"
}

@test "explain refuses clang -O levels (no per-pass flags), cells differing twice, unknown cells" {
    FLAGBENCH_ROOT="$ROOT" "$FLAGBENCH" run --suite vecloop --dry-run --out "$BATS_TEST_TMPDIR/dry" >/dev/null 2>&1
    d="$BATS_TEST_TMPDIR/dry"
    # the same run as if clang had built it
    jq '.cells |= map(.id |= sub("@gcc/"; "@clang/") | .compiler = "clang")' "$d/results.json" > "$d/r.json"
    mkdir -p "$BATS_TEST_TMPDIR/clangrun"
    mv "$d/r.json" "$BATS_TEST_TMPDIR/clangrun/results.json"
    if command -v clang >/dev/null; then
        FLAGBENCH_ROOT="$ROOT" run "$FLAGBENCH" explain "$BATS_TEST_TMPDIR/clangrun" vecloop/dot@clang/-O2/default \
            vecloop/dot@clang/-O3/default --out "$BATS_TEST_TMPDIR/x"
        [ "$status" -eq 2 ]
        [[ "$output" == *"clang has no per-pass -O flags"*"only -march differences for clang"* ]]
    fi
    FLAGBENCH_ROOT="$ROOT" run "$FLAGBENCH" explain "$d" vecloop/dot@gcc/-O2/default vecloop/dot@gcc/-O3/x86-64-v3
    [ "$status" -eq 2 ]
    [[ "$output" == *"differ in both -O level and -march"* ]]
    FLAGBENCH_ROOT="$ROOT" run "$FLAGBENCH" explain "$d" vecloop/dot@gcc/-O2/default vecloop/dot@gcc/-O9/default
    [ "$status" -eq 2 ]
    [[ "$output" == *"no cell 'vecloop/dot@gcc/-O9/default'"* ]]
    run "$FLAGBENCH" explain "$d" onlyone
    [ "$status" -eq 2 ]
    [[ "$output" == *"usage: flagbench explain RUN_DIR CELL_A CELL_B"* ]]
}

@test "explain asks the comparison first: B not faster than A is said in its words, exit 0, nothing built" {
    FLAGBENCH_ROOT="$ROOT" "$FLAGBENCH" run --suite vecloop --dry-run --out "$BATS_TEST_TMPDIR/dry" >/dev/null 2>&1
    d="$BATS_TEST_TMPDIR/dry"
    # -O2 after -O3: B is the slower build, by every paired round
    FLAGBENCH_ROOT="$ROOT" run "$FLAGBENCH" explain "$d" vecloop/dot@gcc/-O3/default vecloop/dot@gcc/-O2/default \
        --out "$BATS_TEST_TMPDIR/x1" --cache "$BATS_TEST_TMPDIR/cache"
    [ "$status" -eq 0 ]
    [[ "$output" == *"B is not faster than A: "*"x ["*"] paired over 13 rounds: slower: nothing to attribute."* ]]
    [[ "$output" != *"Answer"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/x1" ]
    [ ! -e "$BATS_TEST_TMPDIR/cache" ]
    # two flag sets that change nothing: B's times are A's, give or take 1 % a round
    mkdir -p "$BATS_TEST_TMPDIR/eq"
    jq '([.cells[] | select(.id == "vecloop/dot@gcc/-O2/default") | .time_s.runs[]]) as $a
        | (.cells[] | select(.id == "vecloop/dot@gcc/-O3/default") | .time_s.runs)
          = ($a | to_entries | map(.value * (if .key % 2 == 0 then 1.01 else 0.99 end)))' "$d/results.json" \
        > "$BATS_TEST_TMPDIR/eq/results.json"
    FLAGBENCH_ROOT="$ROOT" run "$FLAGBENCH" explain "$BATS_TEST_TMPDIR/eq" vecloop/dot@gcc/-O2/default \
        vecloop/dot@gcc/-O3/default --out "$BATS_TEST_TMPDIR/x2"
    [ "$status" -eq 0 ]
    [[ "$output" == *"B is not faster than A: 1.010x [0.990x, 1.010x] paired over 13 rounds: inconclusive: nothing to attribute."* ]]
    [ ! -e "$BATS_TEST_TMPDIR/x2" ]
}

@test "explain: where valgrind cannot run a build, it falls back to time with a note" {
    needs_valgrind
    command -v hyperfine >/dev/null || skip "hyperfine is not installed"
    # a valgrind that fails whatever it is asked to run
    mkdir -p "$BATS_TEST_TMPDIR/bin"
    printf '#!/bin/sh\necho "valgrind: cannot run this" >&2\nexit 1\n' > "$BATS_TEST_TMPDIR/bin/valgrind"
    chmod +x "$BATS_TEST_TMPDIR/bin/valgrind"
    out="$BATS_TEST_TMPDIR/ex"
    PATH="$BATS_TEST_TMPDIR/bin:$PATH" FLAGBENCH_ROOT="$ROOT" run "$FLAGBENCH" explain "$RUN" \
        vecloop/dot@gcc/-O2/default vecloop/dot@gcc/-O3/default --out "$out" --cache "$CACHE" --runs 3
    [[ "$output" != *"(perf)"* ]] || skip "perf counts here: valgrind is not asked"
    [ "$status" -eq 0 ]
    [[ "$output" == *"metric: time (instructions could not be counted for vecloop/dot@gcc/-O2/default: "* ]]
    jqr '.explain.metric == "time_s"' "$out/results.json"
}

@test "the count line and the answer say which builds could not be counted and why, once per family" {
    # valgrind that cannot run the build (as 3.19 with AVX-512 under -march=native)
    bin="$BATS_TEST_TMPDIR/bin"
    mkdir -p "$bin"
    printf '#!/bin/sh\necho "vex amd64->IR: unhandled instruction bytes: 0x62 0xF1" >&2\nexit 1\n' > "$bin/valgrind"
    chmod +x "$bin/valgrind"
    out="$BATS_TEST_TMPDIR/r"
    FLAGBENCH_ROOT="$ROOT" PATH="$bin:$PATH" run "$FLAGBENCH" run --suite vecloop --out "$out" --cache "$CACHE" \
        --runs 1 --precision 0 --only '*/default'
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"(instructions under callgrind"* ]] || skip "this host counts with perf: valgrind is not asked"
    n=$(jq '[.cells[] | select(.counters.skipped)] | length' "$out/results.json")
    [ "$n" -gt 0 ]
    [[ "$output" == *"flagbench: counted 0 of $n in "*"; $n could not be counted"* ]]
    [ "$(grep -c '^flagbench: not counted in ' <<<"$output")" -eq 1 ]
    [[ "$output" == *"flagbench: not counted in vecloop ($n of $n builds): valgrind cannot run this build's instructions (-march="* ]]
    # the answer, which time decided, says it too, on the family's line
    [[ "$output" == *"instructions not counted ($n cells): valgrind cannot run this build's instructions"* ]]
}
