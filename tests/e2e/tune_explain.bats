#!/usr/bin/env bats
# flagbench explain (split from tune.bats to run beside it) on the tunable fixture, built by fakecc
# (tests/fixtures/tune/bin/fakecc): gcc with a made-up flag space of five
# flags and a --param, where exactly one flag (-ffixture-fast) changes the
# instruction count, one crashes the compiler, one makes the output wrong and
# the rest give the same binary.  Instruction counts under callgrind are
# deterministic, so what is found and named cannot flake; the confirmation
# times with hyperfine.  The searches on real families are in bench/tune.sh.

load helpers

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

@test "explain: a gap no single flag carries is searched for the flags that carry it together" {
    needs_tools
    export FAKECC_STEPS=1
    suite="$BATS_TEST_TMPDIR/suite.json"
    cat >"$suite" <<J
{"name": "steps", "variants": ["tunable/*"], "compilers": ["fakecc"], "opt": ["-O2", "-O3"], "march": ["default"],
 "family_dirs": ["$FAM"], "sizes": {"tunable": 20000}}
J
    run "$FLAGBENCH" run --suite "$suite" --out "$BATS_TEST_TMPDIR/run" --cache "$CACHE" --runs 6 --no-render --no-counters
    [ "$status" -eq 0 ]
    out="$BATS_TEST_TMPDIR/ex"
    run "$FLAGBENCH" explain "$BATS_TEST_TMPDIR/run" tunable/loop@fakecc/-O2/default tunable/loop@fakecc/-O3/default \
        --metric instructions --out "$out" --cache "$CACHE"
    echo "$output"
    [ "$status" -eq 0 ]
    r="$out/results.json"
    # eight flags, an eighth of the work each: the top three explain part of the gap only
    jqr '.explain.check.explained < 0.95' "$r"
    jqr '.explain.joint.from == 8 and (.explain.joint.flags | length) == 8 and .explain.joint.share > 0.95' "$r"
    [[ "$output" == *"**Together**: "*"carry 100% of the gap"* ]]
}
