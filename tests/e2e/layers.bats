#!/usr/bin/env bats
# scripts/check-layers.sh: the harness's includes point down its layers.
load helpers

# Each fault is added to a small copy of the harness: the pipeline and report
# modules the tests touch, and core/runcmd.h, which they include from below
# (their other includes name no file there, and are not followed).  The
# script forks per include, seconds on the whole tree; the first test runs it
# there.  The copy passes before the fault is added: the fault is what fails.
setup() {
    TREE="$BATS_TEST_TMPDIR/tree"
    mkdir -p "$TREE/scripts" "$TREE/harness/core" "$TREE/harness/pipeline" "$TREE/harness/report"
    cp "$REPO/harness/core/runcmd.h" "$TREE/harness/core/"
    cp "$REPO/harness/pipeline/"{plan,build,verify}.[ch] "$TREE/harness/pipeline/"
    cp "$REPO/harness/report/model.h" "$TREE/harness/report/"
    cp "$REPO/scripts/check-layers.sh" "$TREE/scripts/"
    "$TREE/scripts/check-layers.sh" "$TREE" >"$BATS_TEST_TMPDIR/clean.out" ||
        { echo "the copied tree fails before any fault:"; cat "$BATS_TEST_TMPDIR/clean.out"; return 1; }
}

@test "the harness's includes point down, with no cycle" {
    run "$REPO/scripts/check-layers.sh"
    [ "$status" -eq 0 ]
    [[ "$output" == *"includes point down"* ]]
}

@test "an include of a layer above fails, naming file and line" {
    printf '#include "report/model.h"\n' >> "$TREE/harness/pipeline/plan.c"
    run "$TREE/scripts/check-layers.sh" "$TREE"
    [ "$status" -eq 1 ]
    [[ "$output" == *"harness/pipeline/plan.c:"*"includes report/model.h, a layer above (report over pipeline)"* ]]
}

@test "two modules of one layer that include each other are a cycle" {
    printf '#include "pipeline/verify.h"\n' >> "$TREE/harness/pipeline/build.h"
    printf '#include "pipeline/build.h"\n' >> "$TREE/harness/pipeline/verify.h"
    run "$TREE/scripts/check-layers.sh" "$TREE"
    [ "$status" -eq 1 ]
    [[ "$output" == *"include cycle between modules:"*"pipeline/build"* ]]
    [[ "$output" == *"pipeline/verify"* ]]
}

@test "a harness header named without its folder fails" {
    printf '#include "plan.h"\n' >> "$TREE/harness/pipeline/build.c"
    run "$TREE/scripts/check-layers.sh" "$TREE"
    [ "$status" -eq 1 ]
    [[ "$output" == *"harness/pipeline/build.c:"*"\"plan.h\" must be included by path"* ]]
}

@test "a folder that is not a layer fails" {
    mkdir -p "$TREE/harness/misc"
    printf 'int x;\n' > "$TREE/harness/misc/x.c"
    run "$TREE/scripts/check-layers.sh" "$TREE"
    [ "$status" -eq 1 ]
    [[ "$output" == *"harness/misc/x.c: folder misc is not a layer"* ]]
}
