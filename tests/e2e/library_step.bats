#!/usr/bin/env bats
# A library step: the same binary in two runs loads a library that changed
# in between (what a libc, allocator or libgmp update does to a nightly).
# Each run keeps the libraries it loaded (RUN/lib/<sha256>), so compare
# --confirm-changed measures the one binary side by side, each side on its
# own run's kept libraries, and the history names the step the library's
# with that measured size.  The family links a library of its own whose
# second version does four times the work (the installed file is replaced, as a
# package upgrade does).
load helpers

# libwork into $LIB, doing its loop K times, laid out as a package installs
# a library (the versioned file, its soname a symbolic link to it) and
# replaced as an upgrade does (a new file renamed over the old)
build_lib() { # K
    cc -O1 -shared -fPIC -DK="$1" -Wl,-soname,libwork.so.1 -o "$LIB/.libwork.so.1.0.new" "$BATS_FILE_TMPDIR/work.c"
    mv "$LIB/.libwork.so.1.0.new" "$LIB/libwork.so.1.0"
    ln -sfn libwork.so.1.0 "$LIB/libwork.so.1"
    ln -sfn libwork.so.1 "$LIB/libwork.so"
}

setup_file() {
    command -v cc >/dev/null || return 0
    export LIB="$BATS_FILE_TMPDIR/lib" F="$BATS_FILE_TMPDIR/fam/work"
    mkdir -p "$LIB" "$F"
    cat > "$BATS_FILE_TMPDIR/work.c" <<'C'
unsigned long work(unsigned long n)
{
	unsigned long s = 0;
	for (unsigned long k = 0; k < K; k++)
		for (unsigned long i = 0; i < n; i++)
			s += (i ^ (i >> 3)) * (k + 1);
	return s / ((K * (K + 1)) / 2);
}
C
    cat > "$F/loop.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
unsigned long work(unsigned long n);
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 1000;
	printf("%lu\n", work(n * 1000) & 1);
	return 0;
}
C
    printf 'CC ?= cc\nCFLAGS ?= -O2\nloop: loop.c\n\t$(CC) $(CFLAGS) -o $@ loop.c $(LDFLAGS) -L%s -lwork -Wl,-rpath,%s\n' \
        "$LIB" "$LIB" > "$F/Makefile"
    cat > "$F/family.json" <<'J'
{"family": "work", "kind": "compute", "unit": "units", "default_size": 20000, "check": "none",
 "build": {"command": ["make", "-s", "-C", "{src}", "CC={cc}", "CFLAGS={cflags}", "LDFLAGS={ldflags}"], "binary": "{src}/loop"},
 "baseline": "loop", "variants": [{"name": "loop"}]}
J
    cat > "$BATS_FILE_TMPDIR/suite.json" <<'J'
{"name": "libs", "variants": ["work/*"], "compilers": ["cc"], "opt": ["-O2"], "march": ["default"]}
J
    local k run
    # libwork 1 does its loop once, libwork 2 four times: several times
    # slower, so no load of the tests around it can turn a pair of runs
    for k in 1 2; do
        # run ids are stamped to the second: two runs, two ids
        [ "$k" = 1 ] || sleep 1
        build_lib "$(( k == 1 ? 1 : 4 ))"
        run="$BATS_FILE_TMPDIR/r$k"
        "$FLAGBENCH" run --suite "$BATS_FILE_TMPDIR/suite.json" --family-dir "$BATS_FILE_TMPDIR/fam" --runs 5 \
            --no-render --no-counters --cache "$BATS_FILE_TMPDIR/cache" -o "$run" >"$run.log" 2>&1 || true
    done
}

needs() {
    command -v cc >/dev/null || skip "no cc on PATH"
    command -v hyperfine >/dev/null || skip "no hyperfine on PATH"
    [ -x /lib64/ld-linux-x86-64.so.2 ] || [ -x /lib/ld-linux-aarch64.so.1 ] || skip "no glibc loader here"
}

