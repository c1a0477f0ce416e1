#!/usr/bin/env bats
# A run whose paired ratios shift between its first and second half of
# rounds (results/ratio_drift.h): the between-run spread its own rounds
# show is added to every ratio's interval, and the legend says so.
# Fixtures: tests/fixtures/results/drift-steady.json (chacha20 ref and
# rotate, four builds, 16 rounds, ratios steady to 0.3 %) and
# drift-halves.json (the same, every ratio 8 % apart between the halves).

load helpers

FIX="$REPO/tests/fixtures/results"

width() { # FIXTURE VARIANT CONFIG: high - low of the against table's cell
    "$FLAGBENCH" tables --format json "$FIX/$1.json" --table against |
        jq --arg v "$2" --arg c "$3" '.families[0].tables[0] | (.columns | index($c)) as $i
            | .rows[] | select(.label == $v) | .cells[$i] | .high - .low'
}

@test "ratios that drift between the halves of a run get intervals as wide as the drift" {
    d=$("$FLAGBENCH" tables --format json "$FIX/drift-halves.json" | jq '.runs[0].ratio_drift_percent')
    echo "drift $d"
    # every ratio 8 % apart: a random shift of sd 8.4 % fits that median best
    jq -ne "$d > 7 and $d < 9"
    steady=$(width drift-steady ref gcc/-O3/x86-64-v2)
    halves=$(width drift-halves ref gcc/-O3/x86-64-v2)
    echo "steady $steady halves $halves"
    # 2 x 1.96 x 8.4 % of 1.3x at least, where the steady run's is a hundredth of that
    jq -ne "$halves > 0.25 and $steady < 0.05"
    run "$FLAGBENCH" tables --width 0 "$FIX/drift-halves.json" --table against
    [ "$status" -eq 0 ]
    [[ "$output" == *"Each interval includes the drift of the run's paired ratios between its first and second half of rounds, beyond their noise (sd 8."* ]]
}

@test "steady ratios: no drift added, no word of it" {
    d=$("$FLAGBENCH" tables --format json "$FIX/drift-steady.json" | jq '.runs[0].ratio_drift_percent')
    jq -ne "$d == 0"
    run "$FLAGBENCH" tables --width 0 "$FIX/drift-steady.json" --table against
    [ "$status" -eq 0 ]
    [[ "$output" == *"1.299x [1.299x, 1.299x]"* ]]
    refute grep -qF "drift of the run's paired ratios" <<<"$output"
}

# The machine's earlier runs beside a run (results/ratio_drift.h): the
# same binaries' ratios that moved between runs beyond their noise widen
# this run's intervals of that family and kind; runs of another host,
# later runs and folders that are not runs are passed over.
between_dir() { # DIR: now, before1 (rotate 10 % slower), before2, beside drift-steady
    local d=$1 fx="$FIX/drift-steady.json"
    mkdir -p "$d/now" "$d/before1" "$d/before2" "$d/other-host" "$d/later" "$d/junk"
    cp "$fx" "$d/now/results.json"
    jq '.run.id = "before1" | .run.started = "2026-12-03T08:10:00Z"
        | .cells |= map(if .variant == "rotate" then .time_s.runs |= map(. * 1.1) else . end)' "$fx" >"$d/before1/results.json"
    jq '.run.id = "before2" | .run.started = "2026-12-03T08:00:00Z"' "$fx" >"$d/before2/results.json"
    # what must not count: another host's, a later run's (rotate 40 % off in both)
    jq '.run.id = "other" | .run.started = "2026-12-03T08:20:00Z" | .host.hostname = "elsewhere"
        | .cells |= map(if .variant == "rotate" then .time_s.runs |= map(. * 1.4) else . end)' "$fx" >"$d/other-host/results.json"
    jq '.run.id = "later" | .run.started = "2026-12-03T09:00:00Z"
        | .cells |= map(if .variant == "rotate" then .time_s.runs |= map(. * 1.4) else . end)' "$fx" >"$d/later/results.json"
    echo '{"schema": "flagbench-results/1", "cells": [' >"$d/junk/results.json"
}

