#!/usr/bin/env bats
# scripts/lint-tests.sh: the assertions that cannot fail (&& lists of
# assertions, pgrep patterns anchored with $, a bare ! cmd, a jq all with
# no count before it, -z "$(find ...)", a run with no status check) are named
# FILE:LINE.  The repo's tests have none; the fixtures under
# tests/fixtures/lint show that the linter can fail and what it leaves alone
# (bats files kept as .txt: text to lint, never run, and never taken for tests).

load helpers

LINT="$REPO/scripts/lint-tests.sh"
LINT_FIXTURES="$REPO/tests/fixtures/lint"

@test "lint-tests: the bats files of tests/e2e and tests/slow have no assertion that cannot fail" {
    run "$LINT"
    echo "$output"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
}

@test "lint-tests: every bad line of the fixture is named at its line, and no other" {
    run "$LINT" "$LINT_FIXTURES/bad.bats.txt"
    echo "$output"
    [ "$status" -eq 1 ]
    want=$(grep -n '# expect$' "$LINT_FIXTURES/bad.bats.txt" | cut -d: -f1)
    got=$(sed -n 's|^.*/bad\.bats\.txt:\([0-9]*\): .*|\1|p' <<<"$output")
    [ -n "$want" ]
    [ "$got" = "$want" ]
    [[ "$output" == *"lint-tests: $(wc -l <<<"$want") finding(s)"* ]]
    # each kind has its own message
    [[ "$output" == *"bad.bats.txt:7: assertions joined by &&"* ]]
    [[ "$output" == *"bad.bats.txt:25: an assertion followed by || echo"* ]]
    [[ "$output" == *"bad.bats.txt:30: a bare ! cmd never fails the test"* ]]
    [[ "$output" == *"bad.bats.txt:37: a process pattern ending in \$"* ]]
    [[ "$output" == *"bad.bats.txt:48: a jq all with no count asserted before it"* ]]
    [[ "$output" == *"bad.bats.txt:56: -z \"\$(find DIR ...)\" is true when DIR is gone"* ]]
    [[ "$output" == *"bad.bats.txt:61: a run with no status check after it"* ]]
}

@test "lint-tests: conditions, conditional actions, data and helpers are left alone" {
    run "$LINT" "$LINT_FIXTURES/good.bats.txt"
    echo "$output"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
}

@test "lint-tests: a file it cannot read is an error, not a pass" {
    run "$LINT" "$BATS_TEST_TMPDIR/none.bats"
    [ "$status" -eq 2 ]
    [[ "$output" == *"cannot read"* ]]
}
