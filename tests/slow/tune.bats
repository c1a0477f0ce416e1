#!/usr/bin/env bats
# The slow tier of tests/e2e/tune.bats: the page rendered from a tune, and a
# tune started from a run (session.bats starts tune from runs of a same_as
# and an own-build family in the fast tier); the tunable fixture of
# tests/e2e/tune_fixture.bash.

load ../e2e/helpers
load ../e2e/tune_fixture

@test "tune: the page and the convergence plot, from results.json alone (plots/tune.sh)" {
    needs_tools
    command -v jq >/dev/null || skip "jq not installed (the page)"
    command -v gnuplot >/dev/null || skip "gnuplot not installed (the plot)"
    out="$BATS_TEST_TMPDIR/p"
    run "$FLAGBENCH" tune tunable/loop --compiler fakecc --family-dir "$FAM" --march default --cache "$CACHE" \
        --out "$out" --metric instructions --budget 9 --technique ensemble,random
    [ "$status" -eq 0 ]
    [ -s "$out/convergence.svg" ]
    grep -q '<svg' "$out/convergence.svg"
    grep -q 'ensemble' "$out/convergence.svg"
    grep -q 'random' "$out/convergence.svg"
    grep -q 'CFLAGS=&quot;-O2 -ffixture-fast&quot;\|CFLAGS="-O2 -ffixture-fast"' "$out/index.html"
    grep -q 'convergence.svg' "$out/index.html"
    # rendering again from the folder alone gives the same page
    cp "$out/index.html" "$BATS_TEST_TMPDIR/first.html"
    run bash "$REPO/plots/tune.sh" "$out"
    [ "$status" -eq 0 ]
    cmp "$out/index.html" "$BATS_TEST_TMPDIR/first.html"
    run bash "$REPO/plots/tune.sh" "$BATS_TEST_TMPDIR"
    [ "$status" -eq 2 ]
    browser=$(command -v chromium || command -v chromium-browser || true)
    if [ -n "$browser" ]; then
        # the page loads in a browser with no console message (a blocked image, a script)
        run timeout 60 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$BATS_TEST_TMPDIR/profile" \
            --enable-logging=stderr --v=0 --screenshot="$BATS_TEST_TMPDIR/tune.png" --window-size=1280,1600 \
            "file://$out/index.html"
        [ "$status" -eq 0 ]
        [ -s "$BATS_TEST_TMPDIR/tune.png" ]
        refute grep -q 'CONSOLE' <<<"$output"
    fi
}

@test "tune RUN CELL: starts from a measured cell of a run, with its compiler, -O and size" {
    needs_tools
    suite="$BATS_TEST_TMPDIR/suite.json"
    cat >"$suite" <<J
{"name": "tune-start", "variants": ["tunable/*"], "compilers": ["fakecc"], "opt": ["-O2"], "march": ["default"],
 "family_dirs": ["$FAM"], "sizes": {"tunable": 2000}}
J
    run "$FLAGBENCH" run --suite "$suite" --out "$BATS_TEST_TMPDIR/run" --cache "$CACHE" --runs 3 --no-render --no-counters
    [ "$status" -eq 0 ]
    out="$BATS_TEST_TMPDIR/fromrun"
    run "$FLAGBENCH" tune "$BATS_TEST_TMPDIR/run" 'tunable/loop@fakecc/-O2/default' --cache "$CACHE" --out "$out" \
        --metric instructions --budget 9 --no-render
    echo "$output"
    [ "$status" -eq 0 ]
    jqr '.start.id == "tunable/loop@fakecc/-O2/default" and .start.compiler == "fakecc"' "$out/results.json"
    jqr '.minimal.flags == ["-ffixture-fast"]' "$out/results.json"
    run "$FLAGBENCH" tune "$BATS_TEST_TMPDIR/run" 'tunable/loop@fakecc/-O9/default'
    [ "$status" -eq 2 ]
    [[ "$output" == *"no cell 'tunable/loop@fakecc/-O9/default'"* ]]
}
