#!/usr/bin/env bats
# Hostile input: names and values with "..", "/", spaces, quotes, $(...),
# backticks, newlines, control characters, very long strings, bytes that
# are not UTF-8; sizes negative, zero, huge, not numbers, or too big for the
# expected byte count; duplicate names; globs that match nothing.  Each is a
# clear error at file:line:column (exit 2, nothing made), or is carried
# through every output without running anything (no shell sees it).

bats_require_minimum_version 1.5.0
load helpers

setup() {
    export ROOT="$BATS_TEST_TMPDIR/root"
    make_fixture_root "$ROOT"
    export FLAGBENCH_ROOT="$ROOT"
    export PWNED="$BATS_TEST_TMPDIR/pwned"
}

# A suite file whose JSON member KEY is VALUE (raw JSON), on line 2.
suite_with() { # file key raw-json-value
    local base='"name": "h", "variants": ["yes/buf"], "compilers": ["gcc"], "opt": ["-O2"], "march": ["default"]'
    base=$(printf '%s' "$base" | sed "s/\"$2\": [^,]*\\(\\]\\)\\{0,1\\}, //")
    printf '{\n  "%s": %s, %s\n}\n' "$2" "$3" "$base" >"$1"
}

# The run is refused: exit 2, "FILE:2:COL: KEY...: MESSAGE", no folder.
refused() { # file message-glob
    run "$FLAGBENCH" run --no-render --suite "$1" --dry-run --out "$BATS_TEST_TMPDIR/out"
    echo "$output"
    [ "$status" -eq 2 ]
    # shellcheck disable=SC2053
    [[ "$output" == "flagbench: $1:"[0-9]*":"[0-9]*": "$2 ]]
    [ ! -e "$BATS_TEST_TMPDIR/out" ]
    [ ! -e "$PWNED" ]
}

@test "hostile suite names: '..', '/', spaces, quotes, \$(...), backticks, control characters, 65+ characters" {
    local f="$BATS_TEST_TMPDIR/s.json" v
    for v in '"../../etc"' '"a/b"' '"with space"' '"q\"uote"' "\"\$(touch $PWNED)\"" "\"\`touch $PWNED\`\"" \
        '"line\nbreak"' '"esc\u001b[31m"' '".hidden"' "\"$(printf 'x%.0s' $(seq 1 65))\""; do
        suite_with "$f" name "$v"
        refused "$f" "name: *"
    done
}

@test "hostile titles and descriptions: quotes, \$(...) and backticks are carried, control characters refused" {
    local f="$BATS_TEST_TMPDIR/t.json"
    suite_with "$f" title '"line\nbreak"'
    refused "$f" "title: must not contain control characters (byte 0x0a at offset 4)"
    suite_with "$f" title '"bell\u0007"'
    refused "$f" "title: must not contain control characters (byte 0x07 at offset 4)"
    suite_with "$f" title '"nul\u0000byte"'
    refused "$f" "*is not allowed without JSON_ALLOW_NUL*"
    # carried: run (dry) and every output holds the text as it is, no shell ran it
    title="it's \"quoted\" | \$(touch $PWNED) \`touch $PWNED\` <b>&amp; $(printf 'long%.0s' $(seq 1 500))"
    suite_with "$f" title "$(jq -n --arg t "$title" '$t')"
    run "$FLAGBENCH" run --no-render --suite "$f" --dry-run --out "$BATS_TEST_TMPDIR/carried"
    [ "$status" -eq 0 ]
    [ ! -e "$PWNED" ]
    jq -e '.run.suite == "h"' "$BATS_TEST_TMPDIR/carried/results.json"
    # the report on the terminal holds no escape or control byte
    run "$FLAGBENCH" report "$BATS_TEST_TMPDIR/carried"
    [ "$status" -eq 0 ]
    refute grep -q $'[\x01-\x08\x0b-\x1f\x7f]' <<<"$output"
}

@test "bytes that are not UTF-8 are a syntax error at their line and column" {
    local f="$BATS_TEST_TMPDIR/u.json"
    printf '{\n  "name": "h\xff\xfe", "variants": ["yes/buf"], "compilers": ["gcc"], "opt": ["-O2"]\n}\n' >"$f"
    refused "$f" "*"
    [[ "$output" == *"$f:2:"* ]]
}

