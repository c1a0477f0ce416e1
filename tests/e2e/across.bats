#!/usr/bin/env bats
# The answers across machines (report/model_across.h): `flagbench tables RUN...`
# in every format and the published site, on fixtures whose answers are known
# (tests/fixtures/results/across.sh): chacha20 on 5700X, J4205 and 2700, every
# cell 15 runs in 15 rounds.
#   base  gcc's -O3 against -O2 flips: 1.16x on 5700X, 0.58x on J4205
#   rotl  the machines agree (clang/-O3/native fastest everywhere)
#   simd  the portable choice is no machine's fastest, and the build of the
#         best mean loss (gcc/-O2/x86-64-v2) is not the one of the best worst
#         loss (clang/-O2/x86-64-v2); on 2700 clang/-O2/x86-64-v2 timed out
load helpers

FIX="$REPO/tests/fixtures/results"
A="$FIX/across-5700x.json" B="$FIX/across-j4205.json" C="$FIX/across-2700.json"

setup_file() {
    "$FLAGBENCH" tables --format json "$FIX/across-5700x.json" "$FIX/across-j4205.json" >"$BATS_FILE_TMPDIR/two.json"
    "$FLAGBENCH" tables --format json "$FIX/across-5700x.json" "$FIX/across-j4205.json" "$FIX/across-2700.json" \
        >"$BATS_FILE_TMPDIR/three.json"
}

# jq -e over the view of two (two) or three (three) machines
across() { # two|three FILTER
    jq -e ".families[] | select(.name == \"chacha20\") | .across | $2" "$BATS_FILE_TMPDIR/$1.json"
}

@test "the fixtures are what across.sh makes from the stored runs" {
    "$FIX/across.sh" "$BATS_TEST_TMPDIR"
    for f in across-5700x.json across-j4205.json across-2700.json; do
        cmp "$FIX/$f" "$BATS_TEST_TMPDIR/$f"
    done
}

@test "each machine's fastest build is the one its own run names, at the view's level" {
    across two '.machines == ["5700X", "J4205"]'
    across two '.comparisons > 100 and .level > 0.95 and .level < 1'
    for run in "$A" "$B"; do
        label=$(jq -r .run.cpu_profile "$run")
        for v in base rotl simd; do
            own=$("$FLAGBENCH" tables --format json "$run" | jq -r --arg v "$v" '.families[0].answers[] | select(.variant == $v) | .leader')
            [ -n "$own" ]
            across two ".variants[] | select(.variant == \"$v\") | .machines[] | select(.machine == \"$label\") | .leader == \"$own\""
        done
    done
    # a lead is real exactly when its interval excludes 1.00x
    across two '[.variants[].machines[] | select(.low != null) | (.verdict == "faster") == (.low > 1)] | length > 0 and all'
    across two '[.variants[].portable.losses[] | select(.low != null) | (.verdict == "slower") == (.high < 1)] | length > 0 and all'
}

@test "a gap that flips: gcc -O3 against -O2 on base, 1.16x on 5700X and 0.58x on J4205: depends on the machine" {
    across two '.variants[] | select(.variant == "base") | .agree == false'
    across two '.variants[] | select(.variant == "base") | .flips[0].gap == "-O3 against -O2 (gcc/x86-64-v2)"'
    across two '.variants[] | select(.variant == "base") | .flips[0].on | map(.verdict) == ["faster", "slower"]'
    across two '.gaps[0].kind == "flips"'
    run "$FLAGBENCH" tables --width 0 "$A" "$B"
    [ "$status" -eq 0 ]
    grep -qF 'depends on the machine: -O3 against -O2 (gcc/x86-64-v2): 1.16x on 5700X, 0.58x on J4205' <<<"$output"
    # the answers come before the tables
    first_answer=$(grep -n 'the answers across machines' <<<"$output" | cut -d: -f1)
    first_table=$(grep -n 'ChaCha20: throughput on each machine' <<<"$output" | cut -d: -f1)
    [ "$first_answer" -lt "$first_table" ]
}

