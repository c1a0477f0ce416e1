#!/usr/bin/env bats
# flagbench history: fixture histories whose steps the tests know
# (tests/fixtures/history/nights.sh), an import twice that adds nothing, a
# same-binary step named as the system's, a step on the newest night, a
# corrupt history refused and rebuilt, the page in headless Chromium, the
# same binary across two runs in compare, and what a real run records.

load helpers

NIGHTS="$REPO/tests/fixtures/history/nights.sh"
CELL='chacha20/ref@gcc/-O2/native'

# NIGHTS STEP FACTOR WHAT into $BATS_TEST_TMPDIR/n, imported into h.db
history_of() {
    "$NIGHTS" "$BATS_TEST_TMPDIR/n" "$1" "$2" "$CELL" "$3" "$4"
    "$FLAGBENCH" history import --db "$BATS_TEST_TMPDIR/h.db" "$BATS_TEST_TMPDIR"/n/night-*/results.json
}

@test "import is by run id: twice adds nothing; list shows every night under its machine" {
    run history_of 10 6 1.25 library
    [ "$status" -eq 0 ]
    [[ "$output" == *"10 runs imported, 0 already there"* ]]
    cells() { "$FLAGBENCH" history list --db "$BATS_TEST_TMPDIR/h.db" --format json | jq '[.runs[].cells] | add'; }
    before=$(cells)
    [ "$before" -eq 40 ]
    run "$FLAGBENCH" history import --db "$BATS_TEST_TMPDIR/h.db" "$BATS_TEST_TMPDIR"/n/night-*/results.json "$BATS_TEST_TMPDIR/n/night-03"
    [ "$status" -eq 0 ]
    [[ "$output" == *"0 runs imported, 11 already there"* ]]
    [ "$(cells)" -eq "$before" ]
    # the same id from another run (two machines of one profile in the same second) is refused, not skipped
    jq '.host.hostname = "other"' "$BATS_TEST_TMPDIR/n/night-03/results.json" > "$BATS_TEST_TMPDIR/other.json"
    run "$FLAGBENCH" history import --db "$BATS_TEST_TMPDIR/h.db" "$BATS_TEST_TMPDIR/other.json"
    [ "$status" -eq 2 ]
    [[ "$output" == *"other.json: run id "*" is in the history already from another run (host fx, started "*"): not imported; give one of them another run.id"* ]]
    [ "$(cells)" -eq "$before" ]
    run "$FLAGBENCH" history list --db "$BATS_TEST_TMPDIR/h.db" --format json
    [ "$status" -eq 0 ]
    jqr '(.runs | length) == 10 and all(.runs[]; .profile == "host" and .host == "fx" and .cells == 4)
         and .runs[0].id == "20270110T020000Z-nightly-fx" and .runs[0].facts.kernel == "6.1.0-13-amd64"' <<<"$output"
}

@test "a same-binary step is the system's: the library named, its night and size; not the newest night: exit 0" {
    history_of 10 6 1.25 library
    run "$FLAGBENCH" history changes --db "$BATS_TEST_TMPDIR/h.db"
    [ "$status" -eq 0 ]
    [[ "$output" == "1 change point in 1 of 3 cells tested"* ]]
    [[ "$output" == *"2027-01-16T02:00:00Z host/fx $CELL: 1.25"*"slower from 20270116T020000Z-nightly-fx; what changed: the system, with the same binary: library /lib/x86_64-linux-gnu/libc.so.6"* ]]
    run "$FLAGBENCH" history changes --db "$BATS_TEST_TMPDIR/h.db" --format json
    [ "$status" -eq 0 ]
    jqr '(.changes | length) == 1 and .changes[0].cell == "'"$CELL"'" and .changes[0].before == "20270115T020000Z-nightly-fx"
         and .changes[0].cause.kind == "system" and .changes[0].cause.what == ["library /lib/x86_64-linux-gnu/libc.so.6"]
         and .changes[0].ci95[0] < 1.25 and .changes[0].ci95[1] > 1.25 and .changes[0].ci95[0] > 1.2 and (.changes[0].newest | not)' <<<"$output"
    run "$FLAGBENCH" history show "$CELL" --db "$BATS_TEST_TMPDIR/h.db"
    [ "$status" -eq 0 ]
    [[ "$output" == *"10 nights of time per unit (lower quartile), 1 change point"* ]]
    grep -B1 -- '-- change point: 1.25' <<<"$output" | grep -q 20270115T020000Z
    grep -A1 -- '-- change point: 1.25' <<<"$output" | grep -q 20270116T020000Z
    run "$FLAGBENCH" history show nope/cell --db "$BATS_TEST_TMPDIR/h.db"
    [ "$status" -eq 2 ]
    [[ "$output" == *"no cell 'nope/cell' in the history"* ]]
}

