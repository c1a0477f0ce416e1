#!/usr/bin/env bats
# Your own code end to end: --only that selects nothing is refused with the
# nearest glob, and the cells it leaves out appear nowhere; --family-dir
# without --suite runs those families alone on the default matrix; a
# program that exits non-zero is failed, not crashed, in verification and
# in timing; flagbench on PATH (make install); try's include folder, size,
# unit, default check and start-up warning.

load helpers
bats_require_minimum_version 1.5.0

@test "--only that matches no cell: exit 2 before any folder, naming the nearest family or variant" {
    out="$BATS_TEST_TMPDIR/none"
    run "$FLAGBENCH" run --no-render --suite smoke --dry-run --only 'yess/*' --out "$out"
    [ "$status" -eq 2 ]
    [[ "$output" == *"--only 'yess/*' matches no cell of suite smoke; did you mean 'yes/*'?"* ]]
    [ ! -e "$out" ]
    run "$FLAGBENCH" run --no-render --suite smoke --dry-run --only 'yes/bux@*' --out "$out"
    [ "$status" -eq 2 ]
    [[ "$output" == *"did you mean 'yes/buf@*'?"* ]]
    run "$FLAGBENCH" run --no-render --suite smoke --dry-run --only 'yes/buf@gcc/-O2/nativ' --out "$out"
    [ "$status" -eq 2 ]
    [[ "$output" == *"did you mean 'yes/buf@gcc/-O2/native'?"* ]]
    # nothing near: the message says what an id looks like
    run "$FLAGBENCH" run --no-render --suite quick --dry-run --only 'crc33/*' --out "$out"
    [ "$status" -eq 2 ]
    [[ "$output" == *"--only 'crc33/*' matches no cell of suite quick (cell ids are FAMILY/VARIANT@CONFIG"* ]]
    [ ! -e "$out" ]
}

@test "--only: the cells it leaves out are in no results, progress line or table; --resume keeps the selection" {
    out="$BATS_TEST_TMPDIR/buf"
    run "$FLAGBENCH" run --no-render --suite smoke --dry-run --only 'yes/buf@*' --out "$out"
    [ "$status" -eq 0 ]
    jqr '[.cells[].id] == ["yes/buf@gcc/-O2/native", "yes/buf@clang/-O2/native"]' "$out/results.json"
    # a progress line of 2 for each of the two, in whichever order the rounds ended them
    [[ "$output" =~ \[[12]/2\]\ yes/buf@gcc/-O2/native ]]
    [[ "$output" =~ \[[12]/2\]\ yes/buf@clang/-O2/native ]]
    [[ "$output" != *"simple"* ]]
    [[ "$output" != *"skipped"* ]]
    [ "$(wc -l <"$out/journal.jsonl")" -eq 2 ]
    "$FLAGBENCH" tables "$out" >"$BATS_TEST_TMPDIR/tables.txt"
    refute grep -q 'vmsplice\|simple\|skipped' "$BATS_TEST_TMPDIR/tables.txt"
    grep -q 'buf' "$BATS_TEST_TMPDIR/tables.txt"
    # an interrupted run of that selection, resumed with it: the journal's cell is kept, the other runs
    part="$BATS_TEST_TMPDIR/part"
    mkdir -p "$part"
    cp "$out/results.json" "$part/"
    head -1 "$out/journal.jsonl" >"$part/journal.jsonl"
    run "$FLAGBENCH" run --no-render --suite smoke --dry-run --only 'yes/buf@*' --resume "$part"
    [ "$status" -eq 0 ]
    [[ "$output" == *"1 cells already done"* ]]
    jqr '(.cells | length) == 2 and all(.cells[]; .status == "ok")' "$part/results.json"
}