@test "where all agree: rotl, clang/-O3/native fastest on every machine, no gap flips" {
    for n in two three; do
        across $n '.variants[] | select(.variant == "rotl") | .agree and .same_leader and (.flips | length) == 0'
        across $n '.variants[] | select(.variant == "rotl") | [.machines[].leader] | unique == ["clang/-O3/native"]'
        # native is each machine's own code: the portable choice is the same flags for x86-64-v2
        across $n '.variants[] | select(.variant == "rotl") | .portable.config == "clang/-O3/x86-64-v2"'
    done
    across three '.summary | test("agree on 1 of 3 variants")'
}

@test "the portable choice minimises the worst loss, not the mean, and is no machine's fastest" {
    across two '.variants[] | select(.variant == "simd") | .portable.config == "clang/-O2/x86-64-v2"'
    across two '.variants[] | select(.variant == "simd") | .portable.config as $p | [.machines[].leader] | index($p) == null'
    across two '.variants[] | select(.variant == "simd") | .portable.worst > 0.80 and .portable.worst < 0.82 and .portable.worst_machine == "5700X"'
    # the build the mean would take, from the same view's throughput table: another one
    jq -e '.families[0] | (.tables[] | select(.name == "throughput")) as $t
        | [$t.rows[] | select(.label == "simd")] as $rows
        | [range(0; $t.columns | length) as $k | [$rows[] | .cells[$k].value] | max] as $best
        | [$rows[] | select(.title | test("x86-64-v2$")) | {c: .title, mean: ([range(0; $best | length) as $k | .cells[$k].value / $best[$k]] | add / length), worst: ([range(0; $best | length) as $k | .cells[$k].value / $best[$k]] | min)}]
        | (max_by(.mean).c == "gcc/-O2/x86-64-v2") and (max_by(.worst).c == "clang/-O2/x86-64-v2")' "$BATS_FILE_TMPDIR/two.json"
    across two '.variants[] | select(.variant == "simd") | .portable.losses | map(.best) == [false, false]'
    across two '.variants[] | select(.variant == "simd") | .portable.contrast | test("the best on 5700X, gcc/-O3/native \\(each machine.s own build\\), loses 29 % on J4205")'
    run "$FLAGBENCH" tables --width 0 "$A" "$B"
    [ "$status" -eq 0 ]
    grep -qE '^    portable: clang/-O2/x86-64-v2: within 20 % of the best on both: 0\.808x \[[0-9.]+x, [0-9.]+x\] on 5700X, 0\.920x' <<<"$output"
}

@test "-march=native and a -march one machine lacks are never the portable choice; every left-out build is named" {
    across three '[.variants[].portable.config | select(. != null) | test("native")] | any | not'
    across three '.note | test("-march=native is each machine.s own code")'
    # x86-64-v3: unsupported on J4205, so no candidate, and said so
    across two '.variants[] | select(.variant == "base") | [.portable.left_out[] | select(.machine == "J4205" and .status == "unsupported") | .config] == ["gcc/-O2/x86-64-v3", "gcc/-O3/x86-64-v3", "clang/-O2/x86-64-v3", "clang/-O3/x86-64-v3"]'
}

@test "a cell failed on one machine: named, and the choice moves to the best build measured everywhere" {
    across three '.variants[] | select(.variant == "simd") | .portable.config == "clang/-O3/x86-64-v2"'
    across three '.variants[] | select(.variant == "simd") | [.portable.left_out[] | select(.machine == "2700")] == [{"config": "clang/-O2/x86-64-v2", "machine": "2700", "status": "timeout"}]'
    across three '.variants[] | select(.variant == "simd") | .portable.losses | length == 3'
    run "$FLAGBENCH" tables --width 0 "$A" "$B" "$C"
    [ "$status" -eq 0 ]
    grep -qF 'left out, not measured ok on every machine: unsupported on J4205: gcc/-O2/x86-64-v3, gcc/-O3/x86-64-v3, clang/-O2/x86-64-v3, clang/-O3/x86-64-v3; timeout on 2700: clang/-O2/x86-64-v2' <<<"$output"
    grep -qF '2700   fastest clang/-O3/x86-64-v3' <<<"$output"
}

