#!/usr/bin/env bats
# flagbench tune (issue 23) on the tunable fixture (tune_fixture.bash).

load helpers
load tune_fixture

@test "tune --list-space: the compiler's own flags and param, results-changing ones left out" {
    command -v gcc >/dev/null || skip "gcc not installed (fakecc wraps it)"
    run "$FLAGBENCH" tune tunable/loop --compiler fakecc --family-dir "$FAM" --march default --list-space
    [ "$status" -eq 0 ]
    [[ "$output" == *"-ffixture-fast"* ]]
    [[ "$output" == *"--param=fixture-level"* ]]
    [[ "$output" == *"-ffast-math: changes results"* ]]
    # the -O level is a dimension, first; -Ofast changes results
    [[ "$output" == *"-O  "*"-O3|-O2|-Os|-O1"*"start: -O2"* ]]
    [[ "$output" == *"-Ofast: changes results"* ]]
    run "$FLAGBENCH" tune tunable/loop --compiler fakecc --family-dir "$FAM" --march default --list-space --allow-unsafe
    [ "$status" -eq 0 ]
    refute grep -q -- '-ffast-math: changes results' <<<"$output"
    [[ "$output" == *"-O3|-O2|-Os|-O1|-Ofast"* ]]
    # the flags the levels set otherwise (FAKECC_STEPS: -ffixture-s1..s8 at -O3 only) are "as the level says" first
    FAKECC_STEPS=1 run "$FLAGBENCH" tune tunable/loop --compiler fakecc --family-dir "$FAM" --march default --list-space
    [ "$status" -eq 0 ]
    [[ "$output" == *"-ffixture-s1 "*"default|on|off"*"start: default"* ]]
}

# a small size: the runs timed below take milliseconds
small_suite() {
    cat >"$BATS_TEST_TMPDIR/small.json" <<J
{"name": "tune-small", "variants": ["tunable/*"], "compilers": ["fakecc"], "opt": ["-O2"], "march": ["default"],
 "family_dirs": ["$FAM"], "sizes": {"tunable": 3000}}
J
    echo "$BATS_TEST_TMPDIR/small.json"
}

@test "tune: what a candidate costs and what the budget buys, said first; the -O level is a dimension, seeded: -O3 wins" {
    needs_tools
    out="$BATS_TEST_TMPDIR/o3"
    # FAKECC_STEPS: -O3 turns on eight flags that take the loop's work off; from -O2 no single flag does it all
    FAKECC_STEPS=1 run "$FLAGBENCH" tune tunable/loop --compiler fakecc --family-dir "$FAM" --march default \
        --cache "$CACHE" --out "$out" --metric instructions --no-render --budget 2s --confirm-runs 30
    echo "$output"
    [ "$status" -eq 0 ]
    # the announcement comes before the first candidate, with what the budget buys and what the search needs
    first=$(grep -n 'tune ensemble: [0-9]* candidates' <<<"$output" | head -1 | cut -d: -f1)
    said=$(grep -n 'tune: one candidate costs about' <<<"$output" | head -1 | cut -d: -f1)
    [ -n "$first" ]
    [ -n "$said" ]
    [ "$said" -lt "$first" ]
    grep -Eq 'one candidate costs about [0-9.]+ s \(build [0-9.]+ s, check [0-9.]+ s, screen [0-9.]+ s\); [0-9]+ (CPUs?|compilers? at once), batches of [0-9]+: the budget of 2.0 s buys about [0-9]+ candidates in [0-9]+ batch(es)?; a search of this space \(14 dimensions\) needs about 26 to do better than chance' <<<"$output"
    r="$out/results.json"
    jqr '.budget.needed == 26 and .budget.seeds == 11 and .budget.buys.candidates > 0 and .budget.cost.build_s > 0' "$r"
    # the -O levels were measured first, and the ensemble's seeds are -O3, -Os, -O1, then -O3's own flags
    jqr '[.candidates[] | select(.technique == "probe") | .flags] | sort == ["-O1", "-O3", "-Os"]' "$r"
    jqr '[.candidates[] | select(.technique == "ensemble") | .flags][0:4] == ["-O3", "-Os", "-O1", "-ffixture-s1"]' "$r"
    # the answer is the next -O level, confirmed by time (30 rounds: under make test's load on
    # the 2-vCPU VM, 10 rounds of -O3's tenth of the work read 0.53x [0.32x, 1.27x])
    jqr '.minimal.flags == ["-O3"] and .answer.better == true and .answer.cflags == "-O3"' "$r"
}

