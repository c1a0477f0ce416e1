#!/usr/bin/env bats
# Runs that measure nothing fail: a suite glob that matches no variant is a
# config error (file:line:column, did-you-mean), a run in which no cell is ok
# exits 1, --help of every command exits 0 with its usage and a bad option
# exits 2 with a did-you-mean, and bad usage of ./run.sh leaves no folder
# behind.

bats_require_minimum_version 1.5.0
load helpers

suite_file() { # name, then the variants JSON list
    printf '{\n  "name": "%s",\n  "variants": %s,\n  "compilers": ["gcc"],\n  "opt": ["-O2"],\n  "march": ["default"]\n}\n' \
        "$1" "$2" >"$BATS_TEST_TMPDIR/$1.json"
}

@test "a suite glob with a typo: exit 2 at its file:line:column, the nearest variant named" {
    suite_file typo '["yes/buf", "yes/bfu"]'
    run "$FLAGBENCH" run --no-render --suite "$BATS_TEST_TMPDIR/typo.json" --dry-run --out "$BATS_TEST_TMPDIR/o"
    [ "$status" -eq 2 ]
    [ "$output" = "flagbench: $BATS_TEST_TMPDIR/typo.json:3:27: variants[1]: 'yes/bfu' matches no variant; did you mean 'yes/buf'? (flagbench list variants)" ]
    [ ! -e "$BATS_TEST_TMPDIR/o" ]
}