@test "a run keeps the libraries its binaries load, by their sha256, the loader among them" {
    needs
    local r="$BATS_FILE_TMPDIR/r1" n=0 path sha
    jqr '.cells[0].status == "ok"' "$r/results.json"
    while IFS=' ' read -r path sha; do
        [ "$(sha256sum "$r/lib/$sha" | cut -c1-64)" = "$sha" ]
        n=$((n + 1))
    done < <(jq -r '.cells[0].binary.libraries[] | "\(.path) \(.sha256)"' "$r/results.json")
    # libc, the loader and libwork at least
    [ "$n" -ge 3 ]
    jqr '[.cells[0].binary.libraries[].path | select(endswith("/libwork.so.1"))] | length == 1' "$r/results.json"
    # the two runs ran one binary on two versions of libwork
    [ "$(jq -r '.cells[0].binary.sha256' "$r/results.json")" = "$(jq -r '.cells[0].binary.sha256' "$BATS_FILE_TMPDIR/r2/results.json")" ]
    [ "$(jq -r '.cells[0].binary.libraries[] | select(.path | endswith("/libwork.so.1")) | .sha256' "$r/results.json")" != \
      "$(jq -r '.cells[0].binary.libraries[] | select(.path | endswith("/libwork.so.1")) | .sha256' "$BATS_FILE_TMPDIR/r2/results.json")" ]
    # compare says so without measuring anything
    run "$FLAGBENCH" compare "$r" "$BATS_FILE_TMPDIR/r2" --format json
    [[ "$status" -eq 0 || "$status" -eq 1 ]] # 1 when a cell is slower: the loaded host's verdict
    jqr '.cells[0] | .same_program and .libraries_changed' <<<"$output"
}

@test "compare --confirm-changed measures the same binary beside itself, each side on its run's kept libraries, and records it" {
    needs
    cp -r "$BATS_FILE_TMPDIR/r2" "$BATS_TEST_TMPDIR/r2"
    # libwork goes back to its first version: only the kept copies still
    # hold the slow one, so a slower verdict comes from them
    build_lib 1
    run "$FLAGBENCH" compare "$BATS_FILE_TMPDIR/r1" "$BATS_TEST_TMPDIR/r2" --confirm 6 --confirm-changed --record --format text
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"slower: confirmed after "*" interleaved rounds of the same binary, each on its run's kept libraries"* ]]
    [[ "$output" == *"library $LIB/libwork.so.1"* ]]
    local b="$BATS_TEST_TMPDIR/r2/results.json"
    jqr '.beside.cells | length == 1' "$b"
    jqr '.beside.cells[0] | .libraries == true and .verdict == "slower" and .base_sha256 == .sha256' "$b"
    # four times the loop: the interval above 1.00x whatever the load
    jqr '.beside.cells[0] | .ci[0] > 1 and .ratio > 1.1 and .rounds >= 6' "$b"
}

@test "the history names the step the library's, with the size measured beside the night before's libraries" {
    needs
    cp -r "$BATS_FILE_TMPDIR/r2" "$BATS_TEST_TMPDIR/r2"
    run "$FLAGBENCH" compare "$BATS_FILE_TMPDIR/r1" "$BATS_TEST_TMPDIR/r2" --confirm 6 --confirm-changed --record --format text
    [[ "$status" -eq 0 || "$status" -eq 1 ]] # 1 when a cell is slower: the loaded host's verdict
    echo "$output"
    jqr '.beside.cells | length == 1' "$BATS_TEST_TMPDIR/r2/results.json"
    "$FLAGBENCH" history import "$BATS_FILE_TMPDIR/r1" "$BATS_TEST_TMPDIR/r2" --db "$BATS_TEST_TMPDIR/h.db"
    run "$FLAGBENCH" history changes --db "$BATS_TEST_TMPDIR/h.db"
    echo "$output"
    # a change point on the newest night fails it
    [ "$status" -eq 1 ]
    [[ "$output" == *"what changed: the system, with the same binary: library $LIB/libwork.so.1"* ]]
    [[ "$output" == *"measured beside night "*"'s libraries (the same binary) in "*" interleaved rounds"* ]]
}

