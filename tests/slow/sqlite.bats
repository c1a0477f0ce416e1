#!/usr/bin/env bats
# The sqlite family, slow tier: SQLite's speedtest1 and the
# 244,000-line amalgamation sqlite3.c from the Debian source package sqlite3
# (scripts/project-sources.sh sqlite: apt-get source, then prepare.sh makes
# sqlite3.c with tclsh), built once by the family's Makefile (gcc at -O2, 30 s
# or so), its output proven by the declared check (check.sh: the verification
# hash against expected/main-N.txt), and a wrong hash is a wrong output.

load ../e2e/helpers
bats_require_minimum_version 1.5.0

# the one build: gcc at -O2 on the family in the checkout, at --size 5.  No
# source, no test: the reason is kept for setup() (bats 1.8, Debian 12's,
# does not skip from setup_file)
setup_file() {
    T="$BATS_FILE_TMPDIR"
    if ! "$REPO/scripts/project-sources.sh" sqlite >"$T/fetch.log" 2>&1; then
        echo "the Debian source package sqlite3 could not be fetched (apt-get source, deb-src, the network, or tclsh for" \
            "the amalgamation): $(tail -n 1 "$T/fetch.log")" >"$T/skip"
        return 0
    fi
    echo '{"name": "sqlite-one", "variants": ["sqlite/*"], "compilers": ["gcc"], "opt": ["-O2"], "march": ["default"],
           "sizes": {"sqlite": 5}, "runs": 1, "warmup": 0}' >"$T/suite.json"
    "$FLAGBENCH" run --suite "$T/suite.json" --family-dir "$REPO/variants-projects/sqlite" --cache "$T/cache" \
        --no-render --no-counters -o "$T/ok" >"$T/ok.out" 2>&1 || echo "$?" >"$T/ok.status"
}

setup() {
    [ ! -f "$BATS_FILE_TMPDIR/skip" ] || skip "$(cat "$BATS_FILE_TMPDIR/skip")"
}

@test "sqlite: speedtest1 with the amalgamation built by gcc -O2 passes its declared check" {
    T="$BATS_FILE_TMPDIR"
    [ ! -e "$T/ok.status" ] || { cat "$T/ok.out"; false; }
    jqr '.cells | length == 1 and .[0].status == "ok" and .[0].id == "sqlite/main@gcc/-O2/default"' "$T/ok/results.json"
    jqr '.families.sqlite.version | startswith("sqlite3 3.")' "$T/ok/results.json"
    # the build got the matrix's CC and CFLAGS and nothing of the harness's
    grep -q ' CFLAGS=-O2 LDFLAGS=$' "$T"/cache/*/*/command
    # the check on the kept binary's output by hand: the same verdict
    bin="$T/ok/bin/$(jq -r '.cells[0].binary.sha256' "$T/ok/results.json")"
    cd "$REPO/variants-projects/sqlite"
    "$bin" --memdb --verify --testset main --size 5 | ./check.sh main 5
}

@test "sqlite: a wrong verification hash is a wrong_output named by the check" {
    T="$BATS_FILE_TMPDIR"
    [ -f "$T/ok/results.json" ] || { cat "$T/ok.out"; false; }
    rm -rf "$T/sqlite"
    cp -r "$REPO/variants-projects/sqlite" "$T/sqlite"
    # one hex digit of the expected hash changed: the same binary (kept by the
    # first run, not built again) now fails the check
    awk '{ d = substr($4, 1, 1); $4 = (d == "0" ? "1" : "0") substr($4, 2); print }' \
        "$REPO/variants-projects/sqlite/expected/main-5.txt" >"$T/sqlite/expected/main-5.txt"
    refute cmp -s "$T/sqlite/expected/main-5.txt" "$REPO/variants-projects/sqlite/expected/main-5.txt"
    run "$FLAGBENCH" run --suite "$T/suite.json" --family-dir "$T/sqlite" --binaries-from "$T/ok" --cache "$T/cache" \
        --no-render --no-counters -o "$T/bad"
    [ "$status" -eq 1 ]
    jqr '.cells[0].status == "wrong_output" and (.cells[0].reason | contains("verification hash of main 5 differs from expected/main-5.txt"))' \
        "$T/bad/results.json"
    # and by hand: a wrong hash, and an output with no hash (speedtest1 without --verify)
    bin="$T/ok/bin/$(jq -r '.cells[0].binary.sha256' "$T/ok/results.json")"
    cd "$T/sqlite"
    run ./check.sh main 5 < <("$bin" --memdb --verify --testset main --size 5)
    [ "$status" -eq 1 ]
    [[ "$output" == *"differs from expected/main-5.txt"* ]]
    run ./check.sh main 5 < <("$bin" --memdb --testset main --size 5)
    [ "$status" -eq 1 ]
    [[ "$output" == *"no Verification Hash line"* ]]
    run ./check.sh main 7 </dev/null
    [ "$status" -eq 2 ]
}