@test "runs of other sizes or suites: compared only where they match, and said which" {
    jq '.run.suite = "quick" | .cells |= map(if .variant == "rotl" then .size = 2000000 else . end)' "$B" >"$BATS_TEST_TMPDIR/other.json"
    "$FLAGBENCH" tables --format json "$A" "$BATS_TEST_TMPDIR/other.json" >"$BATS_TEST_TMPDIR/v.json"
    jq -e '.families[0].across.note | test("runs of different suites \\(across on 5700X and quick on J4205\\): compared only where the family, the variant and its size match")' "$BATS_TEST_TMPDIR/v.json"
    jq -e '.families[0].across.variants[] | select(.variant == "rotl") | .skipped == "not compared across machines: its sizes differ (1000000 on 5700X, 2000000 on J4205)" and .portable == null' "$BATS_TEST_TMPDIR/v.json"
    jq -e '.families[0].across.variants[] | select(.variant == "base") | .skipped == null and .portable.config == "gcc/-O2/x86-64-v2"' "$BATS_TEST_TMPDIR/v.json"
    # a machine's run without a variant: the others are compared, it is named
    jq '.cells |= map(select(.variant != "simd"))' "$C" >"$BATS_TEST_TMPDIR/nosimd.json"
    "$FLAGBENCH" tables --format json "$A" "$B" "$BATS_TEST_TMPDIR/nosimd.json" >"$BATS_TEST_TMPDIR/w.json"
    jq -e '.families[0].across.variants[] | select(.variant == "simd") | (.machines | length) == 2 and (.words | test("2700.s run has no cell of it")) and .portable.config == "clang/-O2/x86-64-v2"' "$BATS_TEST_TMPDIR/w.json"
    # one run: no answers across machines
    "$FLAGBENCH" tables --format json "$A" | jq -e '.families[0].across == null'
}

@test "Markdown and the published site open with the answers across machines" {
    run "$FLAGBENCH" tables --format md "$A" "$B"
    [ "$status" -eq 0 ]
    grep -qxF '## Answers across machines' <<<"$output"
    grep -qF -- '- portable: clang/-O2/x86-64-v2: within 20 % of the best on both' <<<"$output"
    for r in a b c; do mkdir -p "$BATS_TEST_TMPDIR/$r"; done
    cp "$A" "$BATS_TEST_TMPDIR/a/results.json"
    cp "$B" "$BATS_TEST_TMPDIR/b/results.json"
    cp "$C" "$BATS_TEST_TMPDIR/c/results.json"
    FLAGBENCH_RENDER_QUIET=1 run "$REPO/plots/publish.sh" "$BATS_TEST_TMPDIR/site" "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b" "$BATS_TEST_TMPDIR/c"
    [ "$status" -eq 0 ]
    page="$BATS_TEST_TMPDIR/site/index.html"
    across_at=$(grep -n 'id="across"' "$page" | cut -d: -f1)
    runs_at=$(grep -n '<h2>Runs</h2>' "$page" | cut -d: -f1)
    [ -n "$across_at" ]
    [ "$across_at" -lt "$runs_at" ]
    grep -qF '<th>fastest on 5700X</th><th>fastest on J4205</th><th>fastest on 2700</th>' "$page"
    grep -qF 'clang/-O3/x86-64-v2: within 21 % of the best on every machine' "$page"
    grep -qF 'timeout on 2700: clang/-O2/x86-64-v2' "$page"
}
