#!/usr/bin/env bats
# The matrix from the command line: --compilers, --opt, --march and --flags
# replace the suite's (or the profile's) dimension, with no suite file;
# results.json keeps them (run.matrix); bad values stop the run with exit 2
# and the reason before any folder is made; -o names the run.

load helpers
bats_require_minimum_version 1.5.0

MIX="$BATS_TEST_DIRNAME/../../examples/families/mix"

need_gcc_clang_x86() {
    command -v gcc >/dev/null || skip "gcc not on PATH"
    command -v clang >/dev/null || skip "clang not on PATH"
    [ "$(uname -m)" = x86_64 ] || skip "x86-64-v3 is an x86-64 -march; this host is $(uname -m)"
}

@test "--compilers gcc,clang --opt -O2,-O3 --march native,x86-64-v3: 8 configurations per variant, no suite file" {
    need_gcc_clang_x86
    out="$BATS_TEST_TMPDIR/m"
    run "$FLAGBENCH" run --family-dir "$MIX" --compilers gcc,clang --opt -O2,-O3 --march native,x86-64-v3 \
        --dry-run --no-render -o "$out"
    [ "$status" -eq 0 ]
    r="$out/results.json"
    # two variants x 8 configurations
    [ "$(jq '[.cells[] | select(.variant == "plain")] | length' "$r")" -eq 8 ]
    [ "$(jq '[.cells[] | select(.variant == "unrolled")] | length' "$r")" -eq 8 ]
    [ "$(jq '.cells | length' "$r")" -eq 16 ]
    jqr '[.cells[] | select(.variant == "plain") | .config] | sort ==
         ["clang/-O2/native", "clang/-O2/x86-64-v3", "clang/-O3/native", "clang/-O3/x86-64-v3",
          "gcc/-O2/native", "gcc/-O2/x86-64-v3", "gcc/-O3/native", "gcc/-O3/x86-64-v3"]' "$r"
    # the record keeps the command line's matrix in the suite's shape
    jqr '.run.matrix == {"compilers": ["gcc", "clang"], "opt": ["-O2", "-O3"], "march": ["native", "x86-64-v3"]}' "$r"
    # the progress lines show the plan's cells
    [[ "$output" == *"mix/plain@clang/-O3/x86-64-v3"* ]]
}

@test "--flags 'base=;lto=-flto': named flag sets; ./run.sh --opt alone: the suite's other dimensions stay" {
    out="$BATS_TEST_TMPDIR/f"
    run "$FLAGBENCH" run --family-dir "$MIX" --compilers gcc --opt -O2 --march default --flags 'base=;lto=-flto' \
        --dry-run --no-render -o "$out"
    [ "$status" -eq 0 ]
    r="$out/results.json"
    [ "$(jq '[.cells[] | select(.variant == "plain")] | length' "$r")" -eq 2 ]
    jqr '[.cells[] | select(.variant == "plain") | .id] | sort == ["mix/plain@gcc/-O2/default/base", "mix/plain@gcc/-O2/default/lto"]' "$r"
    jqr '.run.matrix.flags == {"base": [], "lto": ["-flto"]}' "$r"
    # --opt alone, through ./run.sh: the quick suite's compilers, the profile's march
    out="$BATS_TEST_TMPDIR/o"
    run "$REPO/run.sh" --family-dir "$MIX" --opt -O1 --dry-run --no-render --out "$out"
    [ "$status" -eq 0 ]
    jqr '[.cells[].opt] | unique == ["-O1"]' "$out/results.json"
    jqr '.run.matrix == {"opt": ["-O1"]}' "$out/results.json"
    [ "$(jq '[.cells[].compiler] | unique | length' "$out/results.json")" -ge 1 ]
}

