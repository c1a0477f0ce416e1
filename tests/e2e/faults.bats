#!/usr/bin/env bats
# The fault suite: whatever a variant, a compiler, a tool or the machine
# does, the cell gets a status and a reason, the run goes on, and
# results.json and journal.jsonl stay whole.  The variants are the fixture
# family tests/fixtures/families/faults (one program per fault), run in a
# project root of their own (make_fixture_root).

bats_require_minimum_version 1.5.0
load helpers

setup_file() {
    export ROOT="$BATS_FILE_TMPDIR/root" CACHE="$BATS_FILE_TMPDIR/cache"
    make_fixture_root "$ROOT"
    export FLAGBENCH_ROOT="$ROOT"
    # The runs take --precision 0 (the suite's 2 or 3 runs a cell, not the 13
    # and more of the default precision target): what is tested is the status,
    # the reason and the files, not the figures.  Only the run that must stay
    # busy while another one tries its folder pauses before its cells.
    # one run over every fault; each test below reads its own cell
    export FAULTS="$BATS_FILE_TMPDIR/faults"
    "$FLAGBENCH" run --no-render --precision 0 --suite faults --out "$FAULTS" --cache "$CACHE" --timeout 2 --verify-timeout 2 \
        >"$BATS_FILE_TMPDIR/faults.out" 2>"$BATS_FILE_TMPDIR/faults.err" && rc=0 || rc=$?
    echo "$rc" >"$BATS_FILE_TMPDIR/faults.rc"
    # a small finished run (4 ok cells) to damage and resume
    export SMALL="$BATS_FILE_TMPDIR/small"
    "$FLAGBENCH" run --no-render --precision 0 --suite faults-slow --out "$SMALL" --cache "$CACHE" >/dev/null 2>&1
}

# helpers.bash points FLAGBENCH_ROOT at the repo for every test
setup() {
    export FLAGBENCH_ROOT="$ROOT"
}

# The cell CELL of the shared run: status, reason (a glob), the run's exit
# code 1 (some cell failed) and both files whole.
fault_cell() { # variant status reason-glob
    local id="faults/$1@gcc/-O1/default" st why
    [ "$(cat "$BATS_FILE_TMPDIR/faults.rc")" -eq 1 ] || { cat "$BATS_FILE_TMPDIR/faults.err"; return 1; }
    results_intact "$FAULTS"
    st=$(cell_status "$FAULTS" "$id")
    why=$(cell_reason "$FAULTS" "$id")
    echo "$id: $st: $why"
    [ "$st" = "$2" ]
    # shellcheck disable=SC2053 # the reason is a glob
    [[ "$why" == $3 ]]
    # the journal has the cell once, with the same verdict
    [ "$(jq -r --arg id "$id" 'select(.id == $id) | .status' "$FAULTS/journal.jsonl")" = "$2" ]
    # a failed cell is never timed
    if [ "$2" != ok ]; then
        jq -e --arg id "$id" '.cells[] | select(.id == $id) | .time_s == null' "$FAULTS/results.json"
    fi
}

@test "fault run: the good cells are measured beside the faults, every cell has a status" {
    fault_cell good ok null
    fault_cell slow ok null
    jq -e '[.cells[] | select(.status == "pending")] | length == 0' "$FAULTS/results.json"
    [ "$(wc -l <"$FAULTS/journal.jsonl")" -eq "$(jq '.cells | length' "$FAULTS/results.json")" ]
    jq -e '.run.finished != null and .run.interrupted == false' "$FAULTS/results.json"
}

@test "fault: a compile error is build_failed with the compiler's message" {
    fault_cell nocompile build_failed "compiler exited 1: *error*"
}

@test "fault: SIGSEGV is crashed, named" {
    fault_cell sigsegv crashed "*SIGSEGV*"
}

@test "fault: SIGABRT is crashed, named" {
    fault_cell sigabrt crashed "*SIGABRT*"
}

@test "fault: SIGKILL is crashed, named" {
    fault_cell sigkill crashed "*SIGKILL*"
}

@test "fault: a hang is a timeout, and its process is gone" {
    fault_cell hang timeout "verification run took longer than 2s"
    # the program runs with its size ("hang 2000"): the name ends at a space
    # or at the end of the command line (a pattern ending in $ never matched)
    refute pgrep -af "$CACHE/.*/hang( |$)"
}