@test "--family-dir without --suite: those families alone, on the quick suite's compilers x -O2/-O3/-Os x the profile's march" {
    cd "$BATS_TEST_TMPDIR"
    "$FLAGBENCH" new family mine >/dev/null
    run "$FLAGBENCH" run --family-dir mine --dry-run --no-render -o out
    [ "$status" -eq 0 ]
    r=out/results.json
    jqr '([.cells[]] | length > 0) and all(.cells[]; .family == "mine") and (.families | keys) == ["mine"]' "$r"
    jqr '[.cells[].opt] | unique == ["-O2", "-O3", "-Os"]' "$r"
    jqr '[.cells[].compiler] | unique == (["clang", "gcc"] | sort)' "$r"
    # the profile's march (host: native): one variant x 2 compilers x 3 levels
    jqr '[.cells[].march] | unique == ["native"]' "$r"
    [ "$(jq '.cells | length' "$r")" -eq 6 ]
    # with --suite, beside the suite's families, as before
    run "$FLAGBENCH" run --family-dir mine --suite smoke --dry-run --no-render -o out2
    [ "$status" -eq 0 ]
    jqr '(.families | keys) == ["mine", "yes"]' out2/results.json
    # ./run.sh passes no --suite of its own: the same six cells
    run "$REPO/run.sh" --family-dir mine --dry-run --no-render --out "$BATS_TEST_TMPDIR/out3"
    [ "$status" -eq 0 ]
    jqr '(.families | keys) == ["mine"] and (.cells | length) == 6' "$BATS_TEST_TMPDIR/out3/results.json"
}

# A compute family whose programs pass verification (their first run) and
# then fail on every later run: one exits 2, one is killed by SIGSEGV.
later_family() { # DIR
    local d="$1/later"
    mkdir -p "$d"
    local v sig
    for v in exitlater segvlater; do
        sig=0
        [ "$v" = segvlater ] && sig=1
        cat >"$d/$v.c" <<C
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/$v.state", argc > 1 ? argv[1] : ".");
	if (access(path, F_OK) != 0) {
		FILE *f = fopen(path, "w");
		if (f)
			fclose(f);
		puts("first run");
		return 0;
	}
	fputs("$v: refusing the second run\n", stderr);
	if ($sig)
		raise(SIGSEGV);
	return 2;
}
C
    done
    cat >"$d/family.json" <<J
{"family": "later", "kind": "compute", "unit": "runs", "default_size": 1, "pass_size": false,
 "args": ["$1/state"], "check": "none", "baseline": "exitlater",
 "variants": [{"name": "exitlater"}, {"name": "segvlater"}]}
J
    mkdir -p "$1/state"
}

@test "status words: a non-zero exit while timing is failed with its status, a signal is crashed" {
    command -v hyperfine >/dev/null || skip "hyperfine is not installed"
    W="$BATS_TEST_TMPDIR"
    later_family "$W"
    echo '{"name": "later", "variants": ["later/*"], "compilers": ["gcc"], "opt": ["-O1"], "march": ["default"], "runs": 2, "warmup": 0}' \
        >"$W/later.json"
    run "$FLAGBENCH" run --suite "$W/later.json" --family-dir "$W/later" --no-render --no-counters --cooldown 0 \
        --cache "$W/cache" -o "$W/out"
    [ "$status" -eq 1 ]
    st() { jq -r --arg id "$1" '.cells[] | select(.id == $id) | "\(.status): \(.reason)"' "$W/out/results.json"; }
    run st 'later/exitlater@gcc/-O1/default'
    [ "$status" -eq 0 ]
    [[ "$output" == "failed: during timing the program exited with status 2"* ]]
    run st 'later/segvlater@gcc/-O1/default'
    [ "$status" -eq 0 ]
    [[ "$output" == "crashed: during timing the program killed by SIGSEGV"* ]]
}

@test "make install: flagbench on PATH finds the project from anywhere" {
    command -v make >/dev/null || skip "make is not installed"
    [ -x "$REPO/build/flagbench" ] || skip "build/flagbench is not built"
    p="$BATS_TEST_TMPDIR/prefix"
    run make -s -C "$REPO" install PREFIX="$p"
    [ "$status" -eq 0 ]
    [ -x "$p/bin/flagbench" ]
    [ -x "$p/bin/flagbench-meter" ]
    cd "$BATS_TEST_TMPDIR"
    run env -u FLAGBENCH_ROOT PATH="$p/bin:$PATH" flagbench list suites
    [ "$status" -eq 0 ]
    [[ "$output" == *quick* ]]
    [[ "$output" == *smoke* ]]
}

