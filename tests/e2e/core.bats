#!/usr/bin/env bats
# The matrix runner end to end: smoke run, build cache, failing cells,
# config errors, remapped pins, the meter.  Ctrl-C and --resume in every
# phase: tests/e2e/faults.bats; on the smoke suite: tests/slow/core.bats.

load helpers

setup_file() {
    export CACHE="$BATS_FILE_TMPDIR/cache"
    export YESBUF="$BATS_FILE_TMPDIR/yes-buf"
    cc -O2 -o "$YESBUF" "$REPO/variants/yes/buf.c"
}

# The fast tier runs the smoke matrix at test sizes (tests/fixtures/configs/tiny.json);
# make test-slow runs the README's smoke suite itself (tests/slow/core.bats).
SMOKE="${SMOKE:-$REPO/tests/fixtures/configs/tiny.json}"
SMOKE_RUNS="${SMOKE_RUNS:-2}"

@test "smoke run produces a valid results.json with every cell ok" {
    # the default precision target, with a small budget per cell: the suite's runs at least
    run "$FLAGBENCH" run --no-render --suite "$SMOKE" --out "$BATS_TEST_TMPDIR/smoke" --cache "$CACHE" --cell-budget 0.5
    [ "$status" -eq 0 ]
    r="$BATS_TEST_TMPDIR/smoke/results.json"
    jqr '.schema == "flagbench-results/1"' "$r"
    jqr '.run.finished != null and .run.interrupted == false' "$r"
    jqr '.host.cpu_model and .host.cpus_online >= 1 and .tools.hyperfine and .tools.gcc and .tools.clang' "$r"
    jqr '.run.phases | .plan_s >= 0 and .build_s > 0 and .measure_s > 0 and .total_s > 0' "$r"
    # yes/{simple,buf,vmsplice,vmsplice_256k} x {gcc,clang} + GNU yes, all ok with figures
    jqr '[.cells[] | select(.status == "ok")] | length == 9' "$r"
    jqr '[.cells[] | select(.compiler == "none" and .variant == "gnu-yes")] | length == 1' "$r"
    jqr --argjson n "$SMOKE_RUNS" 'all(.cells[]; .throughput_Bps.median > 0 and (.time_s.runs | length) >= $n)' "$r"
    jqr '([.cells[]] | length > 0) and all(.cells[]; .precision.status == "reached" or .precision.status == "not_reached")' "$r"
    jqr '([.cells[] | select(.compiler != "none")] | length > 0) and all(.cells[] | select(.compiler != "none"); .speedup > 0 and .binary.sha256)' "$r"
    # journal: one line per cell
    [ "$(wc -l < "$BATS_TEST_TMPDIR/smoke/journal.jsonl")" -eq 9 ]
    # the summary table on stdout
    [[ "$output" == *"vmsplice"* ]]
}

@test "a second identical run compiles nothing" {
    # what is asked is the build cache: no counts, the suite's runs only
    "$FLAGBENCH" run --no-render --suite "$SMOKE" --out "$BATS_TEST_TMPDIR/a" --cache "$CACHE" --runs 1 --precision 0 \
        --no-counters 2>/dev/null >/dev/null || true
    run "$FLAGBENCH" run --no-render --suite "$SMOKE" --out "$BATS_TEST_TMPDIR/b" --cache "$CACHE" --runs 1 --precision 0 \
        --no-counters
    [ "$status" -eq 0 ]
    [[ "$output" == *"built 0, cached 8, failed 0"* ]]
}

@test "wrong output, crash, hang, bad exit, build failure: statuses, never timed, the rest finishes" {
    root="$BATS_TEST_TMPDIR/root"
    make_fixture_root "$root"
    # the hang is cut by the verification run (--verify-timeout, 4 x --timeout
    # unless given); --precision 0: the suite's 2 runs of each ok cell
    FLAGBENCH_ROOT="$root" run "$FLAGBENCH" run --no-render --suite broken --out "$BATS_TEST_TMPDIR/broken" \
        --cache "$CACHE" --timeout 2 --verify-timeout 2 --precision 0
    [ "$status" -eq 1 ]
    r="$BATS_TEST_TMPDIR/broken/results.json"
    st() { jq -r --arg id "$1" '.cells[] | select(.id == $id) | .status' "$r"; }
    why() { jq -r --arg id "$1" '.cells[] | select(.id == $id) | .reason' "$r"; }
    [ "$(st broken/good@gcc/-O2/default)" = ok ]
    [ "$(st yes/buf@gcc/-O2/default)" = ok ]
    [ "$(st broken/wrong@gcc/-O2/default)" = wrong_output ]
    [[ "$(why broken/wrong@gcc/-O2/default)" == *"line 1001 differs"*"expected \"y\", received \"n\""* ]]
    [ "$(st broken/crash@gcc/-O2/default)" = crashed ]
    [[ "$(why broken/crash@gcc/-O2/default)" == *"SIGSEGV (signal 11)"* ]]
    [ "$(st broken/hang@gcc/-O2/default)" = timeout ]
    # an exit status is no crash: failed, with the status and stderr's first line
    [ "$(st broken/exit3@gcc/-O2/default)" = failed ]
    [[ "$(why broken/exit3@gcc/-O2/default)" == "exited with status 3: exit3: refusing on purpose"* ]]
    [ "$(st broken/nocompile@gcc/-O2/default)" = build_failed ]
    [[ "$(why broken/nocompile@gcc/-O2/default)" == *"error"* ]]
    [ "$(st broken/needs_cpu@gcc/-O2/default)" = unsupported ]
    [[ "$(why broken/needs_cpu@gcc/-O2/default)" == *"lacks no_such_cpu_flag"* ]]
    # failed cells are never timed
    jqr '([.cells[] | select(.status != "ok")] | length > 0) and all(.cells[] | select(.status != "ok"); .time_s == null and .throughput_Bps == null)' "$r"
    # no process of the hanging variant is left behind
    refute pgrep -f "$CACHE/.*/hang"
}

