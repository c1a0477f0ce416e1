#!/usr/bin/env bats
# flagbench explain (split from tune.bats to run beside it) on the tunable
# fixture (tune_fixture.bash).

load helpers
load tune_fixture

@test "explain: a gap that eight flags share is searched by halves down to each of them" {
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
    # eight flags, an eighth of the work each: all eight together carry the gap, each a part of it,
    # so the search goes down every half (15 builds) and the top three explain part of the gap only
    jqr '.explain.groups[0].share > 0.95 and .explain.builds == 16' "$r"
    jqr '[.explain.candidates[] | select(.finding == "carries")] | length == 8' "$r"
    jqr '(.explain.selected | length) == 3 and .explain.check.explained < 0.95' "$r"
    [[ "$output" == *"**All that carry**: 8 flags carry the gap each"*"B without every candidate flag: 100% of the gap"* ]]
}