@test "a kept loader that lost its executable bit (an artifact's copy) is still run, from a copy of its own" {
    needs
    # cp makes files of its own: the system's loader is never touched
    cp -r "$BATS_FILE_TMPDIR/r1" "$BATS_TEST_TMPDIR/r1"
    chmod a-x "$BATS_TEST_TMPDIR"/r1/lib/*
    run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/r1" "$BATS_FILE_TMPDIR/r2" --confirm 6 --confirm-changed --format text
    [[ "$status" -eq 0 || "$status" -eq 1 ]] # 1 when a cell is slower: the loaded host's verdict
    echo "$output"
    [[ "$output" == *"slower: confirmed after "*" of the same binary, each on its run's kept libraries"* ]]
    # and its files were left as they were
    run find "$BATS_TEST_TMPDIR/r1/lib" -type f -perm /111
    [ "$status" -eq 0 ]
    [ -z "$output" ]
}

@test "a run whose libraries were not kept is not measured beside them, and says why" {
    needs
    cp -r "$BATS_FILE_TMPDIR/r1" "$BATS_TEST_TMPDIR/r1"
    rm -rf "$BATS_TEST_TMPDIR/r1/lib"
    run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/r1" "$BATS_FILE_TMPDIR/r2" --confirm 6 --confirm-changed --format text
    [[ "$status" -eq 0 || "$status" -eq 1 ]] # 1 when a cell is slower: the loaded host's verdict
    echo "$output"
    [[ "$output" == *"not confirmed: the same binary on each run's libraries: library "*" is not kept in "* ]]
}

@test "a binary whose DT_RPATH would load today's library on both sides is not measured, and says why" {
    needs
    # the same family linked the old way: an RPATH is searched before --library-path
    local fr="$BATS_TEST_TMPDIR/fam/workr" k
    mkdir -p "$fr"
    cp "$F/loop.c" "$fr/"
    sed 's/"family": "work"/"family": "workr"/' "$F/family.json" >"$fr/family.json"
    printf 'CC ?= cc\nCFLAGS ?= -O2\nloop: loop.c\n\t$(CC) $(CFLAGS) -o $@ loop.c $(LDFLAGS) -L%s -lwork -Wl,--disable-new-dtags,-rpath,%s\n' \
        "$LIB" "$LIB" >"$fr/Makefile"
    sed 's#"work/\*"#"workr/*"#' "$BATS_FILE_TMPDIR/suite.json" >"$BATS_TEST_TMPDIR/suite.json"
    for k in 1 2; do
        [ "$k" = 1 ] || sleep 1
        build_lib "$(( k == 1 ? 1 : 4 ))"
        "$FLAGBENCH" run --suite "$BATS_TEST_TMPDIR/suite.json" --family-dir "$BATS_TEST_TMPDIR/fam" --runs 5 \
            --no-render --no-counters --cache "$BATS_TEST_TMPDIR/cache" -o "$BATS_TEST_TMPDIR/r$k" >/dev/null 2>&1
    done
    readelf -d "$BATS_TEST_TMPDIR/r1/bin/$(jq -r '.cells[0].binary.sha256' "$BATS_TEST_TMPDIR/r1/results.json")" | grep -q RPATH
    run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/r1" "$BATS_TEST_TMPDIR/r2" --confirm 6 --confirm-changed --format text
    [[ "$status" -eq 0 || "$status" -eq 1 ]] # 1 when a cell is slower: the loaded host's verdict
    echo "$output"
    [[ "$(tr -s ' \n' ' ' <<<"$output")" == *"not confirmed: the same binary on each run's libraries: it loads libwork.so.1 from $LIB/libwork.so.1, not from the kept copy (a DT_RPATH is searched first)"* ]]
}

@test "a baseline keeps its run's libraries, so the next night is measured beside them" {
    needs
    "$FLAGBENCH" baseline save "$BATS_FILE_TMPDIR/r1" --dir "$BATS_TEST_TMPDIR/bl" --name previous
    local kept
    kept=$(ls "$BATS_TEST_TMPDIR"/bl/*/previous/lib | wc -l)
    [ "$kept" -eq "$(jq '[.cells[0].binary.libraries[].sha256] | unique | length' "$BATS_FILE_TMPDIR/r1/results.json")" ]
    run "$FLAGBENCH" compare --baseline previous --baselines-dir "$BATS_TEST_TMPDIR/bl" "$BATS_FILE_TMPDIR/r2" \
        --confirm 6 --confirm-changed --format text
    [[ "$status" -eq 0 || "$status" -eq 1 ]] # 1 when a cell is slower: the loaded host's verdict
    echo "$output"
    [[ "$output" == *"of the same binary, each on its run's kept libraries"* ]]
}
