#!/usr/bin/env bats
# run --shard K/N and join (pipeline/shard.h, results/join.h), dry runs:
# the shards of smoke joined are the unsharded run (its cells in order, its
# tables and answers), each variant in one shard and the baseline in every
# shard of its family; join refuses what is not every shard of one plan on
# one cpu model, with exit 2 and the reason.  The split itself, 1 to 5 ways
# on quick and full: tests/unit/test_shard.c, and as dry runs joined in
# tests/slow/shard.bats.

load helpers

# SUITE K/N DIR: one shard's dry run
shard() {
    "$FLAGBENCH" run --no-render --suite "$1" --dry-run --shard "$2" --out "$3" --cache "$BATS_TEST_TMPDIR/cache"
}

# The shape of a run's tables and answers: per family, each table's name,
# columns and rows, and each answer's variant, verdict and leader.
shape() {
    "$FLAGBENCH" tables "$1" --format json |
        jq -c '[.families[] | {f: .name, t: [.tables[] | {name, columns, rows: [.rows[].label]}],
                a: [.answers[] | [.variant, .verdict, .leader]]}]'
}

@test "--shard takes K/N with 1 <= K <= N" {
    for bad in 0/2 3/2 2 x/2 2/; do
        run "$FLAGBENCH" run --suite smoke --dry-run --no-render --shard "$bad" --out "$BATS_TEST_TMPDIR/bad"
        [ "$status" -eq 2 ]
        [[ "$output" == *"--shard '$bad': K/N"* ]]
    done
}

@test "smoke in 3 shards, joined, is the unsharded dry run: cells in order, tables and answers" {
    local d="$BATS_TEST_TMPDIR" k
    run "$FLAGBENCH" run --no-render --suite smoke --dry-run --out "$d/whole" --cache "$d/cache"
    [ "$status" -eq 0 ]
    for k in 1 2 3; do
        run shard smoke "$k/3" "$d/s$k"
        [ "$status" -eq 0 ]
        jqr --argjson k "$k" '.run.shard | .index == $k and .of == 3 and (.plan_sha256 | length) == 64
                              and (.plan_index | length) > 0' "$d/s$k/results.json" >/dev/null
    done
    # one plan: one hash and one cell count in every shard
    [ "$(jq -r '.run.shard | "\(.plan_sha256) \(.plan_cells)"' "$d"/s?/results.json | sort -u | wc -l)" -eq 1 ]
    [ "$(jq '.run.shard.plan_cells' "$d/s1/results.json")" -eq "$(jq '.cells | length' "$d/whole/results.json")" ]
    # each variant in one shard; the baseline in every shard of its family
    jq -s '[.[] | .run.shard.index as $k | .families as $f | .cells[]
            | {k: $k, fam: .family, v: .variant, base: ($f[.family].baseline == .variant and .compiler != "none")}]' \
        "$d"/s?/results.json > "$d/where.json"
    [ "$(jq '[.[] | select(.base | not)] | length' "$d/where.json")" -gt 0 ]
    [ "$(jq '[.[] | select(.base)] | length' "$d/where.json")" -gt 0 ]
    [ "$(jq '[.[] | select(.base | not)] | group_by([.fam, .v]) | map(map(.k) | unique | length) | max' "$d/where.json")" -eq 1 ]
    [ "$(jq '[group_by(.fam)[] | (map(.k) | unique) as $ks | (map(select(.base)) | map(.k) | unique) as $bs
              | select(($bs | length) > 0 and $bs != $ks)] | length' "$d/where.json")" -eq 0 ]
    run "$FLAGBENCH" join "$d/s3" "$d/s1" "$d/s2" --out "$d/joined" --no-render
    [ "$status" -eq 0 ]
    results_intact "$d/joined"
    # the unsharded run's cells, in its order, each once, each with its shard
    diff <(jq -c '[.cells[].id]' "$d/whole/results.json") <(jq -c '[.cells[].id]' "$d/joined/results.json")
    [ "$(jq '[.cells[] | select(.shard | IN(1, 2, 3) | not)] | length' "$d/joined/results.json")" -eq 0 ]
    # rounds pair within a shard only: pass renumbered pass * N + K - 1
    [ "$(jq '[.cells[] | select(.time_s.pass != null)] | length' "$d/joined/results.json")" -gt 0 ]
    [ "$(jq '[.cells[] | select(.time_s.pass != null and .time_s.pass % 3 != .shard - 1)] | length' \
        "$d/joined/results.json")" -eq 0 ]
    jqr '.run.joined.of == 3 and (.run.shards | length) == 3 and ([.run.shards[].copies | length] | add) > 0
         and all(.run.shards[]; .host.cpu_model | type == "string")' "$d/joined/results.json" >/dev/null
    [ "$(shape "$d/whole" | tee "$d/a")" = "$(shape "$d/joined")" ]
    [ "$(jq '.[0].a | length' "$d/a")" -ge 2 ]
    # each variant against the baseline of its own shard: with the later
    # shards' copies of the baseline failed, their variants have no speedup
    # and those of the first shard keep theirs
    mkdir -p "$d/failed"
    jq '.run.shards[].copies[] |= (.status = "failed" | .time_s = null | .throughput_Bps = null)' \
        "$d/joined/results.json" > "$d/failed/results.json"
    speedups() { # DIR: "SHARD VALUE" per cell of a variant of the speedup table but the baseline
        "$FLAGBENCH" tables "$1" --family yes --table speedup --format json |
            jq -r --slurpfile r "$1/results.json" '.families[0].tables[0].rows[] | select(.label != "simple" and (.ref | not)) | .label as $v
                | ([$r[0].cells[] | select(.variant == $v)][0].shard) as $k | .cells[] | "\($k) \(.value)"'
    }
    speedups "$d/joined" > "$d/all"
    speedups "$d/failed" > "$d/some"
    [ "$(grep -vc ' null$' "$d/all")" -eq "$(wc -l < "$d/all")" ]
    first=$(jq '[.cells[] | select(.family == "yes" and .variant == "simple")][0].shard' "$d/joined/results.json")
    [ "$(awk -v f="$first" '$1 == f && $2 != "null"' "$d/some" | wc -l)" -ge 1 ]
    [ "$(awk -v f="$first" '$1 != f' "$d/some" | wc -l)" -ge 1 ]
    [ "$(awk -v f="$first" '$1 != f && $2 != "null"' "$d/some" | wc -l)" -eq 0 ]
    # history and compare read it as one run
    run "$FLAGBENCH" history import --db "$d/h.db" "$d/joined"
    [ "$status" -eq 0 ]
    [[ "$output" == *"1 run imported"* ]]
    run "$FLAGBENCH" compare "$d/whole" "$d/joined"
    [ "$status" -eq 0 ]
}

