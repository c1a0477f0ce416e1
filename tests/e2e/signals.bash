# A signal in one phase of a run, then --resume: shared by the fast tier
# (tests/e2e/signals.bats: each signal and each phase once) and the slow
# tier (tests/slow/signals.bats: every signal in every phase), with their
# set-up: a project root of fixtures (make_fixture_root).

setup_file() {
    export ROOT="$BATS_FILE_TMPDIR/root"
    make_fixture_root "$ROOT"
}

# helpers.bash points FLAGBENCH_ROOT at the repo for every test
setup() {
    export FLAGBENCH_ROOT="$ROOT"
}

# A compiler that takes a second, then is gcc: the build phase lasts.
make_slowcc() { # DIR
    mkdir -p "$1"
    cat >"$1/fb-slowcc" <<'SH'
#!/bin/sh
[ "$1" = --version ] && exec gcc --version
sleep 1
exec gcc "$@"
SH
    chmod +x "$1/fb-slowcc"
}

# Waits (at most 30 s) until the run in OUT is in PHASE: build, verify,
# measure or cooldown.
wait_for_phase() { # phase out cache
    local i
    for i in $(seq 1 1500); do
        case "$1" in
        build) pgrep -f "gcc .*-o $3/" >/dev/null && return 0 ;;
        verify) pgrep -f "^$3/.*/slow 2000( |$)" >/dev/null && ! pgrep -f "hyperfine.*$2" >/dev/null && return 0 ;;
        measure) pgrep -f "meter .*$3/.*/slow" >/dev/null && return 0 ;;
        cooldown) pgrep -f "cooldown --seconds=3" >/dev/null && return 0 ;;
        esac
        sleep 0.02
    done
    echo "the run never reached the $1 phase"
    return 1
}

# Runs the faults-phases suite, sends SIG in PHASE, and checks: exit 130,
# results.json and journal whole, no process left; then --resume runs only
# the cells not done, leaving the done ones as they were.  Both runs take
# --precision 0: the suite's 3 runs a cell (0.3 s each for faults/slow, the
# measure phase still lasts), not the 13 or more of the default target.
signal_in_phase() { # phase signal
    local phase="$1" sig="$2" out="$BATS_TEST_TMPDIR/$1-$2" cache="$BATS_TEST_TMPDIR/cache-$1-$2"
    local bin="$BATS_TEST_TMPDIR/bin" cool=0 pid rc done_before before after
    make_slowcc "$bin"
    [ "$phase" = cooldown ] && cool=3
    PATH="$bin:$PATH" "$FLAGBENCH" run --no-render --precision 0 --suite faults-phases --out "$out" --cache "$cache" --cooldown "$cool" \
        >"$BATS_TEST_TMPDIR/run.out" 2>&1 &
    pid=$!
    wait_for_phase "$phase" "$out" "$cache" || { kill -KILL "$pid"; cat "$BATS_TEST_TMPDIR/run.out"; return 1; }
    kill -"$sig" "$pid"
    wait "$pid" && rc=0 || rc=$?
    cat "$BATS_TEST_TMPDIR/run.out"
    [ "$rc" -eq 130 ] || { echo "SIG$sig in $phase: exit $rc, not 130"; return 1; }
    results_intact "$out"
    jq -e '.run.interrupted == true and .run.finished == null' "$out/results.json"
    refute pgrep -f "$cache/"
    refute pgrep -f "fb-slowcc"
    done_before=$(jq '[.cells[] | select(.status == "ok")] | length' "$out/results.json")
    [ "$done_before" -lt 4 ]
    before=$(jq -c '[.cells[] | select(.status == "ok") | {id, t: .time_s.runs}]' "$out/results.json")
    PATH="$bin:$PATH" run "$FLAGBENCH" run --no-render --precision 0 --suite faults-phases --resume "$out" --cache "$cache" --cooldown 0
    [ "$status" -eq 0 ]
    [[ "$output" == *"resuming $out: $done_before cells already done"* ]]
    results_intact "$out"
    jq -e '.run.interrupted == false and ([.cells[] | select(.status == "ok")] | length) == 4' "$out/results.json"
    # the cells done before the signal kept their times: only the rest ran
    after=$(jq -c --argjson b "$before" '[.cells[] | select(.id as $i | $b | any(.id == $i)) | {id, t: .time_s.runs}]' \
        "$out/results.json")
    [ "$before" = "$after" ]
}
