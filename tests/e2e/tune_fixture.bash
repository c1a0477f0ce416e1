# The tunable fixture of tune.bats, tune_explain.bats and slow/tune.bats,
# loaded after helpers.  tests/fixtures/tune/bin/fakecc is gcc with a
# made-up flag space of five flags and a --param, where exactly one flag
# (-ffixture-fast) changes the instruction count, one crashes the compiler,
# one makes the output wrong and the rest give the same binary.
# Instruction counts under callgrind are deterministic, so what is found and
# named cannot flake; the confirmation times with hyperfine.  The searches on
# real families are in bench/tune.sh.

setup_file() {
    export CACHE="$BATS_FILE_TMPDIR/cache"
    export PATH="$REPO/tests/fixtures/tune/bin:$PATH"
    export FAM="$REPO/tests/fixtures/tune"
}

needs_tools() {
    command -v valgrind >/dev/null || skip "valgrind not installed (instruction counts)"
    command -v hyperfine >/dev/null || skip "hyperfine not installed (the confirmation)"
    command -v gcc >/dev/null || skip "gcc not installed (fakecc wraps it)"
}

tune() { # OUT ARGS...
    local out="$1"
    shift
    "$FLAGBENCH" tune tunable/loop --compiler fakecc --family-dir "$FAM" --march default --cache "$CACHE" \
        --out "$out" --metric instructions --no-render "$@"
}
