#!/usr/bin/env bats
# Where the host puts a stream cell's two CPUs (harness/system/handoff.h):
# every batch keeps its probe's reading, the run's states come from all the
# readings at once, a cell has a figure per state, and every ratio compares
# two cells within one state; compare pairs a cell's runs of the same state
# across two runs.  The mock executor's made-up probe (FLAGBENCH_MOCK_HANDOFF,
# "NS*K": K probes in a row read NS) slows a stream's runs by 1 + NS / 1000,
# so a ratio taken across states is off where one within a state is not.
load helpers

setup_file() {
    cat > "$BATS_FILE_TMPDIR/suite.json" <<'J'
{"name": "states", "variants": ["yes/simple", "yes/buf", "yes/vmsplice", "chacha20/ref"], "compilers": ["gcc", "clang"],
 "opt": ["-O2"], "march": ["x86-64"], "sizes": {"yes": 20000000, "chacha20": 65536}}
J
    export SUITE="$BATS_FILE_TMPDIR/suite.json"
    # near for 60 probes, far for 60, over again: each state gets rounds of its own
    FLAGBENCH_MOCK_HANDOFF='90*60,480*60' "$FLAGBENCH" run --suite "$SUITE" --dry-run --no-render --runs 9 \
        -o "$BATS_FILE_TMPDIR/two" >"$BATS_FILE_TMPDIR/two.log" 2>&1
    FLAGBENCH_MOCK_HANDOFF='84,90,88,86' "$FLAGBENCH" run --suite "$SUITE" --dry-run --no-render --runs 9 \
        -o "$BATS_FILE_TMPDIR/one" >"$BATS_FILE_TMPDIR/one.log" 2>&1
    "$FLAGBENCH" run --suite "$SUITE" --dry-run --no-render --runs 9 -o "$BATS_FILE_TMPDIR/none" \
        >"$BATS_FILE_TMPDIR/none.log" 2>&1
    # far throughout: one level, the far one of the first run
    FLAGBENCH_MOCK_HANDOFF='480*1000' "$FLAGBENCH" run --suite "$SUITE" --dry-run --no-render --runs 9 \
        -o "$BATS_FILE_TMPDIR/far" >"$BATS_FILE_TMPDIR/far.log" 2>&1
}

# the probe needs two CPUs: the dry run pins a stream's two sides to CPUs this host has
needs_two_cpus() {
    local r="$BATS_FILE_TMPDIR/two/results.json"
    jqr '.cells | length > 0' "$r"
    if jq -e '[.cells[] | select(.id | startswith("yes/simple@")) | .pin | select(.producer == .consumer)] | length > 0' \
        "$r" >/dev/null; then
        skip "one CPU for both sides of a stream here: nothing to probe"
    fi
}

@test "two states: every stream batch keeps its reading and runs, and each cell a figure per state" {
    needs_two_cpus
    local r="$BATS_FILE_TMPDIR/two/results.json"
    grep -q "the host kept the two CPUs near each other (a cache line's round trip 90 ns, against 480 ns far)" \
        "$BATS_FILE_TMPDIR/two.log"
    # 6 yes cells and the gnu-yes reference are streams; chacha20 is not probed
    jqr '[.cells[] | select(.details.handoff)] | length == 7' "$r"
    jqr '[.cells[] | select(.id | startswith("chacha20/")) | select(.details.handoff == null)] | length == 2' "$r"
    jqr '[.cells[] | select(.details.handoff) | .details.handoff
          | select((.readings | length) == .batches and (.levels_ns | length) == 2
                   and .levels_ns[0] == 90 and .levels_ns[1] == 480)] | length == 7' "$r"
    # a batch's runs are the cell's runs, each state's figure counts its own
    jqr '[.cells[] | select(.details.handoff) | select(([.details.handoff.readings[].runs] | add) == (.time_s.runs | length)
          and ([.details.handoff.states[].runs] | add) == (.time_s.runs | length))] | length == 7' "$r"
    jqr '[.cells[] | select(.details.handoff) | .details.handoff.readings[]] as $all
         | ($all | length) > 0 and ([$all[] | select((.ns == 90 and .state == 1) or (.ns == 480 and .state == 2))]
                                    | length) == ($all | length)' "$r"
    # a cell that ran in both: its far figure 480 / 90 slower in the mock, 1.48 / 1.09
    jqr '[.cells[] | select(.details.handoff) | .details.handoff.states | select(length == 2)] as $two
         | ($two | length) >= 2 and ([$two[] | (.[1].point / .[0].point) | select(. > 1.33 and . < 1.39)] | length)
           == ($two | length)' "$r"
}