@test "fault: endless output is cut at the expected bytes and is wrong_output" {
    fault_cell endless wrong_output "*extra output*"
    refute pgrep -af "$CACHE/.*/endless( |$)"
}

@test "fault: short output is wrong_output, naming where it ends" {
    fault_cell short wrong_output "*ends after 3998 bytes*"
}

@test "fault: output right for a while, then wrong, names the first wrong line" {
    fault_cell late_wrong wrong_output "*line 1991 differs*"
}

@test "fault: a flood on stderr is failed (a non-zero exit, no signal) with a bounded reason" {
    fault_cell stderr_flood failed "exited with status 1: eeee*"
    # 64 MiB went to stderr; the reason and the files stay small
    [ "$(cell_reason "$FAULTS" "faults/stderr_flood@gcc/-O1/default" | wc -c)" -lt 4096 ]
    [ "$(wc -c <"$FAULTS/results.json")" -lt 1000000 ]
}

@test "fault: a child that keeps the pipe open is killed with its group" {
    fault_cell forker timeout "the program exited, but a process it started kept its stdout open: *killed)"
    refute pgrep -af "$CACHE/.*/forker( |$)"
}

@test "fault: a variant that widens its own cpu set still measures, pinned runs unharmed" {
    fault_cell affinity ok null
}

@test "fault: exit 0 with no output is wrong_output" {
    fault_cell silent wrong_output "*ends after 0 bytes*"
}

@test "fault: a compiler that hangs is cut at --build-timeout, the other compiler's cell runs" {
    bin="$BATS_TEST_TMPDIR/bin"
    mkdir -p "$bin"
    # answers --version like a compiler, then hangs on every compile
    printf '%s\n' '#!/bin/sh' 'if [ "$1" = --version ]; then echo "fb-hangcc 1.0"; exit 0; fi' 'exec sleep 600' \
        >"$bin/fb-hangcc"
    chmod +x "$bin/fb-hangcc"
    out="$BATS_TEST_TMPDIR/hangcc"
    PATH="$bin:$PATH" run "$FLAGBENCH" run --no-render --precision 0 --suite faults-hangcc --out "$out" --cache "$CACHE" --build-timeout 1
    [ "$status" -eq 1 ]
    results_intact "$out"
    [ "$(cell_status "$out" "faults/good@gcc/-O1/default")" = ok ]
    [ "$(cell_status "$out" "faults/good@fb-hangcc/-O1/default")" = build_failed ]
    [[ "$(cell_reason "$out" "faults/good@fb-hangcc/-O1/default")" == *"timed out after 1s"* ]]
    refute pgrep -f "sleep 600"
}

