#!/usr/bin/env bats
# The projects families (issue 14), slow tier: lz4 and Lua 5.4 fetched as
# Debian source packages (scripts/project-sources.sh, apt-get source) and
# built by their own Makefiles under gcc and clang; every cell ok, each
# checked (lz4 by a round trip, lua against the expected outputs), and the
# package version in results.json.

load ../e2e/helpers
bats_require_minimum_version 1.5.0

# sqlite, the third family of the projects suite, has a test of its own
# (tests/slow/sqlite.bats).  No sources, no test: the reason is kept for
# setup() (bats 1.8, Debian 12's, does not skip from setup_file)
setup_file() {
    "$REPO/scripts/project-sources.sh" lz4 lua >&2 ||
        echo "the Debian sources could not be fetched (apt-get source)" >"$BATS_FILE_TMPDIR/skip"
}

setup() {
    [ ! -f "$BATS_FILE_TMPDIR/skip" ] || skip "$(cat "$BATS_FILE_TMPDIR/skip")"
}

@test "projects: lz4 and lua built from their Debian sources run with every cell ok" {
    T="$BATS_TEST_TMPDIR"
    jq '.variants = ["lz4/*", "lua/*"] | .opt = ["-O2"] | .march = ["default"] | .runs = 1 | .warmup = 0 | .family_dirs = ["'"$REPO"'/variants-projects"]
        | .sizes = {"lz4": "4M", "lua/fib": 20, "lua/nbody": 1000, "lua/spectralnorm": 100, "lua/binarytrees": 8}' \
        "$REPO/configs/suites/projects.json" > "$T/suite.json"
    run "$FLAGBENCH" run --suite "$T/suite.json" --cache "$T/cache" --no-render --no-counters -o "$T/out"
    [ "$status" -eq 0 ]
    jqr '[.cells[] | .status] | length == 12 and all(. == "ok")' "$T/out/results.json"
    jqr '(.families.lz4.version | startswith("lz4 ")) and (.families.lua.version | startswith("lua5.4 "))' "$T/out/results.json"
}

@test "projects: a wrong expected output is a wrong_output named by the check" {
    T="$BATS_TEST_TMPDIR"
    cp -r "$REPO/variants-projects/lua" "$T/lua"
    echo 6766 > "$T/lua/expected/fib-20.txt"
    echo '{"name": "p", "variants": ["lua/fib"], "compilers": ["gcc"], "opt": ["-O2"], "march": ["default"], "sizes": {"lua/fib": 20}, "runs": 1, "warmup": 0}' > "$T/s.json"
    run "$FLAGBENCH" run --suite "$T/s.json" --family-dir "$T/lua" --cache "$T/cache" --no-render --no-counters -o "$T/out"
    [ "$status" -eq 1 ]
    jqr '.cells[0].status == "wrong_output" and (.cells[0].reason | contains("differs from expected/fib-20.txt"))' "$T/out/results.json"
}
