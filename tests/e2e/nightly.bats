#!/usr/bin/env bats
# ci/nightly.sh end to end in dry mode (mock executor, the smoke suite): the
# first night stores the baseline, the next compares with it and writes the
# job summary, a doctored baseline makes it fail; the workflows are linted.

load helpers

setup() {
    export NIGHTLY_DRY=1 NIGHTLY_SUITE=smoke
    export NIGHTLY_OUT="$BATS_TEST_TMPDIR/run" NIGHTLY_BASELINES="$BATS_TEST_TMPDIR/baselines"
    export NIGHTLY_HISTORY="$BATS_TEST_TMPDIR/history.db"
    export GITHUB_STEP_SUMMARY="$BATS_TEST_TMPDIR/summary.md"
    export FLAGBENCH
}

@test "nightly dry run: no baseline, then the baseline, then a regression" {
    run "$REPO/ci/nightly.sh" host
    [ "$status" -eq 0 ]
    grep -q "no baseline nightly for cpu profile host yet" "$GITHUB_STEP_SUMMARY"
    jqr '.status == "no_baseline" and .metric == "time" and .run_exit == 0' "$NIGHTLY_OUT/nightly.json"
    [ ! -e "$NIGHTLY_BASELINES/host/nightly" ]

    NIGHTLY_SAVE=1 run "$REPO/ci/nightly.sh" host
    [ "$status" -eq 0 ]
    [ -f "$NIGHTLY_BASELINES/host/nightly/results.json" ]

    : > "$GITHUB_STEP_SUMMARY"
    run "$REPO/ci/nightly.sh" host
    [ "$status" -eq 0 ]
    grep -q '^## nightly host (time gate)' "$GITHUB_STEP_SUMMARY"
    grep -q '^| cell | base | new | new/base | 95 % interval | verdict | note |' "$GITHUB_STEP_SUMMARY"
    grep -q '9 cells: 9 same, 0 slower' "$GITHUB_STEP_SUMMARY"
    jqr '.status == "passed" and .compare_exit == 0' "$NIGHTLY_OUT/nightly.json"
    jqr '.counts.same == 9' "$NIGHTLY_OUT/compare.json"
    # a dry run keeps no binaries: nothing to confirm beside, and it says so
    [[ "$output" == *"not confirming: tonight's run kept no binaries"* ]]
    jqr '.confirmation == null' "$NIGHTLY_OUT/compare.json"
    # the alarm rate reaches compare, which checks it
    NIGHTLY_ALARM_RATE=30 run "$REPO/ci/nightly.sh" host
    [ "$status" -eq 2 ]
    [[ "$output" == *"'alarm-rate' must be a number from 0.01 to 20, not '30'"* ]]

    # a baseline twice as fast on one cell: tonight that cell is slower
    b="$NIGHTLY_BASELINES/host/nightly/results.json"
    jq '(.cells[] | select(.id == "yes/buf@gcc/-O2/native") | .time_s.runs) |= map(. / 2)' "$b" > "$b.new"
    mv "$b.new" "$b"
    before=$(sha256sum < "$b")
    : > "$GITHUB_STEP_SUMMARY"
    NIGHTLY_SAVE=1 run "$REPO/ci/nightly.sh" host
    [ "$status" -eq 1 ]
    grep -q '`yes/buf@gcc/-O2/native` .* \*\*slower\*\*' "$GITHUB_STEP_SUMMARY"
    jqr '.status == "slower" and .compare_exit == 1' "$NIGHTLY_OUT/nightly.json"
    # a failing night never becomes the baseline
    [ "$(sha256sum < "$b")" = "$before" ]
}

@test "the gate: a same binary slower with nothing recorded changed is left to the history, every other slower cell fails" {
    c="$BATS_TEST_TMPDIR/compare.json"
    cat > "$c" <<'J'
{"cells": [
 {"id": "a/new-binary", "verdict": "slower", "same_program": false, "system_changed": null},
 {"id": "b/machine", "verdict": "slower", "same_program": true, "system_changed": false},
 {"id": "c/libc", "verdict": "slower", "same_program": true, "system_changed": true},
 {"id": "d/unlisted", "verdict": "slower", "same_program": true, "system_changed": null},
 {"id": "e/faster", "verdict": "faster", "same_program": true, "system_changed": false}]}
J
    run jq -c -f "$REPO/ci/gate.jq" "$c"
    [ "$status" -eq 0 ]
    [ "$output" = '{"fails":["a/new-binary","c/libc","d/unlisted"],"machine":["b/machine"]}' ]
    # compare says whether the runs recorded a change, for the same program in two runs only
    run "$FLAGBENCH" compare --format json "$REPO/tests/fixtures/results/counts-tie.json" "$REPO/tests/fixtures/results/counts-tie.json"
    [ "$status" -eq 0 ]
    jq -e '[.cells[].system_changed] | length > 0 and all(. == null)' <<<"$output"
}

