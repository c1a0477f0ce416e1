#!/usr/bin/env bats
# One identity of a program (pipeline/plan.h's struct program_id: binary
# sha256, argv, allocator, placement, consumer, environment pad): the cells
# the tables mark ≡ (the same binary) are "the same binary" in flagbench
# compare, and the cells they keep apart (the same sha256 run with another
# argv, allocator or environment pad) are not.  On a fixture run made from
# tests/fixtures/compare/tight.json.  The build's dedupe and the undecided
# answers ask the same identity: tests/unit/test_program_id.c.

load helpers

TIGHT="$REPO/tests/fixtures/compare/tight.json"
SHA=$(printf '%064d' 7)

# yes/buf in five configurations, all one sha256:
#   gcc/-O2/native    argv [1000], allocator missing (glibc)
#   gcc/-O3/native    the same program, allocator "glibc" named: a twin of -O2
#   clang/-O2/native  argv [2000]: another program
#   clang/-O3/native  allocator mimalloc: another program
#   gcc/-O1/native    environment pad 2208: another program
setup() {
    RUN="$BATS_TEST_TMPDIR/run.json"
    jq --arg s "$SHA" '
      def cell($cfg; $comp; $opt): .cells[0] | .id = "yes/buf@" + $cfg | .config = $cfg | .compiler = $comp
        | .opt = $opt | .march = "native" | .argv = ["1000"] | .size = 1000 | .binary.sha256 = $s
        | .throughput_Bps = {"median": 1000000};
      .cells = [cell("gcc/-O2/native"; "gcc"; "-O2"),
                (cell("gcc/-O3/native"; "gcc"; "-O3") | .allocator = "glibc"),
                (cell("clang/-O2/native"; "clang"; "-O2") | .argv = ["2000"]),
                (cell("clang/-O3/native"; "clang"; "-O3") | .allocator = "mimalloc"),
                (cell("gcc/-O1/native"; "gcc"; "-O1")
                   | .layout = {"index": 0, "of": 1, "code_pad_bytes": 0, "env_pad_bytes": 2208})]' \
       "$TIGHT" > "$RUN"
    CONFIGS="gcc/-O2/native gcc/-O3/native clang/-O2/native clang/-O3/native gcc/-O1/native"
}

# The throughput table's marks of the cell of CONFIG.
mark_of() {
    jq -r --arg id "yes/buf@$2" '.families[].tables[] | select(.name == "throughput")
        | .rows[].cells[] | select(.id == $id) | .marks' "$1"
}

# A run holding only the cell of CONFIG, under the id yes/buf@pair.
only_cell() { # CONFIG FILE
    jq --arg id "yes/buf@$1" '.cells = [.cells[] | select(.id == $id) | .id = "yes/buf@pair"]' "$RUN" > "$2"
}

# compare's verdict between the cells of two configurations.
compare_verdict() { # CONFIG_A CONFIG_B
    only_cell "$1" "$BATS_TEST_TMPDIR/a.json"
    only_cell "$2" "$BATS_TEST_TMPDIR/b.json"
    "$FLAGBENCH" compare "$BATS_TEST_TMPDIR/a.json" "$BATS_TEST_TMPDIR/b.json" \
        --json-out "$BATS_TEST_TMPDIR/c.json" >/dev/null || [ $? -eq 1 ]
    jq -r '.cells[] | select(.id == "yes/buf@pair") | .verdict' "$BATS_TEST_TMPDIR/c.json"
}

@test "the tables mark ≡ only the cells of one program: the same sha256 with another argv, allocator or env pad is apart" {
    run "$FLAGBENCH" tables "$RUN" --format json --out "$BATS_TEST_TMPDIR/t.json"
    [ "$status" -eq 0 ]
    t="$BATS_TEST_TMPDIR/t.json"
    [ "$(mark_of "$t" gcc/-O2/native)" = "≡" ]
    [ "$(mark_of "$t" gcc/-O3/native)" = "≡" ]
    [ "$(mark_of "$t" clang/-O2/native)" = "" ]   # argv
    [ "$(mark_of "$t" clang/-O3/native)" = "" ]   # allocator
    [ "$(mark_of "$t" gcc/-O1/native)" = "" ]     # environment pad
    # the answer names the twin, and the -O3/-O2 gap is the same binary, -O1/-O2 is not
    jqr '.families[].answers[] | select(.variant == "buf") | .twins == "gcc/-O3/native"' "$t"
    jqr '[.families[].gaps[] | select(.context == "gcc" and .a == "-O2" and .b == "-O3") | .entries[].verdict] == ["same binary"]' "$t"
    jqr '[.families[].gaps[] | select(.context == "gcc" and .a == "-O2" and .b == "-O1") | .entries[].verdict] | length > 0 and all(. != "same binary")' "$t"
}

@test "compare calls two cells the same binary exactly when the tables mark them ≡" {
    "$FLAGBENCH" tables "$RUN" --format json --out "$BATS_TEST_TMPDIR/t.json"
    local a b ma mb v twins=0
    for a in $CONFIGS; do
        for b in $CONFIGS; do
            [ "$a" != "$b" ] || continue
            ma=$(mark_of "$BATS_TEST_TMPDIR/t.json" "$a")
            mb=$(mark_of "$BATS_TEST_TMPDIR/t.json" "$b")
            v=$(compare_verdict "$a" "$b")
            echo "$a ($ma) vs $b ($mb): $v"
            # the fixture has one twin pair, so both marked ≡ is that pair
            if [ "$ma" = "≡" ] && [ "$mb" = "≡" ]; then
                [ "$v" = "same binary" ]
                twins=$((twins + 1))
            else
                [ -n "$v" ]
                [ "$v" != "same binary" ]
            fi
        done
    done
    [ "$twins" -eq 2 ] # -O2 vs -O3 and back
}

@test "compare between runs: the same sha256 and argv with another env pad or allocator is not the same binary" {
    [ "$(compare_verdict gcc/-O2/native gcc/-O2/native)" = "same binary" ]
    [ "$(compare_verdict gcc/-O2/native gcc/-O3/native)" = "same binary" ]  # a missing allocator is glibc
    [ "$(compare_verdict gcc/-O2/native gcc/-O1/native)" != "same binary" ]
    [ "$(compare_verdict gcc/-O1/native gcc/-O2/native)" != "same binary" ]
    [ "$(compare_verdict gcc/-O2/native clang/-O3/native)" != "same binary" ]
    [ "$(compare_verdict gcc/-O2/native clang/-O2/native)" != "same binary" ]
}
