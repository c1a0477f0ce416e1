#!/usr/bin/env bats
# The one reader of results.json (harness/results/reader.h): a cell's
# config derived where it is missing, a missing required field refused
# with the cell and the field named (exit 2).

load helpers
FIX="$REPO/tests/fixtures/results"

@test "reader: cells without config take it from their id: the same columns as with it" {
    run "$FLAGBENCH" tables "$FIX/fizzbuzz-j4205.json" --format csv
    [ "$status" -eq 0 ]
    want="$output"
    run "$FLAGBENCH" tables "$FIX/no-config.json" --format csv
    [ "$status" -eq 0 ]
    [ "$output" = "$want" ]
    run "$FLAGBENCH" tables "$FIX/no-config.json"
    [ "$status" -eq 0 ]
    [[ "$output" != *"only ? measured"* ]]
    [[ "$output" == *"clang/-O3/x86-64-v2"* ]]
}

@test "reader: without config or one in the id, composed from compiler, opt, march and allocator" {
    run "$FLAGBENCH" tables "$FIX/seed004-host.json" --format json
    [ "$status" -eq 0 ]
    want=$(jq -c '[.families[].tables[] | {name, cols}]' <<<"$output")
    run "$FLAGBENCH" tables "$FIX/no-config-composed.json" --format json
    [ "$status" -eq 0 ]
    [ "$(jq -c '[.families[].tables[] | {name, cols}]' <<<"$output")" = "$want" ]
}

@test "reader: family and variant missing are taken from an id FAMILY/VARIANT@CONFIG" {
    jq 'del(.cells[].family, .cells[].variant, .cells[].config)' "$FIX/fizzbuzz-j4205.json" > "$BATS_TEST_TMPDIR/r.json"
    run "$FLAGBENCH" tables "$FIX/fizzbuzz-j4205.json" --format csv
    [ "$status" -eq 0 ]
    want="$output"
    run "$FLAGBENCH" tables "$BATS_TEST_TMPDIR/r.json" --format csv
    [ "$status" -eq 0 ]
    [ "$output" = "$want" ]
}

@test "reader: a config it cannot derive is refused, naming the cell and the field (exit 2)" {
    run "$FLAGBENCH" tables "$FIX/no-config-underivable.json"
    [ "$status" -eq 2 ]
    [[ "$output" == "flagbench: $FIX/no-config-underivable.json: cell cell-without-config: field config missing"* ]]
    # an id that names no variant: nothing to take it from
    jq 'del(.cells[3].variant) | .cells[3].id = "c3"' "$FIX/fizzbuzz-j4205.json" > "$BATS_TEST_TMPDIR/r.json"
    id=c3
    for cmd in "tables" "compare $FIX/fizzbuzz-j4205.json"; do
        run "$FLAGBENCH" $cmd "$BATS_TEST_TMPDIR/r.json"
        [ "$status" -eq 2 ]
        [[ "$output" == *"r.json: cell $id: field variant missing"* ]]
    done
}