@test "nightly in 2 shards: each shard runs only, the join gates the night; the workflow fans out and joins" {
    for k in 1 2; do
        NIGHTLY_SHARD=$k/2 NIGHTLY_OUT="$BATS_TEST_TMPDIR/shards/s$k" run "$REPO/ci/nightly.sh" host
        [ "$status" -eq 0 ]
        [[ "$output" == *"shard $k/2 in"* ]]
        [ ! -e "$BATS_TEST_TMPDIR/shards/s$k/nightly.json" ]
    done
    NIGHTLY_SHARDS_FROM="$BATS_TEST_TMPDIR/shards" run "$REPO/ci/nightly.sh" host
    [ "$status" -eq 0 ]
    jqr '.run.joined.of == 2 and (.cells | length) == 9' "$NIGHTLY_OUT/results.json"
    jqr '.status == "no_baseline"' "$NIGHTLY_OUT/nightly.json"
    # a shard missing: the join refuses, the night is an error
    rm -rf "$BATS_TEST_TMPDIR/shards/s2"
    NIGHTLY_SHARDS_FROM="$BATS_TEST_TMPDIR/shards" run "$REPO/ci/nightly.sh" host
    [ "$status" -eq 2 ]
    [[ "$output" == *"shard 2/2 missing"* ]]
    # the workflow: a matrix over the shards, a join per profile before publish
    w="$REPO/.github/workflows/nightly.yml"
    grep -q 'shard: ${{ fromJSON(needs.shards.outputs.list) }}' "$w"
    grep -q 'NIGHTLY_SHARD: ${{ matrix.shard }}/${{ needs.shards.outputs.count }}' "$w"
    grep -q 'NIGHTLY_SHARDS_FROM: shards' "$w"
    grep -q 'needs: \[hosted, join\]' "$w"
}

@test "nightly: bad usage exits 2" {
    run "$REPO/ci/nightly.sh"
    [ "$status" -eq 2 ]
    NIGHTLY_METRIC=wall run "$REPO/ci/nightly.sh" host
    [ "$status" -eq 2 ]
    run "$REPO/ci/nightly.sh" no-such-profile
    [ "$status" -eq 2 ]
}

@test "the nightly suite is valid and small" {
    run "$FLAGBENCH" run --suite nightly --dry-run --no-render --out "$BATS_TEST_TMPDIR/plan"
    [ "$status" -eq 0 ]
    jqr '(.cells | length) <= 16 and all(.cells[]; .status == "ok")' "$BATS_TEST_TMPDIR/plan/results.json"
}