@test "join refuses another plan, a shard twice, a missing shard, another cpu model" {
    local d="$BATS_TEST_TMPDIR"
    run "$FLAGBENCH" join --help
    [ "$status" -eq 0 ]
    [[ "$output" == *"usage: flagbench join SHARD_RUN..."* ]]
    [[ "$output" != *"render"*"did not start"* ]]
    for k in 1 2; do
        run shard smoke "$k/2" "$d/s$k"
        [ "$status" -eq 0 ]
    done
    run shard smoke 1/3 "$d/other"
    [ "$status" -eq 0 ]
    run "$FLAGBENCH" join "$d/s1" "$d/other" --out "$d/j1"
    [ "$status" -eq 2 ]
    [[ "$output" == *"$d/other: a shard of another plan"* ]]
    run "$FLAGBENCH" join "$d/s1" "$d/s2" "$d/s2" --out "$d/j2"
    [ "$status" -eq 2 ]
    [[ "$output" == *"shard 2/2 given twice"* ]]
    run "$FLAGBENCH" join "$d/s2" --out "$d/j3"
    [ "$status" -eq 2 ]
    [[ "$output" == *"shard 1/2 missing"* ]]
    mkdir -p "$d/elsewhere"
    jq '.host.cpu_model = "Another CPU 9000"' "$d/s2/results.json" > "$d/elsewhere/results.json"
    run "$FLAGBENCH" join "$d/s1" "$d/elsewhere" --out "$d/j4"
    [ "$status" -eq 2 ]
    [[ "$output" == *"different cpu models"*"Another CPU 9000"* ]]
    # an unsharded run is no shard
    run "$FLAGBENCH" run --no-render --suite smoke --dry-run --out "$d/whole" --cache "$d/cache"
    [ "$status" -eq 0 ]
    run "$FLAGBENCH" join "$d/s1" "$d/whole" --out "$d/j5"
    [ "$status" -eq 2 ]
    [[ "$output" == *"whole: not a shard"* ]]
    for j in j1 j2 j3 j4 j5; do [ ! -e "$d/$j/results.json" ]; done
    # the good pair joins
    run "$FLAGBENCH" join "$d/s1" "$d/s2" --out "$d/ok" --no-render
    [ "$status" -eq 0 ]
    [ "$(jq '.cells | length' "$d/ok/results.json")" -eq "$(jq '.cells | length' "$d/whole/results.json")" ]
}
