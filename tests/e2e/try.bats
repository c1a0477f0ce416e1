#!/usr/bin/env bats
# `flagbench try FILE.c`: one C file across the suite's compilers and flags,
# no family.json; its checks (--expect-sha256, --expect-output,
# --same-output, none) and its answer in words.

load helpers
bats_require_minimum_version 1.5.0

setup() {
    T="$BATS_TEST_TMPDIR"
    cat > "$T/count.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 10, s = 0;
	for (unsigned long i = 0; i < n; i++)
		s += i ^ (i >> 2);
	printf("%lu\n", s);
	return 0;
}
C
    echo '{"name": "t", "variants": ["yes/simple"], "compilers": ["gcc"], "opt": ["-O1", "-O2"], "march": ["default"], "runs": 1, "warmup": 0}' \
        > "$T/suite.json"
    want=$("${CC:-cc}" -O2 -o "$T/ref" "$T/count.c" && "$T/ref" 1000)
}

try_run() {
    run "$FLAGBENCH" try "$T/count.c" --suite "$T/suite.json" --cache "$T/cache" --runs 1 --no-render --no-counters -o "$T/out" "$@"
}

@test "try: every configuration checked against a digest, and the answer names the fastest" {
    try_run --args "1000" --expect-sha256 "$(echo "$want" | sha256sum | cut -c1-64)"
    [ "$status" -eq 0 ]
    grep -qE '^  count  gcc/-O[12]/default  [0-9.]+x (\[[0-9.]+x, [0-9.]+x\] )?over gcc/-O[12]/default: ' <<<"$output"
    jqr '[.cells[] | .status] == ["ok", "ok"] and .cells[0].argv == ["1000"]' "$T/out/results.json"
    # its temporary family folder is new each time, the cache key the same
    rm -rf "$T/out"
    try_run --args "1000"
    [[ "$output" == *"built 0, cached 2"* ]]
}

@test "try: a wrong digest, an expected output file, the same output, or none (unchecked)" {
    try_run --args "1000" --expect-sha256 "$(printf 'x' | sha256sum | cut -c1-64)"
    [ "$status" -eq 1 ]
    jqr '[.cells[] | .status] == ["wrong_output", "wrong_output"]' "$T/out/results.json"
    echo "$want" > "$T/want.txt"
    rm -rf "$T/out"
    try_run --args "1000" --expect-output "$T/want.txt"
    [ "$status" -eq 0 ]
    rm -rf "$T/out"
    try_run --args "1000" --same-output
    [ "$status" -eq 0 ]
    jqr '.families.try.check == "same_as"' "$T/out/results.json"
    rm -rf "$T/out"
    try_run --args "1000" --unchecked
    [ "$status" -eq 0 ]
    [[ "$output" == *"¶ unchecked"* ]]
}

@test "try: usage errors exit 2" {
    run "$FLAGBENCH" try
    [ "$status" -eq 2 ]
    run "$FLAGBENCH" try "$T/count.c" --same-output --expect-sha256 abc
    [ "$status" -eq 2 ]
    [[ "$output" == *"exclude each other"* ]]
    run "$FLAGBENCH" try "$T/none.c"
    [ "$status" -eq 2 ]
    [[ "$output" == *"cannot read $T/none.c"* ]]
    run "$FLAGBENCH" try "$T/count.c" --expect-output "$T/none.txt" --suite "$T/suite.json"
    [ "$status" -eq 2 ]
    [[ "$output" == *"cannot read $T/none.txt"* ]]
}

@test "try: a digest that is not 64 hex digits is a usage error" {
    run "$FLAGBENCH" try "$T/count.c" --expect-sha256 abc
    [ "$status" -eq 2 ]
    [[ "$output" == *"--expect-sha256 must be 64 hex digits, not 'abc'"* ]]
}

@test "try: --opt and --march replace the suite's; a -march the compiler rejects is exit 2 before any build" {
    try_run --args "1000" --opt -O0,-O3 --march default
    [ "$status" -eq 0 ]
    jqr '[.cells[] | select(.variant == "count") | .opt] | sort == ["-O0", "-O3"]' "$T/out/results.json"
    jqr '.run.matrix == {"opt": ["-O0", "-O3"], "march": ["default"]}' "$T/out/results.json"
    run "$FLAGBENCH" try "$T/count.c" --suite "$T/suite.json" --cache "$T/cache" --march not-a-cpu-at-all -o "$T/bad"
    [ "$status" -eq 2 ]
    [[ "$output" == *"--march not-a-cpu-at-all: gcc does not accept -march=not-a-cpu-at-all"* ]]
    [ ! -e "$T/bad" ]
}