@test "publish: history per machine, new baselines only where the night passed, the site" {
    command -v gnuplot >/dev/null || skip "gnuplot is not installed (scripts/deps.sh installs gnuplot-nox)"
    art="$BATS_TEST_TMPDIR/artifacts" data="$BATS_TEST_TMPDIR/data"
    NIGHTLY_OUT="$art/nightly-host" run "$REPO/ci/nightly.sh" host
    [ "$status" -eq 0 ]
    NIGHTLY_OUT="$art/nightly-J4205" run "$REPO/ci/nightly.sh" J4205
    [ "$status" -eq 0 ]
    # J4205's night was slower: its baseline must stay
    jq '.status = "slower"' "$art/nightly-J4205/nightly.json" > "$BATS_TEST_TMPDIR/s.json"
    mv "$BATS_TEST_TMPDIR/s.json" "$art/nightly-J4205/nightly.json"
    # an earlier night of host in the history
    mkdir -p "$data/history/host"
    jq '.run.id = "earlier" | .run.started = "2026-11-01T02:17:00Z" | .cells[].time_s.median *= 1.2' \
        "$art/nightly-host/results.json" > "$data/history/host/earlier.json"
    run "$REPO/ci/publish.sh" "$art" "$data" "$BATS_TEST_TMPDIR/public"
    [ "$status" -eq 0 ]
    id=$(jq -r .run.id "$art/nightly-host/results.json")
    [ -f "$data/history/host/$id.json" ]
    [ -f "$data/history/J4205/$(jq -r .run.id "$art/nightly-J4205/results.json").json" ]
    [ -f "$data/baselines/host/nightly/results.json" ]
    [ ! -e "$data/baselines/J4205/nightly" ]
    # every night is the next night's previous one, passed or not
    [ -f "$data/baselines/J4205/previous/results.json" ]
    [[ "$output" == *"J4205: nightly slower: the baseline stays"* ]]
    pub="$BATS_TEST_TMPDIR/public"
    [ -f "$pub/index.html" ]
    grep -q 'href="history/index.html"' "$pub/index.html"
    # the history: a file kept in the data branch, a page per machine with every cell's timeline
    [ -f "$data/history.db" ]
    run "$FLAGBENCH" history list --db "$data/history.db" --format json
    [ "$status" -eq 0 ]
    jqr '[.runs[].profile] | sort == ["J4205", "host", "host"]' <<<"$output"
    grep -q '<h2 id="host-' "$pub/history/index.html"
    grep -q '<img src="host-[^"]*/1.svg"' "$pub/history/index.html"
    grep -q '<svg' "$pub/history"/host-*/1.svg
    # two nights of each of the 9 cells
    [ "$(cat "$pub/history"/host-*/nights.tsv | wc -l)" -eq 18 ]
}

@test "nightly: the history finds a step on tonight's night, names it and fails the job" {
    # tonight's run, then four earlier nights made from it, 20 % faster on one cell
    run "$REPO/ci/nightly.sh" host
    [ "$status" -eq 0 ]
    jqr '.history_steps == 0' "$NIGHTLY_OUT/nightly.json"
    for n in 1 2 3 4; do
        jq --argjson n "$n" '.run.id = "2020010\($n)T020000Z-earlier" | .run.started = "2020-01-0\($n)T02:00:00Z"
            | (.cells[] | select(.id == "yes/buf@gcc/-O2/native") | .time_s.runs) |= map(. * 0.8)' \
            "$NIGHTLY_OUT/results.json" > "$BATS_TEST_TMPDIR/e$n.json"
    done
    # a history of those four nights alone: tonight's run is the fifth
    rm -f "$NIGHTLY_HISTORY"
    "$FLAGBENCH" history import --db "$NIGHTLY_HISTORY" "$BATS_TEST_TMPDIR"/e?.json
    : > "$GITHUB_STEP_SUMMARY"
    run "$REPO/ci/nightly.sh" host
    [ "$status" -eq 1 ]
    jqr '.status == "step" and .history_steps == 1 and .history_confirmed == 1' "$NIGHTLY_OUT/nightly.json"
    jqr '[.changes[] | select(.newest)] | length == 1 and .[0].cell == "yes/buf@gcc/-O2/native" and .[0].direction == "slower"' \
        "$NIGHTLY_OUT/changes.json"
    jqr '[.changes[] | select(.alarm)] | length == 1' "$NIGHTLY_OUT/changes.json"
    grep -q "### change points that alarm tonight" "$GITHUB_STEP_SUMMARY"
    grep -q '^- `yes/buf@gcc/-O2/native`: 1.25x' "$GITHUB_STEP_SUMMARY"
    # and what it cannot see yet, from the same analysis
    jqr '.step_seen_percent.nights == 3 and .step_seen_percent.median > 0
         and .step_seen_percent.low <= .step_seen_percent.median and .step_seen_percent.median <= .step_seen_percent.high' \
        "$NIGHTLY_OUT/changes.json"
    jqr '.runs_for_step.step_percent == 5 and .runs_for_step.nights == 3 and .runs_for_step.taken > 0
         and (.runs_for_step.runs == null or .runs_for_step.runs >= 1)' "$NIGHTLY_OUT/changes.json"
    grep -Eq '^the history \(time\): a step under [0-9.]+ % \(the median cell; [0-9.]+ to [0-9.]+ % across cells\) may go unseen for 3 nights; (to see 5 % that soon the median cell needs [0-9]+ runs? a night at least \(these took [0-9]+\)|no number of runs a night sees 5 % that soon)$' \
        "$GITHUB_STEP_SUMMARY"
}