@test "a flat history has no change point; a step on the newest night by a new compiler: exit 1, the binary named" {
    history_of 10 99 1 none
    run "$FLAGBENCH" history changes --db "$BATS_TEST_TMPDIR/h.db"
    [ "$status" -eq 0 ]
    [[ "$output" == "0 change points"* ]]
    rm -rf "$BATS_TEST_TMPDIR/n" "$BATS_TEST_TMPDIR/h.db"
    history_of 9 8 1.10 binary
    run "$FLAGBENCH" history changes --db "$BATS_TEST_TMPDIR/h.db" --format json
    [ "$status" -eq 1 ]
    jqr '(.changes | length) == 1 and .changes[0].newest and .changes[0].night == "20270118T020000Z-nightly-fx"
         and .changes[0].cause.kind == "binary"
         and .changes[0].cause.what == ["compiler gcc (Debian 12.2.0-14) 12.2.0 -> gcc (Debian 13.2.0-1) 13.2.0"]' <<<"$output"
}

@test "a step of the machine (nothing recorded changed) alarms once it has held a second night; a recorded one at once" {
    history_of 9 8 1.10 none
    run "$FLAGBENCH" history changes --db "$BATS_TEST_TMPDIR/h.db" --format json
    [ "$status" -eq 1 ]
    jqr '(.changes | length) == 1 and .changes[0].newest and .changes[0].cause.kind == "machine"
         and .changes[0].alarm == false and .alarms == 0' <<<"$output"
    rm -rf "$BATS_TEST_TMPDIR/n" "$BATS_TEST_TMPDIR/h.db"
    history_of 10 8 1.10 none
    run "$FLAGBENCH" history changes --db "$BATS_TEST_TMPDIR/h.db" --format json
    [ "$status" -eq 0 ]
    jqr '(.changes | length) == 1 and (.changes[0].newest | not) and .changes[0].night == "20270118T020000Z-nightly-fx"
         and .changes[0].alarm and .alarms == 1' <<<"$output"
    run "$FLAGBENCH" history changes --db "$BATS_TEST_TMPDIR/h.db"
    [ "$status" -eq 0 ]
    [[ "$output" == *"from 20270118T020000Z-nightly-fx [alarm]; what changed: "* ]]
    # the page marks it too
    FLAGBENCH="$FLAGBENCH_PLAIN" "$REPO/plots/history.sh" "$BATS_TEST_TMPDIR/h.db" "$BATS_TEST_TMPDIR/site" >/dev/null 2>&1 || true
    grep -q 'from run 20270118T020000Z-nightly-fx <b class="alarm">\[alarm: fails tonight.s nightly\]</b>' "$BATS_TEST_TMPDIR/site/index.html"
    # a new binary alarms on its first night
    rm -rf "$BATS_TEST_TMPDIR/n" "$BATS_TEST_TMPDIR/h.db"
    history_of 9 8 1.10 binary
    run "$FLAGBENCH" history changes --db "$BATS_TEST_TMPDIR/h.db" --format json
    [ "$status" -eq 1 ]
    jqr '.changes[0].newest and .changes[0].alarm and .alarms == 1' <<<"$output"
}

