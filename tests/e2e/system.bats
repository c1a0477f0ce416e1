#!/usr/bin/env bats
# flagbench topology and doctor from fixture /sys trees and on this machine,
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
    jqr 'all(.cells[] | select(.placement == "unpinned" and .status == "ok"); .pin.producer == null)' "$r"
    jqr 'all(.cells[] | select(.status == "ok"); .throttled != null and (.time_s | has("ci95")))' "$r"
    # whatever this host is: a class its topology has runs, one it lacks is
    # unsupported with the reason, checked against `flagbench topology`
    topo=$("$FLAGBENCH" topology --json)
    for cls in same_cpu same_l3 unpinned; do
        if echo "$topo" | jq -e --arg c "$cls" '.classes | has($c)' >/dev/null; then
            jqr --arg c "$cls" 'all(.cells[] | select(.placement == $c); .status == "ok")' "$r"
        else
            jqr --arg c "$cls" 'all(.cells[] | select(.placement == $c);
                .status == "unsupported" and (.reason | startswith("no \($c) pair on this machine")))' "$r"
        fi
    done
}