@test "fault: without hyperfine a run is refused up front, no folder made; a resume keeps the results" {
    bin="$BATS_TEST_TMPDIR/bin"
    path_without "$bin" hyperfine
    PATH="$bin" run "$FLAGBENCH" run --no-render --suite faults-good --out "$BATS_TEST_TMPDIR/nohf" --cache "$CACHE"
    [ "$status" -eq 2 ]
    [[ "$output" == *"hyperfine not found on PATH: install the Debian package hyperfine"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/nohf" ]
    # an interrupted run resumed without hyperfine: refused, its files unchanged
    out="$BATS_TEST_TMPDIR/partial"
    cp -r "$SMALL" "$out"
    head -n 2 "$SMALL/journal.jsonl" >"$out/journal.jsonl"
    sum=$(cat "$out/results.json" "$out/journal.jsonl" | sha256sum)
    PATH="$bin" run "$FLAGBENCH" run --no-render --suite faults-slow --resume "$out" --cache "$CACHE"
    [ "$status" -eq 2 ]
    [ "$(cat "$out/results.json" "$out/journal.jsonl" | sha256sum)" = "$sum" ]
}

@test "fault: without jq and gnuplot ./run.sh keeps results.json and names the packages" {
    bin="$BATS_TEST_TMPDIR/bin"
    path_without "$bin" jq gnuplot
    out="$BATS_TEST_TMPDIR/norender"
    PATH="$bin" run "$REPO/run.sh" --suite faults-good --precision 0 --out "$out" --cache "$CACHE"
    echo "$output"
    [ "$status" -eq 0 ]
    results_intact "$out"
    [ "$(cell_status "$out" "faults/good@gcc/-O1/default")" = ok ]
    [[ "$output" == *"jq"* ]]
    [[ "$output" == *"run folder: $out"* ]]
}

@test "fault: a second run on a folder in use is refused with the lock, the first one finishes" {
    out="$BATS_TEST_TMPDIR/busy"
    # a pause of 2 s before each of its 4 cells keeps the first run busy
    # (asleep, not measuring) while the others try its folder
    "$FLAGBENCH" run --no-render --precision 0 --cooldown 2 --suite faults-slow --out "$out" --cache "$CACHE" \
        >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 1 300); do [ -s "$out/results.json" ] && break; sleep 0.05; done
    run "$FLAGBENCH" run --no-render --suite faults-slow --out "$out" --cache "$CACHE"
    [ "$status" -eq 2 ]
    [[ "$output" == *"$out is in use by another flagbench run (pid $pid)"* ]]
    run "$FLAGBENCH" run --no-render --suite faults-slow --resume "$out" --cache "$CACHE"
    [ "$status" -eq 2 ]
    [[ "$output" == *"in use by another flagbench run"* ]]
    wait "$pid"
    results_intact "$out"
    jq -e '.run.finished != null and ([.cells[] | select(.status == "ok")] | length) == 4' "$out/results.json"
    # finished, the folder still holds its run: a new run there is refused too
    run "$FLAGBENCH" run --no-render --suite faults-slow --out "$out" --cache "$CACHE" --dry-run
    [ "$status" -eq 2 ]
    [[ "$output" == *"$out already holds a run: --resume $out finishes it, or choose another --out"* ]]
}

@test "fault: a resume with another suite or cpu profile is refused, naming the run's own" {
    run "$FLAGBENCH" run --no-render --suite faults-good --resume "$FAULTS" --cache "$CACHE"
    [ "$status" -eq 2 ]
    [[ "$output" == *"cannot resume $FAULTS with suite faults-good on cpu host: it is a run of suite faults on cpu host"* ]]
    run "$FLAGBENCH" run --no-render --suite faults --cpu "$REPO/tests/fixtures/cpus/far-pin.json" --resume "$FAULTS" --cache "$CACHE"
    [ "$status" -eq 2 ]
    [[ "$output" == *"it is a run of suite faults on cpu host"* ]]
    run "$FLAGBENCH" run --no-render --suite faults --resume "$BATS_TEST_TMPDIR/nothing-here" --cache "$CACHE"
    [ "$status" -eq 2 ]
    [[ "$output" == *"no readable results.json"* ]]
    results_intact "$FAULTS"
}

@test "fault: a truncated journal line is dropped on resume and its cell runs again" {
    out="$BATS_TEST_TMPDIR/torn"
    cp -r "$SMALL" "$out"
    # the first two cells whole, the third cut in the middle of its line
    { head -n 2 "$SMALL/journal.jsonl"; sed -n 3p "$SMALL/journal.jsonl" | head -c 40; } >"$out/journal.jsonl"
    run "$FLAGBENCH" run --no-render --precision 0 --suite faults-slow --resume "$out" --cache "$CACHE"
    [ "$status" -eq 0 ]
    [[ "$output" == *"dropped a torn last line (40 bytes)"* ]]
    [[ "$output" == *"resuming $out: 2 cells already done"* ]]
    results_intact "$out"
    # every cell once, whole, as in the first run
    [ "$(wc -l <"$out/journal.jsonl")" -eq "$(wc -l <"$SMALL/journal.jsonl")" ]
    diff <(jq -r '.cells[] | "\(.id) \(.status)"' "$SMALL/results.json") \
        <(jq -r '.cells[] | "\(.id) \(.status)"' "$out/results.json")
}

@test "fault: a corrupt build cache entry is found by its checksum and rebuilt" {
    cache="$BATS_TEST_TMPDIR/cache"
    run "$FLAGBENCH" run --no-render --precision 0 --suite faults-good --out "$BATS_TEST_TMPDIR/c1" --cache "$cache"
    [ "$status" -eq 0 ]
    prog=$(find "$cache" -type f -name good)
    [ -x "$prog" ]
    # the entry overwritten with garbage of the same size, still executable
    head -c "$(wc -c <"$prog")" /dev/urandom >"$prog"
    run "$FLAGBENCH" run --no-render --precision 0 --suite faults-good --out "$BATS_TEST_TMPDIR/c2" --cache "$cache"
    [ "$status" -eq 0 ]
    [[ "$output" == *"build cache entry $prog does not match its checksum: building it again"* ]]
    [[ "$output" == *"built 1, cached 0, failed 0"* ]]
    [ "$(cell_status "$BATS_TEST_TMPDIR/c2" "faults/good@gcc/-O1/default")" = ok ]
    # and an entry cut short (a full disk while copying)
    : >"$prog"
    run "$FLAGBENCH" run --no-render --precision 0 --suite faults-good --out "$BATS_TEST_TMPDIR/c3" --cache "$cache"
    [ "$status" -eq 0 ]
    [[ "$output" == *"built 1, cached 0"* ]]
}

@test "fault: kill -9 at any moment leaves results.json old or new, never torn" {
    # a dry run of the full suite rewrites results.json after each of its
    # many cells: killed at 2 points (15 in make test-slow; each kill costs a
    # resume of the 139-cell suite under ASan), the file always parses
    local delays="0.1 0.5"
    slow_tier && delays="0.05 0.1 0.15 0.2 0.25 0.3 0.35 0.4 0.45 0.5 0.6 0.7 0.8 0.9 1.0"
    for delay in $delays; do
        out="$BATS_TEST_TMPDIR/k9-$delay"
        "$FLAGBENCH" run --no-render --suite full --dry-run --out "$out" >/dev/null 2>&1 &
        pid=$!
        sleep "$delay"
        kill -9 "$pid" 2>/dev/null || true
        wait "$pid" || true
        [ -e "$out/results.json" ] || continue # killed before the first write
        jq -e '.schema == "flagbench-results/1"' "$out/results.json" >/dev/null ||
            { echo "torn results.json after kill -9 at ${delay}s"; head -c 300 "$out/results.json"; return 1; }
        results_intact "$out" torn-ok
        # and the run resumes from there
        run "$FLAGBENCH" run --no-render --suite full --dry-run --resume "$out"
        [ "$status" -eq 0 ]
        results_intact "$out"
    done
}

# A small file system of its own (tmpfs), or a skip with the reason.
mount_tmpfs() { # dir options
    mkdir -p "$1"
    [ "$(id -u)" = 0 ] || skip "mounting a tmpfs needs root"
    mount -t tmpfs -o "$2" flagbench-test "$1" 2>"$BATS_TEST_TMPDIR/mount.err" ||
        skip "cannot mount a tmpfs here: $(cat "$BATS_TEST_TMPDIR/mount.err")"
}

teardown() {
    local m
    for m in "$BATS_TEST_TMPDIR"/mnt-*; do
        [ -d "$m" ] && mountpoint -q "$m" && umount "$m"
    done
    return 0
}

@test "fault: a read-only results folder stops the run before the build, with the reason" {
    mnt="$BATS_TEST_TMPDIR/mnt-ro"
    mount_tmpfs "$mnt" "size=1m"
    mkdir "$mnt/run"
    mount -o remount,ro "$mnt"
    run "$FLAGBENCH" run --no-render --suite faults-good --out "$mnt/run" --cache "$BATS_TEST_TMPDIR/cache"
    [ "$status" -eq 2 ]
    [[ "$output" == *"cannot create $mnt/run/.lock: Read-only file system"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/cache" ]
}

@test "fault: a full disk keeps the last whole results.json and journal, says so; a resume finishes" {
    mnt="$BATS_TEST_TMPDIR/mnt-full"
    # 24 KiB: room for the first writes, not for the finished run
    mount_tmpfs "$mnt" "size=24k"
    run "$FLAGBENCH" run --no-render --precision 0 --suite faults-slow --out "$mnt/run" --cache "$CACHE"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"No space left on device"* ]]
    # whatever was written last is whole: no torn journal line
    results_intact "$mnt/run"
    # room again: the resume finishes what the full disk kept out
    mount -o remount,size=1m "$mnt"
    run "$FLAGBENCH" run --no-render --precision 0 --suite faults-slow --resume "$mnt/run" --cache "$CACHE"
    [ "$status" -eq 0 ]
    results_intact "$mnt/run"
    jq -e '.run.finished != null and ([.cells[] | select(.status == "ok")] | length) == 4' "$mnt/run/results.json"
}
