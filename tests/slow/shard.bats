#!/usr/bin/env bats
# The quick and full suites split 1 to 5 ways, as dry runs: no cell twice
# but the baselines' copies, none lost, each variant in one shard, the
# baseline in every shard of its family, and the N shards joined are the
# unsharded run's cells in its order (the split alone, fast:
# tests/unit/test_shard.c).

load ../e2e/helpers

# SUITE N: the suite's dry run whole and in N shards, checked and joined
split_and_join() {
    local suite="$1" n="$2" d="$BATS_TEST_TMPDIR/$1-$2" k
    "$FLAGBENCH" run --no-render --suite "$suite" --dry-run --out "$d/whole" --cache "$d/cache" >/dev/null 2>&1 ||
        { echo "$suite: the unsharded dry run failed"; return 1; }
    for ((k = 1; k <= n; k++)); do
        "$FLAGBENCH" run --no-render --suite "$suite" --dry-run --shard "$k/$n" --out "$d/s$k" --cache "$d/cache" \
            >/dev/null 2>&1 || { echo "$suite: shard $k/$n failed"; return 1; }
    done
    jq -s '[.[] | .run.shard.index as $k | .families as $f | .cells[]
            | {k: $k, id, fam: .family, v: .variant, base: ($f[.family].baseline == .variant and .compiler != "none")}]' \
        "$d"/s*/results.json > "$d/where.json"
    local whole copies lost twice split nobase
    whole=$(jq '.cells | length' "$d/whole/results.json")
    lost=$(jq --slurpfile w "$d/whole/results.json" '[$w[0].cells[].id] - [.[].id] | length' "$d/where.json")
    twice=$(jq '[.[] | select(.base | not)] | group_by(.id) | map(select(length > 1)) | length' "$d/where.json")
    split=$(jq '[.[] | select(.base | not)] | group_by([.fam, .v]) | map(select((map(.k) | unique | length) > 1)) | length' "$d/where.json")
    nobase=$(jq '[group_by(.fam)[] | (map(.k) | unique) as $ks | (map(select(.base)) | map(.k) | unique) as $bs
                  | select(($bs | length) > 0 and $bs != $ks)] | length' "$d/where.json")
    copies=$(jq '[.[] | select(.base)] | length' "$d/where.json")
    echo "$suite in $n: $whole cells, $lost lost, $twice twice, $split variants split, $nobase families without their baseline, $copies baseline cells"
    [ "$whole" -gt 0 ] && [ "$lost" -eq 0 ] && [ "$twice" -eq 0 ] && [ "$split" -eq 0 ] && [ "$nobase" -eq 0 ] && [ "$copies" -gt 0 ] ||
        return 1
    "$FLAGBENCH" join "$d"/s* --out "$d/joined" --no-render >/dev/null 2>&1 || { echo "$suite in $n: join failed"; return 1; }
    diff <(jq -c '[.cells[].id]' "$d/whole/results.json") <(jq -c '[.cells[].id]' "$d/joined/results.json")
}

@test "quick split 1 to 5 ways partitions its plan and joins back" {
    for n in 1 2 3 4 5; do
        run split_and_join quick "$n"
        echo "$output"
        [ "$status" -eq 0 ]
    done
}

@test "full split 1 to 5 ways partitions its plan and joins back" {
    for n in 1 2 3 4 5; do
        run split_and_join full "$n"
        echo "$output"
        [ "$status" -eq 0 ]
    done
}