speedup_width() { # RUN CONFIG: the speedup table's rotate high - low
    "$FLAGBENCH" tables --format json "$1" --table speedup |
        jq --arg c "$2" '.families[0].tables[0] | (.columns | index($c)) as $i
            | .rows[] | select(.label == "rotate") | .cells[$i] | .high - .low'
}

@test "ratios that moved between this machine's earlier runs widen this run's intervals of their kind, and the legend says so" {
    d="$BATS_TEST_TMPDIR/results"
    between_dir "$d"
    run "$FLAGBENCH" tables --format json "$d/now"
    [ "$status" -eq 0 ]
    [ "$(jq -c '.runs[0].between_runs.runs' <<<"$output")" = '["before1","before2"]' ]
    # rotate against ref moved 10 % between before2 and before1 and back:
    # a shift of sd about 10 %; the builds of one variant moved alike: none
    across=$(jq '.runs[0].between_runs.groups[] | select(.variant == null and .kind == "across variants") | .drift_percent' <<<"$output")
    same=$(jq '.runs[0].between_runs.groups[] | select(.variant == null and .kind == "same variant") | .drift_percent' <<<"$output")
    echo "across $across same $same"
    jq -ne "$across > 9 and $across < 11 and $same < 0.5"
    wide=$(speedup_width "$d/now" gcc/-O3/x86-64-v2)
    alone=$(speedup_width "$FIX/drift-steady.json" gcc/-O3/x86-64-v2)
    echo "speedup width: $wide beside its earlier runs, $alone alone"
    jq -ne "$wide > 10 * $alone and $wide > 0.3"
    # the builds of one variant keep their interval (against: same variant)
    [ "$(width drift-steady ref gcc/-O3/x86-64-v2)" = "$("$FLAGBENCH" tables --format json "$d/now" --table against |
        jq '.families[0].tables[0] | (.columns | index("gcc/-O3/x86-64-v2")) as $i | .rows[] | select(.label == "ref") | .cells[$i] | .high - .low')" ]
    run "$FLAGBENCH" tables --width 0 "$d/now" --table speedup
    [ "$status" -eq 0 ]
    [[ "$output" == *"moved from this machine's earlier runs (2 read beside this one), beyond their noise: up to sd "*"against the baseline)."* ]]
}

@test "a run alone, or beside only other hosts' and later runs, is not widened by them" {
    d="$BATS_TEST_TMPDIR/results"
    between_dir "$d"
    rm -r "$d/before1" "$d/before2"
    run "$FLAGBENCH" tables --format json "$d/now"
    [ "$status" -eq 0 ]
    [ "$(jq -c '.runs[0].between_runs' <<<"$output")" = '{"runs":[],"of":"host","groups":[],"level_shift":null}' ]
    [ "$(speedup_width "$d/now" gcc/-O3/x86-64-v2)" = "$(speedup_width "$FIX/drift-steady.json" gcc/-O3/x86-64-v2)" ]
    run "$FLAGBENCH" tables --width 0 "$d/now" --table speedup
    [ "$status" -eq 0 ]
    refute grep -qF "earlier runs" <<<"$output"
    # rendered again once a later run lies beside it: the same tables
    a=$("$FLAGBENCH" tables --format json "$d/later")
    jq -e '.runs[0].between_runs.runs == ["20261203T082945Z-c2-host"]' <<<"$a"
}

# This host as a run records it ({hostname, cpu_model}), from a dry run in DIR.
this_host() {
    "$FLAGBENCH" run --suite smoke --dry-run -o "$1/probe" >/dev/null 2>&1
    jq -c '.host | {hostname, cpu_model}' "$1/probe/results.json"
    rm -r "$1/probe"
}

# HOST ID STARTED SLOWER: drift-steady as an earlier run of HOST, rotate SLOWER times slower (1: as it is)
earlier_run() {
    jq --argjson h "$1" --arg id "$2" --arg s "$3" --argjson f "$4" '.run.id = $id | .run.started = $s
        | .host.hostname = $h.hostname | .host.cpu_model = $h.cpu_model
        | if $f != 1 then .cells |= map(if .variant == "rotate" then .time_s.runs |= map(. * $f) else . end) else . end' \
        "$FIX/drift-steady.json"
}