@test "tune: where instructions do not rank the -O levels as time does, the screen turns to time and says why" {
    needs_tools
    out="$BATS_TEST_TMPDIR/sw"
    # FAKECC_SLOW_O3: -O3 counts a tenth of the instructions and naps 200 ms: first by counts, last by time
    FAKECC_STEPS=1 FAKECC_SLOW_O3=1 run "$FLAGBENCH" tune tunable/loop --compiler fakecc --suite "$(small_suite)" \
        --march default --cache "$CACHE" --out "$out" --no-render --budget 4 --screen-runs 3 --confirm-runs 6
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"the -O levels: -O3 counts fewer instructions than the start"*"but is slower by time"* ]]
    [[ "$output" == *"screen by time: instructions did not rank builds as time did"* ]]
    r="$out/results.json"
    jqr '.metric == "time" and .screen.switched == true and (.screen.why | test("-O3 counts fewer"))' "$r"
    jqr '.screen.levels[0].opt == "-O3" and .screen.levels[0].time_verdict == "slower"' "$r"
    # the counts stay in the record, marked; the search was told times
    jqr '[.candidates[] | select(.technique == "probe") | .screen] | length > 0 and all(. == "instructions")' "$r"
    jqr '[.candidates[] | select(.technique == "ensemble") | .screen] | length == 4 and all(. == "time")' "$r"
    jqr '.answer.flags != "-O3"' "$r"
}

@test "tune: Ctrl-C keeps the journal, --resume finishes without measuring a candidate twice" {
    needs_tools
    out="$BATS_TEST_TMPDIR/r"
    # a cache of its own: every candidate compiles (slowly), so Ctrl-C lands mid-search
    CACHE="$BATS_TEST_TMPDIR/cache"
    FAKECC_SLEEP=0.4 "$FLAGBENCH" tune tunable/loop --compiler fakecc --family-dir "$FAM" --march default \
        --cache "$CACHE" --out "$out" --metric instructions --no-render --budget 12 --batch 2 --jobs 1 \
        >"$BATS_TEST_TMPDIR/first.log" 2>&1 &
    pid=$!
    for _ in $(seq 1 300); do
        [ -f "$out/journal.jsonl" ] && [ "$(wc -l <"$out/journal.jsonl")" -ge 5 ] && break
        sleep 0.1
    done
    kill -INT "$pid"
    rc=0
    wait "$pid" || rc=$?
    cat "$BATS_TEST_TMPDIR/first.log"
    [ "$rc" -eq 130 ]
    before=$(($(wc -l <"$out/journal.jsonl") - 1))
    [ "$before" -ge 4 ]
    [ "$before" -lt 12 ]
    run "$FLAGBENCH" tune --resume "$out"
    echo "$output"
    [ "$status" -eq 0 ]
    # one line per candidate: the journaled ones were told again, not built again
    jqr -s '[.[1:][] | select(.technique == "ensemble") | .key] | (length == 12) and (length == (unique | length))' "$out/journal.jsonl"
    jqr '.minimal.flags == ["-ffixture-fast"] and .techniques[0].candidates == 12' "$out/results.json"
    # a journal of another seed is another tune: refused, not continued
    jq -c 'if .kind then .seed = 99 else . end' "$out/journal.jsonl" > "$BATS_TEST_TMPDIR/j" &&
        cp "$BATS_TEST_TMPDIR/j" "$out/journal.jsonl"
    run "$FLAGBENCH" tune --resume "$out"
    [ "$status" -eq 2 ]
    [[ "$output" == *"journal.jsonl:1: the journal's seed differs from this tune's"* ]]
    # the same search uninterrupted asks the same candidates
    run tune "$BATS_TEST_TMPDIR/u" --budget 12 --batch 2 --jobs 1
    [ "$status" -eq 0 ]
    diff <(jq -s -r '.[1:][] | select(.technique == "ensemble") | .key' "$out/journal.jsonl") \
        <(jq -s -r '.[1:][] | select(.technique == "ensemble") | .key' "$BATS_TEST_TMPDIR/u/journal.jsonl")
}

@test "tune: bad input is exit 2 with a message" {
    run "$FLAGBENCH" tune
    [ "$status" -eq 2 ]
    [[ "$output" == *"name the start"* ]]
    run "$FLAGBENCH" tune tunable/loop --family-dir "$FAM" --budget soon
    [ "$status" -eq 2 ]
    [[ "$output" == *"--budget must be a time"* ]]
    run "$FLAGBENCH" tune tunable/loop --family-dir "$FAM" --technique annealing
    [ "$status" -eq 2 ]
    [[ "$output" == *"'annealing' is not a technique"* ]]
    run "$FLAGBENCH" tune nosuch --family-dir "$FAM"
    [ "$status" -eq 2 ]
    [[ "$output" == *"FAMILY/VARIANT"* ]]
    run "$FLAGBENCH" tune tunable/nosuch --family-dir "$FAM"
    [ "$status" -eq 2 ]
    [[ "$output" == *"no variant 'tunable/nosuch' here"* ]]
    run "$FLAGBENCH" tune --resume "$BATS_TEST_TMPDIR/none"
    [ "$status" -eq 2 ]
    [[ "$output" == *"no journal"* ]]
}
