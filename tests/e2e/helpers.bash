# Shared set-up for the end-to-end tests. FLAGBENCH is the harness under test
# (make e2e passes the ASan/UBSan build); REPO is the checkout.
REPO="$(cd "$(dirname "${BATS_TEST_FILENAME}")/../.." && pwd)"
FLAGBENCH="${FLAGBENCH:-$REPO/build/flagbench}"
export FLAGBENCH_ROOT="$REPO"
# leaks in short-lived commands are not findings; everything else is
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"

# A project root of its own: the repo's configs and yes variants plus the
# fixture families, so failures can be staged without touching the repo.
make_fixture_root() {
    local root="$1"
    mkdir -p "$root/configs/suites" "$root/variants"
    cp -r "$REPO/configs/cpus" "$root/configs/"
    cp "$REPO/configs/suites/"*.json "$root/configs/suites/"
    cp "$REPO/tests/fixtures/configs/"*.json "$root/configs/suites/"
    cp -r "$REPO/variants/yes" "$root/variants/"
    cp -r "$REPO/tests/fixtures/families/broken" "$root/variants/"
}

# jq on a results file, failing the test on a jq error
jqr() { jq -e "$@"; }

# A project root with the vecloop and broken fixture families and the
# vecloop suite (compilers.bats, explain.bats; suites written by a test go
# in $root/configs/suites too).
make_vecloop_root() {
    local root="$1"
    mkdir -p "$root/configs/suites" "$root/variants"
    cp -r "$REPO/configs/cpus" "$root/configs/"
    cp "$REPO/tests/fixtures/configs/vecloop.json" "$root/configs/suites/"
    cp -r "$REPO/tests/fixtures/families/vecloop" "$REPO/tests/fixtures/families/broken" "$root/variants/"
}