@test "an unknown glob beside a good one is not dropped silently" {
    suite_file nope '["yes/*", "yes/nope"]'
    run "$FLAGBENCH" run --no-render --suite "$BATS_TEST_TMPDIR/nope.json" --dry-run --out "$BATS_TEST_TMPDIR/o"
    [ "$status" -eq 2 ]
    [[ "$output" == *"nope.json:3:25: variants[1]: 'yes/nope' matches no variant (flagbench list variants)" ]]
    # a glob that matches nothing at all, and a lone string
    suite_file empty '"sortsum/*"'
    run "$FLAGBENCH" run --no-render --suite "$BATS_TEST_TMPDIR/empty.json" --dry-run --out "$BATS_TEST_TMPDIR/o"
    [ "$status" -eq 2 ]
    [[ "$output" == *"empty.json:3:15: variants: 'sortsum/*' matches no variant"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/o" ]
}

@test "a run in which no cell is ok exits 1" {
    # an --only that selects nothing is bad usage now, not a run of skipped cells
    run "$FLAGBENCH" run --no-render --suite smoke --dry-run --only 'nothing/*' --out "$BATS_TEST_TMPDIR/none"
    [ "$status" -eq 2 ]
    [ ! -e "$BATS_TEST_TMPDIR/none" ]
    # every cell unsupported: a compiler that is not installed
    printf '{"name": "nocc", "variants": ["yes/buf"], "compilers": ["no-such-cc"], "opt": ["-O2"], "march": ["default"]}\n' \
        >"$BATS_TEST_TMPDIR/nocc.json"
    run "$FLAGBENCH" run --no-render --suite "$BATS_TEST_TMPDIR/nocc.json" --out "$BATS_TEST_TMPDIR/nocc" --only 'yes/buf@*'
    [ "$status" -eq 1 ]
    jq -e '[.cells[] | select(.variant == "buf")] | length > 0 and all(.status == "unsupported" and
           (.reason | contains("no-such-cc")))' "$BATS_TEST_TMPDIR/nocc/results.json"
}

# every command flagbench --help lists, so that a new one cannot escape
commands() {
    "$FLAGBENCH" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'
}

@test "--help of every command exits 0 and starts with its usage" {
    local c n=0
    for c in $(commands); do
        n=$((n + 1))
        run "$FLAGBENCH" "$c" --help
        [ "$status" -eq 0 ] || { echo "$c --help: exit $status"; return 1; }
        [[ "${lines[0]}" == "usage: flagbench $c"* ]] || { echo "$c --help: ${lines[0]}"; return 1; }
    done
    [ "$n" -ge 16 ]
    run "$FLAGBENCH" --help
    [ "$status" -eq 0 ]
    # bad usage stays exit 2
    run "$FLAGBENCH" list nothing
    [ "$status" -eq 2 ]
    run "$FLAGBENCH" check
    [ "$status" -eq 2 ]
    [[ "$output" == *"usage: flagbench check FAMILY N"* ]]
}

@test "a bad option of every command exits 2 with a did-you-mean" {
    local c
    for c in $(commands); do
        run "$FLAGBENCH" "$c" --hepl
        [ "$status" -eq 2 ] || { echo "$c --hepl: exit $status"; return 1; }
        [[ "$output" == *"unknown option '--hepl'; did you mean '--help'?"* ]] || { echo "$c --hepl: $output"; return 1; }
    done
}

@test "generated usage errors: list, new, rerun, try" {
    run "$FLAGBENCH" list sutes
    [ "$status" -eq 2 ]
    [[ "$output" == *"cannot list 'sutes'; did you mean 'suites'? (usage: flagbench list cpus|suites|variants|compilers"* ]]
    run "$FLAGBENCH" new famliy x
    [ "$status" -eq 2 ]
    [[ "$output" == *"(usage: flagbench new family NAME [DIR]"* ]]
    run "$FLAGBENCH" rerun
    [ "$status" -eq 2 ]
    [[ "$output" == *"(usage: flagbench rerun RUN_DIR [options]"* ]]
    run "$FLAGBENCH" try
    [ "$status" -eq 2 ]
    [[ "$output" == *"(usage: flagbench try FILE.c|FILE.cpp [options]"* ]]
    run "$FLAGBENCH" try --help
    [ "$status" -eq 0 ]
    [[ "$output" == *"--timeout SECONDS"*"(default 120)"* ]]
}

@test "generated usage and defaults: run, compare, explain, baseline, tables" {
    run "$FLAGBENCH" compare --help
    [ "$status" -eq 0 ]
    [ "${lines[1]}" = "       flagbench compare --baseline NAME NEW [options]" ]
    [[ "$output" == *"--timeout SECONDS"*"(default 120)"* ]]
    run "$FLAGBENCH" compare a
    [ "$status" -eq 2 ]
    [[ "$output" == *"(usage: flagbench compare BASE NEW [options] or flagbench compare --baseline NAME NEW [options]; see --help)"* ]]
    run "$FLAGBENCH" baseline keep x
    [ "$status" -eq 2 ]
    [[ "$output" == *"(usage: flagbench baseline save RUN [options]"* ]]
    run "$FLAGBENCH" tables --format xml x
    [ "$status" -eq 2 ]
    [[ "$output" == *"unknown format xml (term, md, csv, json or tsv) (usage: flagbench tables RUN_DIR... [options]"* ]]
    run "$FLAGBENCH" merge --help
    [ "$status" -eq 0 ]
    [[ "$output" == *"--format term|md|csv|json|tsv"*"(default md)"* ]]
    for c in run explain; do
        run "$FLAGBENCH" "$c" --help
        [ "$status" -eq 0 ]
        [[ "$output" == *"--timeout SECONDS"*"(default 120)"* ]] || { echo "$c: $output"; return 1; }
        [[ "$output" == *"--build-timeout SECONDS"*"(default 300)"* ]] || { echo "$c: $output"; return 1; }
    done
    run "$FLAGBENCH" run stray
    [ "$status" -eq 2 ]
    [[ "$output" == *"unexpected argument 'stray'"* ]]
    # a suite's runs and warmup: the same check as --runs and --warmup
    printf '{"name": "w", "variants": ["yes/buf"], "compilers": ["gcc"], "opt": ["-O2"],\n "warmup": 1001}\n' \
        >"$BATS_TEST_TMPDIR/w.json"
    run "$FLAGBENCH" run --suite "$BATS_TEST_TMPDIR/w.json" --dry-run --out "$BATS_TEST_TMPDIR/o"
    [ "$status" -eq 2 ]
    [[ "$output" == *"w.json:2:12: warmup: 'warmup' must be an integer from 0 to 1000, not '1001'"* ]]
    run "$FLAGBENCH" run --suite smoke --warmup 1001 --dry-run
    [ "$status" -eq 2 ]
    [[ "$output" == *"'warmup' must be an integer from 0 to 1000, not '1001'"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/o" ]
}

@test "flagbench list: cpus, suites, variants, compilers" {
    run "$FLAGBENCH" list cpus
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = host ]
    run "$FLAGBENCH" list suites
    [ "$status" -eq 0 ]
    [[ "$output" == *smoke* ]]
    run "$FLAGBENCH" list variants
    [ "$status" -eq 0 ]
    [[ "$output" == *"yes/buf"* && "$output" == *"(reference)"* ]]
    run "$FLAGBENCH" list compilers
    [ "$status" -eq 0 ]
    [[ "$output" == *gcc* ]]
}

@test "./run.sh with a bad option or an unknown profile exits 2 and leaves no folder" {
    out="$BATS_TEST_TMPDIR/rs"
    run "$REPO/run.sh" --cpu NOPE --suite smoke --out "$out"
    [ "$status" -eq 2 ]
    [[ "$output" == *"unknown cpu profile 'NOPE'"* ]]
    [ ! -e "$out" ]
    run "$REPO/run.sh" --suite smoke --out "$out" --rusn 3
    [ "$status" -eq 2 ]
    [[ "$output" == *"did you mean '--runs'?"* ]]
    [ ! -e "$out" ]
    run "$REPO/run.sh" --suite nosuch --out "$out"
    [ "$status" -eq 2 ]
    [ ! -e "$out" ]
    run "$REPO/run.sh" --out
    [ "$status" -eq 2 ]
    [[ "$output" == *"--out needs a value"* ]]
    run "$REPO/run.sh" --help
    [ "$status" -eq 0 ]
}