# HOST DIR [HOSTNAME-PREFIX]: three kept nights of HOST in DIR as files named
# by their run ids (the nightly-data branch's history/PROFILE/ID.json), the
# second with rotate 10 % slower; with a prefix, night k ran on host PREFIXk
kept_nights() {
    local k
    for k in 1 2 3; do
        earlier_run "$1" "2000010${k}T000000Z-night" "2000-01-0${k}T00:00:00Z" "$([ "$k" = 2 ] && echo 1.1 || echo 1)" \
            | jq --arg h "${3:+$3$k}" 'if $h != "" then .host.hostname = $h else . end' >"$2/2000010${k}T000000Z-night.json"
    done
}

@test "a run reads this host's earlier runs beside it before its rounds, and says what they moved" {
    d="$BATS_TEST_TMPDIR/results"
    mkdir -p "$d"
    host=$(this_host "$d")
    for k in 1 2 3; do
        mkdir -p "$d/before$k"
        # before2 has rotate 10 % slower than before1 and before3
        earlier_run "$host" "before$k" "2000-01-0$((4 - k))T00:00:00Z" "$([ "$k" = 2 ] && echo 1.1 || echo 1)" \
            >"$d/before$k/results.json"
    done
    run "$FLAGBENCH" run --suite smoke --dry-run -o "$d/now"
    [ "$status" -eq 0 ]
    [[ "$output" == *"flagbench: 3 earlier runs of this host beside this one (newest before1): ratios moved between them by up to 10.0 % beyond their noise (chacha20/rotate against the baseline)"* ]]
    # another host's runs are not this host's (and the run just made is set aside)
    mv "$d/now" "$d/.now"
    for k in 1 2 3; do
        jq '.host.hostname = "elsewhere"' "$d/before$k/results.json" >"$d/f" && mv "$d/f" "$d/before$k/results.json"
    done
    run "$FLAGBENCH" run --suite smoke --dry-run -o "$d/again"
    [ "$status" -eq 0 ]
    refute grep -qE "flagbench: [0-9]+ earlier runs? of" <<<"$output"
}

@test "--earlier-runs DIR: a nightly's kept nights (results.json copies) are read as earlier runs too, before the rounds and by the tables" {
    d="$BATS_TEST_TMPDIR/results" kept="$BATS_TEST_TMPDIR/kept"
    mkdir -p "$d" "$kept"
    host=$(this_host "$d")
    kept_nights "$host" "$kept"
    # without it the run folder stands alone, and its answers say what that leaves out
    run "$FLAGBENCH" run --suite smoke --dry-run -o "$d/alone"
    [ "$status" -eq 0 ]
    refute grep -qE "flagbench: [0-9]+ earlier runs? of" <<<"$output"
    [[ "$(tr -s ' \n' ' ' <<<"$output")" == *"no earlier run of this host lies beside this one, so how far a ratio moves from one run to the next is not in these intervals yet"* ]]
    mv "$d/alone" "$d/.alone" # a dot-folder is set aside
    run "$FLAGBENCH" run --suite smoke --dry-run -o "$d/now" --earlier-runs "$kept"
    [ "$status" -eq 0 ]
    [[ "$(tr -s ' \n' ' ' <<<"$output")" != *"no earlier run of this"* ]]
    [[ "$output" == *"flagbench: 3 earlier runs of this host beside this one (newest 20000103T000000Z-night): ratios moved between them by up to 10.0 % beyond their noise (chacha20/rotate against the baseline)"* ]]
    jqr --arg k "$(cd "$kept" && pwd -P)" '.run.earlier_runs_dir == $k' "$d/now/results.json"
    # the tables read them again from what the run recorded; the run folder beside them is read once
    mkdir -p "$d/copy"
    cp "$kept/20000101T000000Z-night.json" "$d/copy/results.json"
    run "$FLAGBENCH" tables --format json "$d/now"
    [ "$status" -eq 0 ]
    jqr '.runs[0].between_runs.runs == ["20000103T000000Z-night", "20000102T000000Z-night", "20000101T000000Z-night"]' <<<"$output"
    run "$FLAGBENCH" run --suite smoke --dry-run -o "$d/bad" --earlier-runs "$BATS_TEST_TMPDIR/nothing"
    [ "$status" -eq 2 ]
    [[ "$output" == *"--earlier-runs $BATS_TEST_TMPDIR/nothing: No such file or directory"* ]]
}

