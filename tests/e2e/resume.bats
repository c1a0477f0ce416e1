#!/usr/bin/env bats
# --resume from the journal: restored cells are whole cells again (one
# serializer, one parser), so what is measured after a resume is compared
# with them; and the end of a run: rendering, --no-render, no scratch folder.

bats_require_minimum_version 1.5.0
load helpers

# A finished dry run of the smoke suite (deterministic mock times), then a
# copy whose journal holds only the baseline cells, as if the run had been
# interrupted after them.
setup_file() {
    export FULL="$BATS_FILE_TMPDIR/full"
    "$FLAGBENCH" run --suite smoke --dry-run --no-render --out "$FULL" >/dev/null 2>&1
}

partial_copy() {
    local dir="$1"
    mkdir -p "$dir"
    cp "$FULL/results.json" "$dir/"
    jq -c 'select(.variant == "simple")' "$FULL/journal.jsonl" >"$dir/journal.jsonl"
}

@test "a resumed run computes speedups against baselines restored from the journal" {
    dir="$BATS_TEST_TMPDIR/part"
    partial_copy "$dir"
    [ "$(wc -l <"$dir/journal.jsonl")" -eq 2 ]
    run "$FLAGBENCH" run --suite smoke --dry-run --no-render --resume "$dir"
    [ "$status" -eq 0 ]
    [[ "$output" == *"resuming $dir: 2 cells already done"* ]]
    r="$dir/results.json"
    jqr '.run.finished != null and .run.interrupted == false' "$r"
    # every variant cell has a speedup, and it is the one of the uninterrupted run
    jqr '([.cells[] | select(.compiler != "none")] | length > 0) and all(.cells[] | select(.compiler != "none"); .speedup > 0)' "$r"
    jq -S '[.cells[] | {id, speedup}]' "$FULL/results.json" >"$BATS_TEST_TMPDIR/want"
    jq -S '[.cells[] | {id, speedup}]' "$r" >"$BATS_TEST_TMPDIR/got"
    diff "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
    jqr '[.cells[] | select(.variant == "buf") | .speedup] | length > 0 and all(. > 1)' "$r"
    # the journal now has every cell once
    [ "$(wc -l <"$dir/journal.jsonl")" -eq 9 ]
}

@test "a restored cell is written back exactly as the journal holds it" {
    dir="$BATS_TEST_TMPDIR/part"
    partial_copy "$dir"
    "$FLAGBENCH" run --suite smoke --dry-run --no-render --resume "$dir" >/dev/null 2>&1
    for id in 'yes/simple@gcc/-O2/native' 'yes/simple@clang/-O2/native'; do
        jq -S --arg id "$id" 'select(.id == $id)' "$FULL/journal.jsonl" >"$BATS_TEST_TMPDIR/want"
        jq -S --arg id "$id" '.cells[] | select(.id == $id)' "$dir/results.json" >"$BATS_TEST_TMPDIR/got"
        [ -s "$BATS_TEST_TMPDIR/want" ]
        diff "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
    done
}

@test "a cell journaled twice counts once, its last line wins" {
    dir="$BATS_TEST_TMPDIR/twice"
    partial_copy "$dir"
    # through a file of its own: jq appending to the file it reads may read its own lines
    jq -c '.warnings = ["the second line"]' "$dir/journal.jsonl" >"$BATS_TEST_TMPDIR/again.jsonl"
    cat "$BATS_TEST_TMPDIR/again.jsonl" >>"$dir/journal.jsonl"
    run "$FLAGBENCH" run --suite smoke --dry-run --no-render --resume "$dir"
    [ "$status" -eq 0 ]
    [[ "$output" == *"resuming $dir: 2 cells already done"* ]]
    jqr '[.cells[] | select(.variant == "simple") | .warnings] == [["the second line"], ["the second line"]]' \
        "$dir/results.json"
}

@test "skipped cells in the journal run again" {
    dir="$BATS_TEST_TMPDIR/skip"
    partial_copy "$dir"
    jq -c 'select(.variant == "buf") | .status = "skipped" | .reason = "interrupted"' \
        "$FULL/journal.jsonl" >>"$dir/journal.jsonl"
    run "$FLAGBENCH" run --suite smoke --dry-run --no-render --resume "$dir"
    [ "$status" -eq 0 ]
    [[ "$output" == *"2 cells already done"* ]]
    jqr '[.cells[] | select(.variant == "buf") | .status] == ["ok", "ok"]' "$dir/results.json"
}

@test "a finished run renders its tables and plots and keeps no scratch folder" {
    command -v gnuplot >/dev/null || skip "gnuplot is not installed (scripts/deps.sh run installs it)"
    out="$BATS_TEST_TMPDIR/rendered"
    run "$FLAGBENCH" run --suite smoke --dry-run --out "$out"
    [ "$status" -eq 0 ]
    [ -f "$out/index.html" ]
    [ -n "$(ls "$out/plots/"*.svg)" ]
    [ -n "$(ls "$out/tables/"*.md)" ]
    [ ! -e "$out/.work" ]
    # the summary table stays on stdout, the render's messages do not
    run --separate-stderr "$FLAGBENCH" run --suite smoke --dry-run --out "$BATS_TEST_TMPDIR/r2"
    [ "$status" -eq 0 ]
    [[ "$output" == *"vmsplice"* ]]
    [[ "$output" != *"rendered"* ]]
}

@test "--no-render writes results.json alone" {
    [ -f "$FULL/results.json" ]
    [ -f "$FULL/journal.jsonl" ]
    [ ! -e "$FULL/index.html" ]
    [ ! -e "$FULL/plots" ]
    [ ! -e "$FULL/.work" ]
}
