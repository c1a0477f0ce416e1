#!/usr/bin/env bats
# flagbench explain within a budget (issue 46): the search by halves, the
# journal written after every batch, --budget's end and an interrupt
# leaving the answer so far, --resume going on from it; a kept family with
# a dotfile giving the run's builds back from the cache; two compilers.
# On the tunable fixture with FAKECC_STEPS=one (tune_fixture.bash): -O3
# turns on eight flags and -ffixture-s6 alone carries the whole gap, so
# instruction counts (deterministic) name it in seven builds.

load helpers
load tune_fixture

setup_file() {
    export CACHE="$BATS_FILE_TMPDIR/cache"
    export PATH="$REPO/tests/fixtures/tune/bin:$PATH"
    export FAM="$REPO/tests/fixtures/tune"
    export FAKECC_STEPS=one
}

A=tunable/loop@fakecc/-O2/default
B=tunable/loop@fakecc/-O3/default

steps_run() { # OUT
    cat >"$BATS_TEST_TMPDIR/suite.json" <<J
{"name": "one", "variants": ["tunable/*"], "compilers": ["fakecc"], "opt": ["-O2", "-O3"], "march": ["default"],
 "family_dirs": ["$FAM"], "sizes": {"tunable": 20000}}
J
    run "$FLAGBENCH" run --suite "$BATS_TEST_TMPDIR/suite.json" --out "$1" --cache "$CACHE" --runs 3 --no-render \
        --no-counters
    [ "$status" -eq 0 ]
}

@test "explain --budget 3: the partial answer is written; --resume finishes it, measuring only what waits" {
    needs_tools
    steps_run "$BATS_TEST_TMPDIR/run"
    out="$BATS_TEST_TMPDIR/ex"
    run "$FLAGBENCH" explain "$BATS_TEST_TMPDIR/run" "$A" "$B" --metric instructions --out "$out" --cache "$CACHE" \
        --budget 3
    echo "$output"
    [ "$status" -eq 0 ]
    # the estimate up front: one build per flag against the search by halves
    [[ "$output" == *"8 candidate flags: one build per flag needs 9 builds; by halves about 7"*"the budget buys 3 builds"* ]]
    [[ "$output" == *"the budget is spent: the answer so far is in $out"* ]]
    r="$out/results.json"
    jqr '.explain.state == "budget" and .explain.builds == 3' "$r"
    jqr '.run.finished == false or .run.finished == null' "$r"
    # so far: all eight carry the gap together, s1..s4 change nothing, s5..s8 are left
    jqr '[.explain.groups[] | select(.state == "measured")] | length == 3' "$r"
    jqr '.explain.groups[0].share > 0.95 and .explain.groups[0].carries' "$r"
    jqr '[.explain.candidates[] | select(.finding == "changes nothing") | .flag] == ["-ffixture-s1", "-ffixture-s2", "-ffixture-s3", "-ffixture-s4"]' "$r"
    jqr '.explain.left == ["-ffixture-s5", "-ffixture-s6", "-ffixture-s7", "-ffixture-s8"]' "$r"
    jqr '(.groups | length) == 3' "$out/journal.json"
    grep -q "State: partial: the budget is spent" "$out/explain.md"
    run "$FLAGBENCH" explain --resume "$out" --cache "$CACHE"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"--resume: 3 groups measured already (3 builds), 2 waiting"* ]]
    # A and B from the cache, and four more groups: seven in all, not nine
    [[ "$output" == *"A and B built (compiled 0, cached 2, failed 0)"* ]]
    jqr '.explain.state == "complete" and .explain.builds == 7 and .explain.selected == ["-ffixture-s6"]' "$r"
    jqr '[.explain.groups[] | select(.resumed)] | length == 3' "$r"
    jqr '.explain.check.explained > 0.95 and .explain.left == []' "$r"
    [[ "$output" == *'**Answer**: `-ffixture-s6` carries most of the speedup.'* ]]
}

