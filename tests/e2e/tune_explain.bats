#!/usr/bin/env bats
# flagbench explain (split from tune.bats to run beside it) on the tunable
# fixture (tune_fixture.bash).

load helpers
load tune_fixture

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