@test "two states: ratios and answers compare within one state, near first, and say the mix" {
    needs_two_cpus
    local d="$BATS_FILE_TMPDIR/two" j
    j=$("$FLAGBENCH" tables "$d" --format json)
    # every ratio of the yes family is compared within the near state
    echo "$j" | jqr '[.families[] | select(.name == "yes") | .tables[] | select(.name == "against") | .rows[].cells[]
                      | select(.cpus)] | length >= 3'
    echo "$j" | jqr '[.families[] | select(.name == "yes") | .tables[] | select(.name == "against") | .rows[].cells[]
                      | select(.cpus) | select(.cpus != "near")] | length == 0'
    # within near both cells run 1.09 times slower: the ratio is the programs' (the dry run without a probe's)
    local none
    none=$("$FLAGBENCH" tables "$BATS_FILE_TMPDIR/none" --format json)
    for v in simple buf vmsplice; do
        a=$(echo "$j" | jq --arg v "$v" '.families[] | select(.name == "yes") | .tables[] | select(.name == "against")
                                         | .rows[] | select(.cells[1].id == ("yes/" + $v + "@clang/-O2/x86-64")) | .cells[1].value')
        b=$(echo "$none" | jq --arg v "$v" '.families[] | select(.name == "yes") | .tables[] | select(.name == "against")
                                         | .rows[] | select(.cells[1].id == ("yes/" + $v + "@clang/-O2/x86-64")) | .cells[1].value')
        jqr -n --argjson a "$a" --argjson b "$b" '($a / $b) > 0.99 and ($a / $b) < 1.01'
    done
    echo "$j" | jqr '[.families[] | select(.name == "yes") | .answer[0]
                      | select(contains("the host kept the two CPUs near each other") and contains("within one state"))]
                     | length == 1'
    echo "$j" | jqr '[.families[] | select(.name == "yes") | .answer[] | select(contains("runs with the CPUs near"))] | length >= 1'
    # the tables mark it, with its legend
    run "$FLAGBENCH" tables "$d"
    [ "$status" -eq 0 ]
    [[ "$output" == *"compared within the runs the host ran with the stream's two CPUs near each other"* ]]
}

@test "one state, and compute cells: run and compared as without a probe" {
    needs_two_cpus
    local one="$BATS_FILE_TMPDIR/one/results.json" none="$BATS_FILE_TMPDIR/none/results.json"
    jqr '[.cells[] | select(.details.handoff) | select((.details.handoff.levels_ns | length) == 1)] | length == 7' "$one"
    # the same runs a cell, the compute cells' very times
    diff <(jq -c '[.cells[] | {id, n: (.time_s.runs | length)}]' "$one") \
         <(jq -c '[.cells[] | {id, n: (.time_s.runs | length)}]' "$none")
    diff <(jq -c '[.cells[] | select(.id | startswith("chacha20/")) | .time_s.runs]' "$one") \
         <(jq -c '[.cells[] | select(.id | startswith("chacha20/")) | .time_s.runs]' "$none")
    # the same verdicts, no state marked, no mix said
    local a b
    a=$("$FLAGBENCH" tables "$BATS_FILE_TMPDIR/one" --format json)
    b=$("$FLAGBENCH" tables "$BATS_FILE_TMPDIR/none" --format json)
    diff <(echo "$a" | jq -c '[.families[].tables[] | select(.name == "against") | .rows[].cells[] | .verdict]') \
         <(echo "$b" | jq -c '[.families[].tables[] | select(.name == "against") | .rows[].cells[] | .verdict]')
    echo "$a" | jqr '[.families[].tables[].rows[].cells[] | select(.cpus)] | length == 0'
    echo "$a" | jqr '[.families[].answer[] | select(contains("the host kept"))] | length == 0'
}

@test "compare: a cell's runs of the state both runs have are compared; with none in common, not called a change" {
    needs_two_cpus
    run "$FLAGBENCH" compare "$BATS_FILE_TMPDIR/two" "$BATS_FILE_TMPDIR/far" --format json
    [ "$status" -eq 0 ]
    local j="$output" shared
    # the cells of the first run that ran far too: within far the runs are alike, the same (1.36x slower across)
    shared=$(jq -c '[.cells[] | select(.details.handoff.states | length == 2) | .id]' "$BATS_FILE_TMPDIR/two/results.json")
    echo "$j" | jqr --argjson s "$shared" '($s | length) >= 2 and ([.cells[] | select(.id as $i | $s | index($i))
        | select(.verdict == "same" and .ratio > 0.98 and .ratio < 1.02
                 and (.note | contains("far before") and contains("compared within that state")))] | length) == ($s | length)'
    # near alone in the first run, far alone in the second: across states, inconclusive, the machine's
    echo "$j" | jqr --argjson s "$shared" '[.cells[] | select(.id | startswith("yes/")) | select(.id as $i | $s | index($i) | not)]
        as $only | ($only | length) >= 1 and ([$only[] | select(.verdict == "inconclusive" and .ratio > 1.3
            and (.note | contains("no state of the host'"'"'s two CPUs holds runs of both")))] | length) == ($only | length)'
}
