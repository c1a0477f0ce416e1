#!/usr/bin/env bats
# flagbench topology and doctor from fixture trees (hwloc XML) and on this machine,
# and a placement suite run here (classes the host lacks are unsupported).

load helpers

@test "topology of the Ryzen 7 2700 fixture: the seed-003 classes" {
    run "$FLAGBENCH" topology --root "$REPO/tests/fixtures/sys/ryzen2700"
    [ "$status" -eq 0 ]
    [[ "$output" == *"smt_sibling    1 -> 9"* ]]
    [[ "$output" == *"same_l3        1 -> 2"* ]]
    [[ "$output" == *"other_l3       1 -> 4"* ]]
    run "$FLAGBENCH" topology --json --root "$REPO/tests/fixtures/sys/j4205"
    [ "$status" -eq 0 ]
    echo "$output" | jq -e . >/dev/null
}

@test "topology of a hybrid part and of a container: kind classes, only the allowed cpus" {
    run "$FLAGBENCH" topology --root "$REPO/tests/fixtures/sys/hybrid"
    [ "$status" -eq 0 ]
    [[ "$output" == *"core kinds (least performant first): E (IntelAtom) 16-23, P (IntelCore) 0-15"* ]]
    [[ "$output" == *"p_to_e         1 -> 16"* ]]
    [[ "$output" == *"e_to_p         16 -> 1"* ]]
    run "$FLAGBENCH" topology --json --root "$REPO/tests/fixtures/sys/container3"
    [ "$status" -eq 0 ]
    echo "$output" | jq -e '.online == "3-4,11" and .machine == "0-15" and .classes.smt_sibling.producer == 3'
    run "$FLAGBENCH" doctor --root "$REPO/tests/fixtures/sys/container3"
    [ "$status" -eq 0 ]
    [[ "$output" == *"this process may use 3 of the 16 cpus"* ]]
    # this machine with the harness pinned to one of its cpus: only that one is offered
    cpu=$(taskset -pc $$ | sed 's/.*: //; s/[-,].*//')
    run taskset -c "$cpu" "$FLAGBENCH" topology --json
    [ "$status" -eq 0 ]
    echo "$output" | jq -e --arg c "$cpu" '.online == $c and .threads == 1 and (.classes | has("same_l3") | not)'
}

@test "topology and doctor run on this machine" {
    run "$FLAGBENCH" topology
    [ "$status" -eq 0 ]
    [[ "$output" == *"same_cpu"* ]]
    run "$FLAGBENCH" doctor
    [ "$status" -eq 0 ]
    [[ "$output" == *"hyperfine"* ]]
    [[ "$output" == *"pipe"* ]]
}

@test "doctor on the bare fixture warns about missing cpufreq and sensors" {
    run "$FLAGBENCH" doctor --root "$REPO/tests/fixtures/sys/bare"
    [ "$status" -eq 0 ]
    [[ "$output" == *"no cpufreq"* ]]
    [[ "$output" == *"no thermal sensors"* ]]
}

@test "a placement suite: classes this host lacks are unsupported with a reason" {
    root="$BATS_TEST_TMPDIR/root"
    make_fixture_root "$root"
    FLAGBENCH_ROOT="$root" run "$FLAGBENCH" run --no-render --suite placements --out "$BATS_TEST_TMPDIR/p" \
        --cache "$BATS_TEST_TMPDIR/cache" --runs 2 --warmup 0
    [ "$status" -eq 0 ]
    r="$BATS_TEST_TMPDIR/p/results.json"
    jqr '[.cells[] | select(.placement == "same_cpu" and .status == "ok")] | length == 4' "$r"
    jqr 'all(.cells[] | select(.placement == "same_cpu"); .pin.producer == .pin.consumer)' "$r"
    jqr '([.cells[] | select(.placement == "unpinned" and .status == "ok")] | length > 0) and all(.cells[] | select(.placement == "unpinned" and .status == "ok"); .pin.producer == null)' "$r"
    jqr '([.cells[] | select(.status == "ok")] | length > 0) and all(.cells[] | select(.status == "ok"); .throttled != null and (.time_s | has("ci95")))' "$r"
    # whatever this host is: a class its topology has runs, one it lacks is
    # unsupported with the reason, checked against `flagbench topology`
    topo=$("$FLAGBENCH" topology --json)
    for cls in same_cpu same_l3 unpinned; do
        if echo "$topo" | jq -e --arg c "$cls" '.classes | has($c)' >/dev/null; then
            jqr --arg c "$cls" '([.cells[] | select(.placement == $c)] | length > 0) and all(.cells[] | select(.placement == $c); .status == "ok")' "$r"
        else
            jqr --arg c "$cls" '([.cells[] | select(.placement == $c)] | length > 0) and all(.cells[] | select(.placement == $c);
                .status == "unsupported" and (.reason | startswith("no \($c) pair on this machine")))' "$r"
        fi
    done
}

