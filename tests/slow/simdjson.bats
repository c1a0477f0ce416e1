#!/usr/bin/env bats
# simdjson (issue 47), slow tier: the C++ project of the projects suite,
# fetched as the Debian source package (scripts/project-sources.sh), its
# 47,500-line amalgamation built by its Makefile with g++ and clang++; every
# cell ok (the summary checked by its sha256) and the package version in
# results.json.

load ../e2e/helpers
bats_require_minimum_version 1.5.0

setup_file() {
    "$REPO/scripts/project-sources.sh" simdjson >&2 ||
        echo "the Debian source could not be fetched (apt-get source simdjson)" >"$BATS_FILE_TMPDIR/skip"
}

setup() {
    [ ! -f "$BATS_FILE_TMPDIR/skip" ] || skip "$(cat "$BATS_FILE_TMPDIR/skip")"
}

@test "simdjson: built from its Debian source with g++ and clang++, every cell ok and checked" {
    T="$BATS_TEST_TMPDIR"
    jq '.variants = ["simdjson/*"] | .opt = ["-O2"] | .march = ["default"] | .runs = 1 | .warmup = 0 | .family_dirs = ["'"$REPO"'/variants-projects"]
        | .sizes = {"simdjson": 1000}' "$REPO/configs/suites/projects.json" > "$T/suite.json"
    # one compile of the amalgamation is minutes on a loaded 2-vCPU VM
    run "$FLAGBENCH" run --suite "$T/suite.json" --cache "$T/cache" --build-timeout 1200 --no-render --no-counters -o "$T/out"
    [ "$status" -eq 0 ]
    r="$T/out/results.json"
    jqr '[.cells[] | [.config, .status, .language]] == [["g++/-O2/default", "ok", "c++"], ["clang++/-O2/default", "ok", "c++"]]' "$r"
    jqr '.families.simdjson.version | startswith("simdjson ")' "$r"
}