@test "--earlier-runs-of cpu: a runner fleet's nights, each on another host of the same CPU model, count as this machine's" {
    d="$BATS_TEST_TMPDIR/results" kept="$BATS_TEST_TMPDIR/kept"
    mkdir -p "$d" "$kept"
    host=$(this_host "$d")
    # three kept nights, each from a VM of its own (the hostname a hosted runner gets)
    kept_nights "$host" "$kept" fv-az
    # by default another host's nights are not this one's
    run "$FLAGBENCH" run --suite smoke --dry-run -o "$d/own" --earlier-runs "$kept"
    [ "$status" -eq 0 ]
    refute grep -qE "flagbench: [0-9]+ earlier runs? of" <<<"$output"
    mv "$d/own" "$d/.own"
    run "$FLAGBENCH" run --suite smoke --dry-run -o "$d/now" --earlier-runs "$kept" --earlier-runs-of cpu
    [ "$status" -eq 0 ]
    [[ "$output" == *"flagbench: 3 earlier runs of this CPU model (any host) beside this one (newest 20000103T000000Z-night): ratios moved between them by up to 10.0 % beyond their noise (chacha20/rotate against the baseline)"* ]]
    jqr '.run.earlier_runs_of == "cpu"' "$d/now/results.json"
    # the tables read the same nights from what the run recorded
    run "$FLAGBENCH" tables --format json "$d/now"
    [ "$status" -eq 0 ]
    jqr '.runs[0].between_runs.of == "cpu" and (.runs[0].between_runs.runs | length) == 3' <<<"$output"
    # another CPU model is still not this machine
    jq '.host.cpu_model = "Another CPU"' "$kept/20000101T000000Z-night.json" >"$kept/f" && mv "$kept/f" "$kept/20000101T000000Z-night.json"
    run "$FLAGBENCH" tables --format json "$d/now"
    [ "$status" -eq 0 ]
    jqr '(.runs[0].between_runs.runs | length) == 2' <<<"$output"
    run "$FLAGBENCH" run --suite smoke --dry-run -o "$d/bad" --earlier-runs-of fleet
    [ "$status" -eq 2 ]
    [[ "$output" == *"--earlier-runs-of fleet: host or cpu"* ]]
}

@test "a run that met the machine slower than its last run here says by how much, from the same binaries" {
    d="$BATS_TEST_TMPDIR/results"
    between_dir "$d"
    # every run of now 25 % slower than in before2; before1 (the newest earlier) has rotate 10 % slower
    jq '.cells |= map(.time_s.runs |= map(. * 1.25) | .time_s.value *= 1.25)' "$FIX/drift-steady.json" >"$d/now/results.json"
    run "$FLAGBENCH" tables --format json "$d/now"
    [ "$status" -eq 0 ]
    jqr '.runs[0].between_runs.level_shift | .against == "before1" and .cells == 8
         and .slower_percent > 13 and .slower_percent < 26' <<<"$output"
    run "$FLAGBENCH" tables --width 0 "$d/now"
    [ "$status" -eq 0 ]
    [[ "$output" == *"note: the machine ran "*" % slower than in its last run here (before1): the median of the same 8 binaries"* ]]
    # a run alone says nothing of it
    run "$FLAGBENCH" tables --format json "$FIX/drift-steady.json"
    [ "$status" -eq 0 ]
    jqr '.runs[0].between_runs.level_shift == null' <<<"$output"
    run "$FLAGBENCH" tables --width 0 "$FIX/drift-steady.json"
    [ "$status" -eq 0 ]
    refute grep -qF "note: the machine ran" <<<"$output"
}