@test "a malformed suite exits 2 naming file, line and column" {
    root="$BATS_TEST_TMPDIR/root"
    make_fixture_root "$root"
    FLAGBENCH_ROOT="$root" run "$FLAGBENCH" run --suite bad-runs --dry-run --out "$BATS_TEST_TMPDIR/x"
    [ "$status" -eq 2 ]
    [[ "$output" == *"flagbench: $root/configs/suites/bad-runs.json:6:11: runs: must be an integer, not a string"* ]]
    FLAGBENCH_ROOT="$root" run "$FLAGBENCH" run --suite bad-syntax --dry-run --out "$BATS_TEST_TMPDIR/x"
    [ "$status" -eq 2 ]
    [[ "$output" == *"bad-syntax.json:4:13: '}' expected near '\"compilers\"'"* ]]
    run "$FLAGBENCH" run --suite smoke --runs 0 --dry-run
    [ "$status" -eq 2 ]
    [[ "$output" == *"'runs' must be an integer from 1 to 10000, not '0'"* ]]
    run "$FLAGBENCH" run --suite smoke --rusn 3
    [ "$status" -eq 2 ]
    [[ "$output" == *"did you mean '--runs'?"* ]]
}

@test "--cpu NOPE exits 2 and lists the profiles" {
    run "$FLAGBENCH" run --cpu NOPE --suite smoke --dry-run
    [ "$status" -eq 2 ]
    [[ "$output" == *"unknown cpu profile 'NOPE'"*"available: host, 2700, 5700X, J4205"* ]]
}

@test "--dry-run plans and writes results without compiling or timing" {
    run "$FLAGBENCH" run --no-render --suite smoke --dry-run --out "$BATS_TEST_TMPDIR/dry" --cache "$BATS_TEST_TMPDIR/nocache"
    [ "$status" -eq 0 ]
    [ ! -e "$BATS_TEST_TMPDIR/nocache" ]
    r="$BATS_TEST_TMPDIR/dry/results.json"
    jqr '(.cells | length) == 9 and all(.cells[]; .status == "ok" and .time_s.median > 0)' "$r"
    jqr '.run.warnings | any(startswith("dry run"))' "$r"
}

@test "the J4205 profile runs here with the mismatch and the pin remap recorded" {
    run "$FLAGBENCH" run --no-render --cpu J4205 --suite "$SMOKE" --out "$BATS_TEST_TMPDIR/j" --cache "$CACHE" \
        --runs 1 --warmup 0 --cooldown 0 --only 'yes/buf@*'
    [ "$status" -eq 0 ]
    r="$BATS_TEST_TMPDIR/j/results.json"
    jqr '.run.warnings | any(contains("expects '"'J4205'"' in the cpu model"))' "$r"
    jqr '.profile.pin.requested.consumer == 2' "$r"
    # every -march the profile names: goldmont and the portable x86-64-v2
    jqr '[.cells[] | select(.status == "ok")] | length == 4' "$r"
    jqr '[.cells[].march] | unique == ["goldmont", "x86-64-v2"]' "$r"
    # the cells --only leaves out are not in the results at all
    jqr '(.cells | length) == 4 and all(.cells[]; .id | startswith("yes/buf@"))' "$r"
    jqr '.cells[0].march == "goldmont" and (.cells[0].cflags | index("-msse4"))' "$r"
}

