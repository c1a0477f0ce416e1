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

@test "tune: the one flag that matters is found, minimised to, named with its share, and confirmed by time" {
    needs_tools
    out="$BATS_TEST_TMPDIR/t"
    run tune "$out" --budget 24 --technique ensemble,random
    echo "$output"
    [ "$status" -eq 0 ]
    r="$out/results.json"
    jqr '.kind == "flagbench-tune" and .metric == "instructions"' "$r"
    jqr '.minimal.flags == ["-ffixture-fast"]' "$r"
    jqr '.minimal.shares[0].flag == "-ffixture-fast" and .minimal.shares[0].share > 0.9' "$r"
    jqr '.minimal.best_ratio < 0.2' "$r"
    # the crash is a failed build, the wrong output rejected, never measured
    jqr '[.candidates[] | select(.flags | test("-ffixture-crash"))] | length > 0 and all(.status == "build_failed")' "$r"
    jqr '[.candidates[] | select((.flags | test("-ffixture-wrong")) and (.flags | test("crash") | not))] | length > 0 and all(.status == "wrong_output")' "$r"
    # the flags that change nothing give the same binary: never measured twice
    jqr '[.candidates[] | select(.same_binary_as != null)] | length > 0' "$r"
    jqr '[.candidates[] | select(.status == "ok" and .same_binary_as == null) | .sha256] | (length == (unique | length))' "$r"
    # both techniques ran at the same budget, side by side
    jqr '[.techniques[] | .technique] == ["ensemble", "random"] and ([.techniques[]] | length > 0) and all(.techniques[]; .candidates == 24)' "$r"
    # the answer comes from the comparison of times, and it is a real lead
    jqr '.answer.better == true and .answer.flags == "-ffixture-fast" and .answer.vs_start.verdict == "faster"' "$r"
    jqr '.answer.cflags | test("-O2 -ffixture-fast$")' "$r"
    [[ "$output" == *"Answer: -ffixture-fast ("*"minimal"*") is "*"faster than the start -O2"* ]]
    # random's best (the same binary, with a param that changes nothing) is one line with it, timed once
    jqr '[.confirmation.builds[] | select(.build | test("minimal"))] | length == 1 and (.[0].build | test("random"))' "$r"
    [[ "$output" == *'CFLAGS="-O2 -ffixture-fast"'* ]]
    [ -s "$out/tune.md" ]
    [ -s "$out/convergence.tsv" ]
}