# try's file: a header beside it, N from --size
try_file() { # DIR
    mkdir -p "$1"
    printf '#define SCALE 3\n' >"$1/common.h"
    cat >"$1/work.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "common.h"
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 1, s = 0;
	for (unsigned long i = 0; i < n; i++)
		s += (i ^ (i >> 2)) * SCALE;
	printf("%lu\n", s);
	return 0;
}
C
    echo '{"name": "t", "variants": ["yes/simple"], "compilers": ["gcc"], "opt": ["-O1", "-O2"], "march": ["default"], "runs": 1, "warmup": 0}' \
        >"$1/suite.json"
}

try_in() { # DIR ARGS...
    local d="$1"
    shift
    run "$FLAGBENCH" try "$d/work.c" --suite "$d/suite.json" --cache "$d/cache" --runs 1 --no-render --no-counters -o "$d/out" "$@"
}

@test "try: the file's folder on the include path, --size into {N}, --unit in the rates, the start-up warning" {
    command -v hyperfine >/dev/null || skip "hyperfine is not installed"
    T="$BATS_TEST_TMPDIR/t"
    try_file "$T"
    try_in "$T" --size 1000 --args "{N}" --unit items
    [ "$status" -eq 0 ]
    r="$T/out/results.json"
    jqr '[.cells[] | .status] == ["ok", "ok"] and ([.cells[]] | length > 0) and all(.cells[]; .argv == ["1000"])' "$r"
    jqr '.families.try.unit == "items" and .families.try.size == 1000' "$r"
    jqr '([.cells[]] | length > 0) and all(.cells[]; .rate.unit == "items/s")' "$r"
    # by default every build's output against the first configuration's
    jqr '.families.try.check == "same_as"' "$r"
    # 1000 iterations: the run is mostly the process starting, warned of
    # where the fastest cell's median is under 5 ms (a loaded host may not get there)
    if jqr '[.cells[].time_s.median] | min < 0.005' "$r" >/dev/null; then
        [[ "$output" == *"ms per run: that is mostly the process starting and exiting, not the file's work; give each run more (a larger --size)"* ]]
    else
        [[ "$output" != *"mostly the process starting"* ]]
    fi
    # --size without {N}: N is the first argument
    rm -rf "$T/out"
    try_in "$T" --size 2000
    [ "$status" -eq 0 ]
    jqr '([.cells[]] | length > 0) and all(.cells[]; .argv == ["2000"])' "$r"
    # {N} with no --size is a usage error
    run "$FLAGBENCH" try "$T/work.c" --args "{N}"
    [ "$status" -eq 2 ]
    [[ "$output" == *"--args has {N}: give the size with --size N"* ]]
}

@test "try: the header beside the file changes the build; --unchecked says so; a different output is wrong_output" {
    command -v hyperfine >/dev/null || skip "hyperfine is not installed"
    T="$BATS_TEST_TMPDIR/t"
    try_file "$T"
    try_in "$T" --size 100
    [ "$status" -eq 0 ]
    [[ "$output" == *"built 2, cached 0"* ]]
    printf '#define SCALE 5\n' >"$T/common.h"
    rm -rf "$T/out"
    try_in "$T" --size 100
    [[ "$output" == *"built 2, cached 0"* ]]
    # output that differs with the optimisation level fails the default check
    cat >"$T/work.c" <<'C'
#include <stdio.h>
int main(void)
{
#ifdef __OPTIMIZE__
	puts("optimized");
#else
	puts("plain");
#endif
	return 0;
}
C
    printf '{"name": "t", "variants": ["yes/simple"], "compilers": ["gcc"], "opt": ["-O0", "-O2"], "march": ["default"], "runs": 1, "warmup": 0}\n' \
        >"$T/suite.json"
    rm -rf "$T/out"
    try_in "$T"
    [ "$status" -eq 1 ]
    jqr '[.cells[] | .status] == ["ok", "wrong_output"]' "$T/out/results.json"
    rm -rf "$T/out"
    try_in "$T" --unchecked
    [ "$status" -eq 0 ]
    [[ "$output" == *"¶ unchecked"* ]]
}