@test "a pin on a cpu this host lacks is remapped to one it has, with a warning" {
    # cpu 4095 exists on no machine this runs on, so the remap is tested everywhere
    run "$FLAGBENCH" run --no-render --cpu "$REPO/tests/fixtures/cpus/far-pin.json" --suite smoke --dry-run \
        --out "$BATS_TEST_TMPDIR/far"
    [ "$status" -eq 0 ]
    r="$BATS_TEST_TMPDIR/far/results.json"
    jqr '.run.warnings | any(contains("pin consumer: cpu 4095 does not exist here (or is not allowed); using cpu"))' "$r"
    jqr '.profile.pin.requested.consumer == 4095 and .profile.pin.used.consumer < 4095' "$r"
    used=$(jq '.profile.pin.used.consumer' "$r")
    cpu_allowed "$used" # the cpu used is one this process may run on
}

@test "meter: exact byte count, a producer that fails, an endless producer cut at max-bytes" {
    run "$FLAGBENCH" meter --expect-bytes 2000 -- "$YESBUF" 1000
    [ "$status" -eq 0 ]
    run "$FLAGBENCH" meter --expect-bytes 2002 -- "$YESBUF" 1000
    [ "$status" -eq 1 ]
    [[ "$output" == *"received 2000 bytes, expected 2002"* ]]
    run "$FLAGBENCH" meter --expect-bytes 10 -- sh -c 'kill -SEGV $$'
    [ "$status" -eq 3 ]
    [[ "$output" == *"SIGSEGV"* ]]
    run "$FLAGBENCH" meter --max-bytes 1000000 -- yes
    [ "$status" -eq 0 ]
    report="$BATS_TEST_TMPDIR/meter.jsonl"
    "$FLAGBENCH" meter --consumer read --expect-bytes 2000 --report "$report" -- "$YESBUF" 1000
    jqr '.bytes == 2000 and .status == "ok" and .consumer == "read"' "$report"
}

@test "meter --wait: spin and sleep move the same bytes; auto sleeps without a CPU of its own; bad words exit 2" {
    r="$BATS_TEST_TMPDIR/wait.jsonl"
    cpu=$(allowed_cpus | head -1)
    "$FLAGBENCH" meter --wait spin --expect-bytes 2000000 --report "$r" -- "$YESBUF" 1000000
    "$FLAGBENCH" meter --wait sleep --expect-bytes 2000000 --report "$r" -- "$YESBUF" 1000000
    # auto: no pins; then both on one CPU, where a spin would take the producer's
    "$FLAGBENCH" meter --expect-bytes 2000 --report "$r" -- "$YESBUF" 1000
    "$FLAGBENCH" meter --producer-cpu "$cpu" --consumer-cpu "$cpu" --expect-bytes 2000 --report "$r" -- "$YESBUF" 1000
    "$FLAGBENCH" meter --compute --report "$r" -- true
    run jq -r '"\(.wait) \(.bytes) \(.status)"' "$r"
    [ "$status" -eq 0 ]
    [ "$output" = $'spin 2000000 ok\nsleep 2000000 ok\nsleep 2000 ok\nsleep 2000 ok\nnone 0 ok' ]
    run "$FLAGBENCH" meter --wait hard -- true
    [ "$status" -eq 2 ]
    [[ "$output" == *"--wait must be auto, spin or sleep, not 'hard'"* ]]
    run "$FLAGBENCH" run --dry-run --consumer-wait hard
    [ "$status" -eq 2 ]
    [[ "$output" == *"--consumer-wait must be auto, spin or sleep, not 'hard'"* ]]
}

@test "meter --wait auto spins where producer and consumer have CPUs of their own, never into stdout" {
    mapfile -t cpus < <(allowed_cpus)
    [ "${#cpus[@]}" -ge 2 ] || skip "needs two CPUs this process may use (it may use ${#cpus[@]})"
    r="$BATS_TEST_TMPDIR/auto.jsonl"
    "$FLAGBENCH" meter --producer-cpu "${cpus[0]}" --consumer-cpu "${cpus[1]}" --expect-bytes 2000 --report "$r" \
        -- "$YESBUF" 1000
    "$FLAGBENCH" meter --producer-cpu "${cpus[0]}" --consumer-cpu "${cpus[1]}" --sink stdout --report "$r" \
        -- "$YESBUF" 1000 >/dev/null
    "$FLAGBENCH" meter --wait sleep --producer-cpu "${cpus[0]}" --consumer-cpu "${cpus[1]}" --report "$r" \
        -- "$YESBUF" 1000
    run jq -r .wait "$r"
    [ "$status" -eq 0 ]
    [ "$output" = $'spin\nsleep\nsleep' ]
}