@test "explain interrupted in the search: exit 130, the answer so far, no timeout named; --resume goes on" {
    needs_tools
    steps_run "$BATS_TEST_TMPDIR/run"
    out="$BATS_TEST_TMPDIR/ex"
    # a compiler that takes two seconds: the signal comes in the second batch's builds;
    # a cache of its own, so no batch is found built by the test before (a cached
    # search ends before the signal can come)
    cache="$BATS_TEST_TMPDIR/cache"
    FAKECC_SLEEP=2 "$FLAGBENCH" explain "$BATS_TEST_TMPDIR/run" "$A" "$B" --metric instructions --out "$out" \
        --cache "$cache" >"$BATS_TEST_TMPDIR/ex.out" 2>&1 &
    pid=$!
    for _ in $(seq 1 600); do
        [ -s "$out/journal.json" ] && break
        sleep 0.1
    done
    [ -s "$out/journal.json" ] || { kill -KILL "$pid"; cat "$BATS_TEST_TMPDIR/ex.out"; false; }
    kill -INT "$pid"
    wait "$pid" && rc=0 || rc=$?
    cat "$BATS_TEST_TMPDIR/ex.out"
    [ "$rc" -eq 130 ]
    grep -q "explain interrupted: the answer so far is in $out" "$BATS_TEST_TMPDIR/ex.out"
    refute grep -q "timed out" "$BATS_TEST_TMPDIR/ex.out"
    jqr '.explain.state == "interrupted" and .run.interrupted == true' "$out/results.json"
    measured=$(jq '.groups | length' "$out/journal.json")
    [ "$measured" -ge 1 ]
    [ "$measured" -lt 7 ]
    run "$FLAGBENCH" explain --resume "$out" --cache "$cache"
    [ "$status" -eq 0 ]
    [[ "$output" == *"--resume: $measured groups measured already"* ]]
    jqr '.explain.state == "complete" and .explain.selected == ["-ffixture-s6"] and .explain.builds == 7' "$out/results.json"
}

@test "explain: a kept family with a dotfile and a dangling link gives the run's builds back (nothing compiled)" {
    command -v gcc >/dev/null || skip "gcc not installed"
    command -v hyperfine >/dev/null || skip "hyperfine not installed"
    fam="$BATS_TEST_TMPDIR/upper"
    cp -a "$REPO/tests/fixtures/outside/upper" "$fam"
    printf 'upper\n*.o\n' >"$fam/.gitignore"
    ln -s nowhere "$fam/dangling"
    cat >"$BATS_TEST_TMPDIR/suite.json" <<J
{"name": "dots", "variants": ["upper/loop"], "compilers": ["gcc"], "opt": ["-O1", "-O2"], "march": ["default"],
 "sizes": {"upper": 65536}}
J
    run "$FLAGBENCH" run --suite "$BATS_TEST_TMPDIR/suite.json" --family-dir "$fam" --out "$BATS_TEST_TMPDIR/run" \
        --cache "$BATS_TEST_TMPDIR/cache" --runs 3 --no-render --no-counters
    [ "$status" -eq 0 ]
    r="$BATS_TEST_TMPDIR/run"
    [ -f "$r/families/upper/.gitignore" ]
    [ -L "$r/families/upper/dangling" ]
    jqr '.families.upper.files[".gitignore"] | length == 64' "$r/results.json"
    jqr '.families.upper.files.dangling == "link"' "$r/results.json"
    # one walk copies and hashes: the family's hash is the one over the files' listed sha256s
    want=$(jq -r '.families.upper.files | to_entries | sort_by(.key) | map("\(.value)  \(.key)") | .[]' "$r/results.json" |
        sha256sum | cut -d' ' -f1)
    jqr --arg h "$want" '.families.upper.hash == $h' "$r/results.json"
    # the original goes: explain rebuilds from the kept copy alone
    mv "$fam" "$fam.gone"
    # B twice as fast as A in the record, steadily, so explain goes past its first question whatever the
    # machine's load
    jq '(.cells[] | select(.id == "upper/loop@gcc/-O1/default") | .time_s.runs) |= (to_entries | map(0.2 + 0.001 * .key))
        | (.cells[] | select(.id == "upper/loop@gcc/-O2/default") | .time_s.runs) |= (to_entries | map(0.1 + 0.001 * .key))' \
        "$r/results.json" >"$BATS_TEST_TMPDIR/r.json"
    mv "$BATS_TEST_TMPDIR/r.json" "$r/results.json"
    run "$FLAGBENCH" explain "$r" upper/loop@gcc/-O1/default upper/loop@gcc/-O2/default --cache "$BATS_TEST_TMPDIR/cache" \
        --budget 1 --runs 3 --out "$BATS_TEST_TMPDIR/ex"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"A and B built (compiled 0, cached 2, failed 0)"* ]]
    jqr '.explain.builds == 1 and (.explain.state == "budget" or .explain.state == "complete")' "$BATS_TEST_TMPDIR/ex/results.json"
}