@test "hostile variant, family and reference names in a family.json are refused at their place" {
    local fam="$ROOT/variants/evil" v
    mkdir -p "$fam"
    cp "$REPO/tests/fixtures/families/faults/good.c" "$REPO/tests/fixtures/families/faults/common.h" "$fam/"
    for v in '"../good"' '"a b"' '"$(id)"' '"`id`"' '"x\ny"'; do
        printf '{"family": "evil", "kind": "stream", "unit": "lines", "default_size": 10, "check": "yes",\n "baseline": "good", "variants": [{"name": "good"}, {"name": %s}]}\n' "$v" >"$fam/family.json"
        run "$FLAGBENCH" list variants
        [ "$status" -eq 2 ]
        [[ "$output" == "flagbench: $fam/family.json:2:"*": variants[1].name: "* ]] || { echo "$v: $output"; return 1; }
    done
    printf '{"family": "../evil", "kind": "stream", "unit": "lines", "default_size": 10, "check": "yes",\n "baseline": "good", "variants": [{"name": "good"}]}\n' >"$fam/family.json"
    run "$FLAGBENCH" list variants
    [ "$status" -eq 2 ]
    [[ "$output" == "flagbench: $fam/family.json:1:"*": family: '../evil' is not a plain name"* ]]
    printf '{"family": "evil", "kind": "stream", "unit": "lines", "default_size": 10, "check": "yes",\n "baseline": "good", "variants": [{"name": "good"}],\n "references": [{"name": "r/../x", "argv": ["yes"]}]}\n' >"$fam/family.json"
    run "$FLAGBENCH" list variants
    [ "$status" -eq 2 ]
    [[ "$output" == *"family.json:3:"*": references[0].name: 'r/../x' is not a plain name"* ]]
}

@test "duplicate names: a variant twice, a family in two folders, a key twice" {
    local fam="$ROOT/variants/dup"
    mkdir -p "$fam"
    cp "$REPO/tests/fixtures/families/faults/good.c" "$REPO/tests/fixtures/families/faults/common.h" "$fam/"
    printf '{"family": "dup", "kind": "stream", "unit": "lines", "default_size": 10, "check": "yes",\n "baseline": "good", "variants": [{"name": "good"},\n {"name": "good"}]}\n' >"$fam/family.json"
    run "$FLAGBENCH" list variants
    [ "$status" -eq 2 ]
    [[ "$output" == *"dup/family.json:3:2: variants[1]: variant 'good' is listed twice"* ]]
    printf '{"family": "yes", "kind": "stream", "unit": "lines", "default_size": 10, "check": "yes",\n "baseline": "good", "variants": [{"name": "good"}]}\n' >"$fam/family.json"
    run "$FLAGBENCH" list variants
    [ "$status" -eq 2 ]
    [[ "$output" == *"family 'yes' is also defined in"* ]]
    rm -r "$fam"
    printf '{"name": "a",\n "name": "b", "variants": ["yes/buf"], "compilers": ["gcc"], "opt": ["-O2"]}\n' >"$BATS_TEST_TMPDIR/k.json"
    refused "$BATS_TEST_TMPDIR/k.json" "duplicate object key*"
}

@test "hostile sizes: negative, zero, not numbers, huge, padded; each refused at its place" {
    local f="$BATS_TEST_TMPDIR/z.json" v
    for v in -1 0 '"0"' '"abc"' '"12x"' '"-5"' '" 12"' 1e3 '"99999999999999999999999"' '"18446744073709551616"' \
        '"17179869184G"' '{}' '[1]' 'true' 'null'; do
        suite_with "$f" sizes "{\"yes\": $v}"
        refused "$f" "sizes.yes: must be *"
    done
}

@test "a size whose expected output overflows 64 bits is unsupported with the reason, the run goes on" {
    local f="$BATS_TEST_TMPDIR/o.json"
    suite_with "$f" sizes '{"yes/buf": "0xffffffffffffffff"}'
    run "$FLAGBENCH" run --no-render --suite "$f" --dry-run --out "$BATS_TEST_TMPDIR/ov"
    [ "$status" -eq 0 ]
    jq -e '.cells[] | select(.variant == "buf") | .status == "unsupported" and
           (.reason | contains("would exceed 2^64 bytes"))' "$BATS_TEST_TMPDIR/ov/results.json"
    jq -e '.cells[] | select(.variant == "gnu-yes") | .status == "ok"' "$BATS_TEST_TMPDIR/ov/results.json"
}

@test "empty and hostile globs: no match is an error at the glob; a path in a glob matches nothing" {
    local f="$BATS_TEST_TMPDIR/g.json" v
    for v in '[]' '["../yes/buf"]' '["yes/buf/.."]' '["*/../*"]' '[""]' '["yes/\u001b"]'; do
        suite_with "$f" variants "$v"
        refused "$f" "variants*"
    done
}

@test "hostile cpu profile names and --out paths are refused or used as given, never through a shell" {
    run "$FLAGBENCH" run --no-render --cpu "\$(touch $PWNED)" --suite smoke --dry-run
    [ "$status" -eq 2 ]
    [ ! -e "$PWNED" ]
    printf '{"name": "../x", "march": ["default"]}\n' >"$BATS_TEST_TMPDIR/p.json"
    run "$FLAGBENCH" run --no-render --cpu "$BATS_TEST_TMPDIR/p.json" --suite smoke --dry-run
    [ "$status" -eq 2 ]
    [[ "$output" == *"p.json:1:10: name: '../x' is not a plain name"* ]]
    # an --out with spaces, quotes and $(...) is a folder of that name
    out="$BATS_TEST_TMPDIR/a b \"q\" \$(touch $PWNED) \`x\`"
    run "$FLAGBENCH" run --no-render --suite smoke --dry-run --out "$out"
    [ "$status" -eq 0 ]
    [ -f "$out/results.json" ]
    [ ! -e "$PWNED" ]
}
