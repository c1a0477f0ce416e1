# Shared set-up for the end-to-end tests. FLAGBENCH is the harness under test
# (make e2e passes the plain build, or the ASan/UBSan one for the files in
# the Makefile's E2E_SAN, and make test-slow that one for all); REPO is the checkout.
REPO="$(cd "$(dirname "${BATS_TEST_FILENAME}")/../.." && pwd)"
FLAGBENCH="${FLAGBENCH:-$REPO/build/flagbench}"
export FLAGBENCH_ROOT="$REPO"
# make test is the fast tier; make test-slow sets FLAGBENCH_TIER=slow, and
# the tests that have one widen their matrix (every build, every case)
slow_tier() { [ "${FLAGBENCH_TIER:-fast}" = slow ]; }
# The checker for mass checks of variant output: the plain build when make
# gives one (thousands of ASan starts are the slowest part of the suite; the
# checkers run under ASan in the unit tests and the other e2e tests).
CHECKER="${FLAGBENCH_PLAIN:-$FLAGBENCH}"
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
    cp -r "$REPO/tests/fixtures/families/"* "$root/variants/"
    ln -sfn "$REPO/plots" "$root/plots" # flagbench run renders through plots/render.sh
}

# A folder of links to every program on PATH but the ones named: a PATH
# without hyperfine, jq or gnuplot.
path_without() { # DIR TOOL...
    local dir="$1" d t
    shift
    mkdir -p "$dir"
    for d in ${PATH//:/ }; do
        [ -d "$d" ] || continue
        cp -sn "$d"/* "$dir/" 2>/dev/null || true
    done
    for t in "$@"; do rm -f "$dir/$t"; done
    return 0
}

# jq on a results file, failing the test on a jq error
jqr() { jq -e "$@"; }

# The command must fail (a `! cmd` in the middle of a test never fails it:
# bash ignores `!` for errexit).
refute() {
    if "$@"; then
        echo "expected to fail, but succeeded: $*"
        return 1
    fi
}

# A run folder DIR holding only a copy of fixture FILE of tests/fixtures/results.
stage() { # FILE DIR
    mkdir -p -- "$2"
    cp -- "$REPO/tests/fixtures/results/$1" "$2/results.json"
}

# The host's cpu flags include all of these (as /proc/cpuinfo spells them).
host_has_cpu() {
    local f have
    have=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
    for f in "$@"; do
        case "$have" in *" $f "*) ;; *) return 1 ;; esac
    done
}

# results.json parses, has the schema, and every cell a status; the journal
# has one parseable line per finished cell (a torn last line is allowed only
# when the second argument is "torn-ok").
results_intact() { # DIR [torn-ok]
    local dir="$1" n=0 line
    jq -e '.schema == "flagbench-results/1" and (.cells | type == "array")
           and all(.cells[]; .status | type == "string")' "$dir/results.json" >/dev/null ||
        { echo "results.json of $dir is not valid"; return 1; }
    # every line a cell, read by one jq (not one a line): the first that is
    # not, as "N<TAB>line"; a torn line is allowed anywhere with torn-ok
    if [ -e "$dir/journal.jsonl" ] && [ "${2:-}" != torn-ok ]; then
        line=$(jq -n -R -r 'foreach inputs as $l (0; . + 1; . as $n
                   | $l | try (fromjson | if (.id and .status) then empty else error("not a cell") end) catch "\($n)\t\($l)")' \
                   "$dir/journal.jsonl" | head -n 1)
        if [ -n "$line" ]; then
            n=${line%%$'\t'*}
            echo "journal line $n of $dir is not a cell: ${line#*$'\t'}"
            return 1
        fi
    fi
    # no temporary results file left behind (a kill -9 may leave one; the
    # next run on the folder removes it)
    if [ "${2:-}" != torn-ok ] && compgen -G "$dir/results.json.tmp.*" >/dev/null; then
        echo "a temporary results file is left in $dir"
        return 1
    fi
}

# The status and the reason of one cell of a results.json.
cell_status() { jq -r --arg id "$2" '.cells[] | select(.id == $id) | .status' "$1/results.json"; }
cell_reason() { jq -r --arg id "$2" '.cells[] | select(.id == $id) | .reason' "$1/results.json"; }

# The CPUs in this process's Cpus_allowed_list ("0-3,8"), one a line.
allowed_cpus() {
    local range list
    list=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
    for range in ${list//,/ }; do
        seq "${range%-*}" "${range#*-}"
    done
}

# CPU is in this process's Cpus_allowed_list.
cpu_allowed() {
    allowed_cpus | grep -qx "$1" && return 0
    echo "cpu $1 is not in the allowed list $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)"
    return 1
}

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

# The abwork fixture family in a root of its own, with SHARE percent more
# work, and its suite ab (compare.bats, tests/slow/compare.bats).
abwork_root() {
    local root="$1" share="$2"
    mkdir -p "$root/configs/suites" "$root/variants"
    cp -r "$REPO/configs/cpus" "$root/configs/"
    cp -r "$REPO/tests/fixtures/families/abwork" "$root/variants/"
    jq --arg s "$share" '.args = [$s]' "$REPO/tests/fixtures/families/abwork/family.json" \
        > "$root/variants/abwork/family.json"
    echo '{"name": "ab", "variants": ["abwork/*"], "compilers": ["gcc"], "opt": ["-O1", "-O2"],
           "march": ["default"], "sizes": {"abwork": 4000}, "runs": 3, "warmup": 0}' \
        > "$root/configs/suites/ab.json"
}