@test "bad matrix values: exit 2 with the reason, before any folder or build" {
    command -v gcc >/dev/null || skip "gcc not on PATH"
    out="$BATS_TEST_TMPDIR/bad"
    run "$FLAGBENCH" run --family-dir "$MIX" --compilers gcc --march default,not-a-cpu-at-all -o "$out" --no-render
    [ "$status" -eq 2 ]
    [[ "$output" == *"--march not-a-cpu-at-all: gcc does not accept -march=not-a-cpu-at-all: "* ]]
    [ ! -e "$out" ]
    run "$FLAGBENCH" run --family-dir "$MIX" --compilers gcc,no-such-cc-51 -o "$out" --no-render --dry-run
    [ "$status" -eq 2 ]
    [[ "$output" == *"compiler 'no-such-cc-51' not found on PATH"* ]]
    [ ! -e "$out" ]
    run "$FLAGBENCH" run --family-dir "$MIX" --compilers gcc --opt -O2,-Onot -o "$out" --no-render --dry-run
    [ "$status" -eq 2 ]
    [[ "$output" == *"--opt -Onot: gcc does not accept -Onot: "* ]]
    run "$FLAGBENCH" run --family-dir "$MIX" --opt O2 -o "$out" --no-render --dry-run
    [ "$status" -eq 2 ]
    [[ "$output" == *"command line: opt[0]: 'O2' is not a compiler flag"* ]]
    run "$FLAGBENCH" run --family-dir "$MIX" --opt -O2,,-O3 -o "$out" --no-render --dry-run
    [ "$status" -eq 2 ]
    [[ "$output" == *"--opt '-O2,,-O3': an empty entry"* ]]
    run "$FLAGBENCH" run --family-dir "$MIX" --flags 'lto' -o "$out" --no-render --dry-run
    [ "$status" -eq 2 ]
    [[ "$output" == *"--flags: 'lto' has no '='"* ]]
    run "$FLAGBENCH" run --family-dir "$MIX" --flags 'lto=flto' -o "$out" --no-render --dry-run
    [ "$status" -eq 2 ]
    [[ "$output" == *"command line: flags.lto[0]: must be a compiler flag starting with '-'"* ]]
    [ ! -e "$out" ]
}

@test "-o names the run: the summary's first line and run.name say the folder chosen, run.id stays a stamp" {
    out="$BATS_TEST_TMPDIR/results/zstd-march/"
    run --separate-stderr "$FLAGBENCH" run --family-dir "$MIX" --opt -O2 --dry-run --no-render -o "$out"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "run zstd-march: suite quick on "* ]]
    jqr '.run.name == "zstd-march"' "$out/results.json"
    # the id stays unique: a nightly writes the same folder every night into one history
    jqr '.run.id | test("^[0-9]{8}T[0-9]{6}Z-quick-")' "$out/results.json"
    # -o .: no name of its own; the id of time, suite and profile
    cd "$BATS_TEST_TMPDIR"
    run "$FLAGBENCH" run --family-dir "$MIX" --opt -O2 --dry-run --no-render -o .
    [ "$status" -eq 0 ]
    jqr '(.run.id | test("^[0-9]{8}T[0-9]{6}Z-quick-")) and .run.name == null' results.json
}

@test "tune's start: a compiler, -O or -march the compiler rejects is exit 2 with the reason" {
    command -v gcc >/dev/null || skip "gcc not on PATH"
    run "$FLAGBENCH" tune mix/plain --family-dir "$MIX" --compiler gcc --opt -Onot --dry-run -o "$BATS_TEST_TMPDIR/t"
    [ "$status" -eq 2 ]
    [[ "$output" == *"the start: --opt -Onot: gcc does not accept -Onot"* ]]
    run "$FLAGBENCH" tune mix/plain --family-dir "$MIX" --compiler no-such-cc-51 --dry-run -o "$BATS_TEST_TMPDIR/t"
    [ "$status" -eq 2 ]
    [[ "$output" == *"compiler 'no-such-cc-51' not found on PATH"* ]]
}