@test "a step named after a change recorded a night off is the machine's when other cells moved with it" {
    # the binary of chacha20/ref changes on night 8; every cell runs 20 % faster from night 7
    "$NIGHTS" "$BATS_TEST_TMPDIR/n" 12 8 "$CELL" 1 binary
    shift_from() {
        for f in "$BATS_TEST_TMPDIR"/n/night-*/results.json; do
            n=$(basename "$(dirname "$f")")
            [ "${n#night-}" -ge "$1" ] || continue
            jq --arg only "${2:-}" '.cells |= map(if (.time_s.runs | type) == "array" and ($only == "" or .id == $only)
                then .time_s.runs |= map(. * 0.8) else . end)' "$f" > "$f.t" && mv "$f.t" "$f"
        done
    }
    shift_from 07
    "$FLAGBENCH" history import --db "$BATS_TEST_TMPDIR/h.db" "$BATS_TEST_TMPDIR"/n/night-*/results.json
    run "$FLAGBENCH" history changes --db "$BATS_TEST_TMPDIR/h.db" --format json
    [ "$status" -eq 0 ]
    jqr '(.changes | length) == 3 and all(.changes[]; .cause.kind == "machine" and .night == "20270117T020000Z-nightly-fx")' <<<"$output"
    jqr '.changes[] | select(.cell == "'"$CELL"'") | .cause.text | test("2 other cells moved the same way within a night of it: a shift of the machine, not the binary: compiler")' <<<"$output"
    # the same step in that cell alone: the binary recorded a night after is named
    rm -rf "$BATS_TEST_TMPDIR/n" "$BATS_TEST_TMPDIR/h.db"
    "$NIGHTS" "$BATS_TEST_TMPDIR/n" 12 8 "$CELL" 1 binary
    shift_from 07 "$CELL"
    "$FLAGBENCH" history import --db "$BATS_TEST_TMPDIR/h.db" "$BATS_TEST_TMPDIR"/n/night-*/results.json
    run "$FLAGBENCH" history changes --db "$BATS_TEST_TMPDIR/h.db" --format json
    [ "$status" -eq 0 ]
    jqr '(.changes | length) == 1 and .changes[0].cause.kind == "binary"
         and (.changes[0].cause.text | test("recorded a night after the step.s estimate"))' <<<"$output"
}

@test "a truncated or foreign history is refused (exit 2, how to rebuild); --rebuild makes it anew from the runs" {
    history_of 10 6 1.25 library
    db="$BATS_TEST_TMPDIR/h.db"
    head -c 6000 "$db" > "$db.cut" && mv "$db.cut" "$db"
    run "$FLAGBENCH" history changes --db "$db"
    [ "$status" -eq 2 ]
    [[ "$output" == "flagbench: $db: "*"flagbench history import --rebuild --db $db RUN..."* ]]
    echo 'not a history' > "$db"
    run "$FLAGBENCH" history list --db "$db"
    [ "$status" -eq 2 ]
    [[ "$output" == *"not a flagbench history (not a SQLite file, or empty)"* ]]
    run "$FLAGBENCH" history import --db "$db" "$BATS_TEST_TMPDIR/n/night-00"
    [ "$status" -eq 2 ]
    run "$FLAGBENCH" history import --rebuild --db "$db" "$BATS_TEST_TMPDIR"/n/night-*/results.json
    [ "$status" -eq 0 ]
    run "$FLAGBENCH" history changes --db "$db" --format json
    [ "$status" -eq 0 ]
    jqr '(.changes | length) == 1 and .changes[0].cause.kind == "system"' <<<"$output"
    run "$FLAGBENCH" history changes --db "$BATS_TEST_TMPDIR/none.db"
    [ "$status" -eq 2 ]
    [[ "$output" == *"none.db: no such history"* ]]
    run "$FLAGBENCH" history frobnicate --db "$db"
    [ "$status" -eq 2 ]
}