# meter_times_out METER... -- PROG...: with --timeout 1 the meter returns
# within 2 s, exit 124, a "timeout" report line, and every process whose pid
# the producer wrote to $PIDS gone (killed with its group).
meter_times_out() {
    local pids="$BATS_TEST_TMPDIR/pids" report="$BATS_TEST_TMPDIR/timeout.jsonl" t0 ms p
    : > "$pids"
    rm -f "$report"
    t0=$(date +%s%N)
    run "$@"
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    echo "elapsed ${ms} ms, status $status"
    [ "$status" -eq 124 ]
    [ "$ms" -ge 1000 ]
    [ "$ms" -lt 2000 ]
    [[ "$output" == *"timed out after 1s"* ]]
    for p in $(cat "$pids"); do
        # gone, or a zombie waiting for its new parent to reap it
        [ -z "$(ps -o stat= -p "$p" | grep -v Z)" ]
    done
}

@test "meter --timeout: a producer that writes nothing and never exits" {
    meter="$(dirname "$FLAGBENCH")/flagbench-meter"
    [ -x "$meter" ]
    export PIDS="$BATS_TEST_TMPDIR/pids"
    meter_times_out "$meter" --timeout 1 -- sh -c 'echo $$ > "$PIDS"; exec sleep 30'
    # a consumer that spins on the empty pipe still stops at the deadline
    meter_times_out "$meter" --wait spin --timeout 1 -- sh -c 'echo $$ > "$PIDS"; exec sleep 30'
    meter_times_out "$FLAGBENCH" meter --timeout 1 --compute -- sh -c 'echo $$ > "$PIDS"; exec sleep 30'
}

@test "meter --timeout: a producer that ignores SIGTERM and writes on" {
    export PIDS="$BATS_TEST_TMPDIR/pids"
    meter_times_out "$(dirname "$FLAGBENCH")/flagbench-meter" --timeout 1 --report "$BATS_TEST_TMPDIR/timeout.jsonl" \
        -- sh -c 'trap "" TERM; echo $$ > "$PIDS"; while :; do echo y; done'
    jqr '.status == "timeout" and .bytes > 0' "$BATS_TEST_TMPDIR/timeout.jsonl"
}

@test "meter --timeout: a producer that exits and leaves children holding the pipe" {
    export PIDS="$BATS_TEST_TMPDIR/pids"
    meter_times_out "$(dirname "$FLAGBENCH")/flagbench-meter" --timeout 1 -- \
        sh -c 'sleep 30 & echo $! >> "$PIDS"; sleep 30 & echo $! >> "$PIDS"; exit 0'
    [ "$(wc -l < "$PIDS")" -eq 2 ]
}

@test "only harness/core/runcmd.c makes processes; nothing sets the environment" {
    # call sites in C files, comment lines left out
    run bash -c "grep -rnE --include=*.c '\\b(fork|vfork|clone|posix_spawnp?|exec[lv][a-z]*|system|popen|setenv|putenv|unsetenv)[[:space:]]*\\(' '$REPO/harness' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/\\*|\\*)' | cut -d: -f1 | sort -u"
    [ "$status" -eq 0 ]
    [ "$output" = "$REPO/harness/core/runcmd.c" ]
}

@test "check yes: accepts the exact stream, names the first wrong line" {
    run bash -c 'yes | head -n 1000 | "$FLAGBENCH" check yes 1000'
    [ "$status" -eq 0 ]
    run bash -c 'yes | head -n 999 | "$FLAGBENCH" check yes 1000'
    [ "$status" -eq 1 ]
    [[ "$output" == *"output ends after 1998 bytes (line 1000), expected 1000 lines"* ]]
    run bash -c '{ yes | head -n 5; echo n; } | "$FLAGBENCH" check yes 6'
    [ "$status" -eq 1 ]
    [[ "$output" == *"line 6 differs"* ]]
    run "$FLAGBENCH" check yes abc
    [ "$status" -eq 2 ]
}

@test "--order interleave, --precision, --jobs and the cooldown command, end to end on tiny cells" {
    out="$BATS_TEST_TMPDIR/il"
    run "$FLAGBENCH" run --no-render --suite "$SMOKE" --out "$out" --cache "$CACHE" --only 'yes/[bv]*@gcc/*' \
        --order interleave --jobs 1 --runs 2 --precision 50 --max-runs 6
    [ "$status" -eq 0 ]
    r="$out/results.json"
    results_intact "$out"
    jqr '[.cells[] | select(.status == "ok")] | length == 3' "$r"
    jqr 'all(.cells[] | select(.status == "ok"); (.time_s.runs | length) >= 2 and (.time_s.runs | length) <= 6)' "$r"
    jqr '.run.argv | index("interleave")' "$r"
    # the pause before each timed run, logged as JSON
    run "$FLAGBENCH" cooldown --seconds 0.1 --log "$BATS_TEST_TMPDIR/cool.jsonl"
    [ "$status" -eq 0 ]
    jqr '.waited_s >= 0.1' "$BATS_TEST_TMPDIR/cool.jsonl"
    run "$FLAGBENCH" cooldown --seconds -1
    [ "$status" -eq 2 ]
}