@test "explain across compilers (dry run): what the compiler carries at the same flags and what the flags carry within each" {
    command -v clang >/dev/null || skip "clang not installed"
    root="$BATS_TEST_TMPDIR/root"
    make_vecloop_root "$root"
    jq '.compilers = ["gcc", "clang"] | .name = "vx"' "$root/configs/suites/vecloop.json" >"$root/configs/suites/vx.json"
    FLAGBENCH_ROOT="$root" run "$FLAGBENCH" run --suite vx --dry-run --out "$BATS_TEST_TMPDIR/dry"
    [ "$status" -eq 0 ]
    d="$BATS_TEST_TMPDIR/dry"
    # the made-up times: each pair in the order that makes B the faster one
    faster() { # CELL1 CELL2: "A B" with B the faster
        jq -r --arg x "$1" --arg y "$2" '[.cells[] | select(.id == $x or .id == $y)] | sort_by(-.time_s.median)
            | map(.id) | join(" ")' "$d/results.json"
    }
    read -r a b < <(faster vecloop/dot@gcc/-O2/default vecloop/dot@clang/-O2/default)
    FLAGBENCH_ROOT="$root" run "$FLAGBENCH" explain "$d" "$a" "$b" --dry-run --out "$BATS_TEST_TMPDIR/same"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"A and B have the same flags: the whole gap is the compiler's"*"at \`-O2/default\`"* ]]
    jqr '.explain.mode == "compilers" and .explain.cross.same_flags and .explain.cross.compiler_at_a.share > 0.99' \
        "$BATS_TEST_TMPDIR/same/results.json"
    read -r a b < <(faster vecloop/dot@gcc/-O3/default vecloop/dot@clang/-O2/default)
    FLAGBENCH_ROOT="$root" run "$FLAGBENCH" explain "$d" "$a" "$b" --dry-run --out "$BATS_TEST_TMPDIR/x"
    echo "$output"
    [ "$status" -eq 0 ]
    x="$BATS_TEST_TMPDIR/x/results.json"
    jqr '.explain.cross.same_flags == false and .explain.builds == 2' "$x"
    # X: A's compiler with B's flags, Y: B's with A's; each way the two steps make the whole gap
    jqr '.explain as $e | $e.cross.x | test("@" + ($e.a | capture("@(?<c>[a-z]+)/").c) + "/")' "$x"
    jqr '((.explain.cross.compiler_at_a.share + .explain.cross.flags_in_b.share) - 1 | fabs) < 0.01' "$x"
    jqr '((.explain.cross.flags_in_a.share + .explain.cross.compiler_at_b.share) - 1 | fabs) < 0.01' "$x"
    [[ "$output" == *"| the compiler at A's flags | A / Y"* ]]
    [[ "$output" == *"**Answer**: the compiler carries about "*"% of the gap, the flags about "* ]]
}

@test "an interrupt while an input file is made is reported as an interrupt, not as the input command's timeout" {
    command -v gcc >/dev/null || skip "gcc not installed"
    fam="$BATS_TEST_TMPDIR/upper"
    cp -a "$REPO/tests/fixtures/outside/upper" "$fam"
    printf '#!/bin/sh\nsleep 30\n' >"$fam/gen.sh"
    cat >"$BATS_TEST_TMPDIR/suite.json" <<J
{"name": "slowin", "variants": ["upper/loop"], "compilers": ["gcc"], "opt": ["-O2"], "march": ["default"], "sizes": {"upper": 1000}}
J
    "$FLAGBENCH" run --suite "$BATS_TEST_TMPDIR/suite.json" --family-dir "$fam" --out "$BATS_TEST_TMPDIR/run" \
        --cache "$BATS_TEST_TMPDIR/cache" --runs 3 --no-render --no-counters >"$BATS_TEST_TMPDIR/out" 2>&1 &
    pid=$!
    for _ in $(seq 1 600); do
        pgrep -f "sleep 30" -P "$(pgrep -d, -f "$fam/gen.sh" || echo 1)" >/dev/null && break
        sleep 0.1
    done
    kill -INT "$pid"
    wait "$pid" && rc=0 || rc=$?
    cat "$BATS_TEST_TMPDIR/out"
    [ "$rc" -eq 130 ]
    [ "$(cell_reason "$BATS_TEST_TMPDIR/run" upper/loop@gcc/-O2/default)" = "input command $fam/gen.sh interrupted" ]
}