@test "the page: change points listed first, every cell's timeline marked, in headless Chromium" {
    command -v gnuplot >/dev/null || skip "gnuplot is not installed (scripts/deps.sh installs gnuplot-nox)"
    history_of 10 6 1.25 library
    FLAGBENCH="$FLAGBENCH_PLAIN" run "$REPO/plots/history.sh" "$BATS_TEST_TMPDIR/h.db" "$BATS_TEST_TMPDIR/site"
    [ "$status" -eq 0 ]
    site="$BATS_TEST_TMPDIR/site"
    [ "$(ls "$site"/host-fx/*.svg | wc -l)" -eq 3 ]
    # the stepped cell's plot carries the mark and its label
    grep -l "$CELL" "$site"/host-fx/*.svg | xargs grep -q 'system: library /lib/x86_64-linux-gnu/libc.so.6'
    browser=$(command -v chromium || command -v chromium-browser || true)
    [ -n "$browser" ] || skip "chromium is not installed (scripts/deps.sh test installs it)"
    url="file://$(printf '%s' "$site/index.html" | jq -sRr @uri | sed 's/%2F/\//g')"
    run timeout 60 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$BATS_TEST_TMPDIR/profile" \
        --enable-logging=stderr --v=0 --window-size=1100,900 --dump-dom "$url"
    [ "$status" -eq 0 ]
    refute grep -q CONSOLE <<<"$output"
    # the list comes before the first plot, and names the step
    list_at=$(grep -n '<ul class="changes">' <<<"$output" | head -1 | cut -d: -f1)
    img_at=$(grep -n '<img src="host-fx/1.svg"' <<<"$output" | head -1 | cut -d: -f1)
    [ -n "$list_at" ]
    [ -n "$img_at" ]
    [ "$list_at" -lt "$img_at" ]
    grep -q "<b>$CELL</b>: 1.25[0-9]*x .* slower from run 20270116T020000Z-nightly-fx; what changed: the system, with the same binary: library /lib/x86_64-linux-gnu/libc.so.6" <<<"$output"
    # and what no change point would mean on this machine (the DOM Chromium built)
    grep -Eq '<p class="seen">No change point is not no step: a step under [0-9.]+ % \(the median cell; [0-9.]+ to [0-9.]+ % across cells\) may go unseen for 3 nights; (to see 5 % that soon the median cell needs [0-9]+ runs? a night at least \(these took [0-9]+\)|no number of runs a night sees 5 % that soon)\.</p>' <<<"$output"
    shot="$BATS_TEST_TMPDIR/page.png"
    run timeout 60 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$BATS_TEST_TMPDIR/profile" \
        --screenshot="$shot" --window-size=1100,1400 "$url"
    [ "$status" -eq 0 ]
    [ "$(stat -c %s "$shot")" -gt 20000 ]
}

@test "compare: the same binary in two runs is measured, its slowdown slower and the system's, never 1.000x" {
    tight="$REPO/tests/fixtures/compare/tight.json"
    jq '.run.id = "next-night" | .host.kernel = "6.1.0-17-amd64"
        | (.cells[] | select(.id == "'"$CELL"'") | .time_s.runs) |= map(. * 1.25)' "$tight" > "$BATS_TEST_TMPDIR/next.json"
    jq '.host.kernel = "6.1.0-13-amd64"' "$tight" > "$BATS_TEST_TMPDIR/base.json"
    run "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/base.json" "$BATS_TEST_TMPDIR/next.json" --json-out "$BATS_TEST_TMPDIR/c.json"
    [ "$status" -eq 1 ]
    refute grep -q '1.000x  \[1.000x, 1.000x\]' <<<"$output"
    jqr '.cells[] | select(.id == "'"$CELL"'") | .verdict == "slower" and .same_program and (.identical_binary | not)
         and .ratio > 1.24 and .ratio < 1.26
         and (.note | test("the same binary in two runs .* a difference is the system.s: kernel \"6.1.0-13-amd64\" -> \"6.1.0-17-amd64\""))' "$BATS_TEST_TMPDIR/c.json"
    jqr '.counts["same binary"] == 0' "$BATS_TEST_TMPDIR/c.json"
}

@test "a run records what it ran on: the libraries each binary loads, the family's content hash, the microcode" {
    command -v gcc >/dev/null || skip "gcc is not installed"
    command -v hyperfine >/dev/null || skip "hyperfine is not installed (scripts/deps.sh installs it)"
    run "$FLAGBENCH_PLAIN" run --suite smoke --only 'yes/buf@gcc*' --runs 3 --precision 0 --no-render --out "$BATS_TEST_TMPDIR/r"
    [ "$status" -eq 0 ]
    r="$BATS_TEST_TMPDIR/r/results.json"
    jqr '.cells[] | select(.id | startswith("yes/buf@gcc")) | .binary.libraries
         | length > 0 and any(.path | test("/libc\\.so\\.6$")) and all(.sha256 | test("^[0-9a-f]{64}$"))' "$r"
    jqr '.families.yes.hash | test("^[0-9a-f]{64}$")' "$r"
    if grep -q '^microcode' /proc/cpuinfo; then jqr '.host.microcode | type == "string"' "$r"; fi
    # the history keeps them
    "$FLAGBENCH" history import --db "$BATS_TEST_TMPDIR/r.db" "$BATS_TEST_TMPDIR/r"
    run "$FLAGBENCH" history list --db "$BATS_TEST_TMPDIR/r.db" --format json
    [ "$status" -eq 0 ]
    jqr '.runs[0].facts["family:yes"] | test("^[0-9a-f]{64}$")' <<<"$output"
}
