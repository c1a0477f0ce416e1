#!/usr/bin/env bats
# "check": {"same_as": "baseline"}: every variant's output compared with the
# family's baseline variant, whatever that variant is named; a variant
# literally named "baseline" makes the word ambiguous and is refused.
load helpers

setup() {
    F="$BATS_TEST_TMPDIR/fams/count"
    mkdir -p "$F"
    cat > "$F/ref.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 1000;
	for (unsigned long i = 1; i <= n; i++)
		printf("%lu\n", i);
	return 0;
}
C
    cp "$F/ref.c" "$F/same.c"
    sed 's/printf("%lu\\n", i);/printf("%lu\\n", i == 7 ? 0 : i);/' "$F/ref.c" > "$F/off.c"
    cat > "$BATS_TEST_TMPDIR/suite.json" <<J
{"name": "sa", "variants": ["count/*"], "compilers": ["cc"], "opt": ["-O1"], "march": ["default"],
 "sizes": {"count": 1000}, "runs": 1, "warmup": 0}
J
}

family_json() { # VARIANTS-JSON
    cat > "$F/family.json" <<J
{"family": "count", "kind": "stream", "unit": "lines", "default_size": 1000,
 "check": {"same_as": "baseline"}, "baseline": "ref", "variants": $1}
J
}

fb_run() {
    run "$FLAGBENCH" run --suite "$BATS_TEST_TMPDIR/suite.json" --family-dir "$BATS_TEST_TMPDIR/fams" \
        --cache "$BATS_TEST_TMPDIR/cache" --precision 0 --no-render --no-counters -o "$BATS_TEST_TMPDIR/out" "$@"
}

@test "same_as baseline: each variant checked against the family's baseline variant" {
    command -v cc >/dev/null || skip "no cc on PATH"
    family_json '[{"name": "ref"}, {"name": "same"}, {"name": "off"}]'
    fb_run --only 'count/*'
    [ "$status" -eq 1 ] # off is wrong
    r="$BATS_TEST_TMPDIR/out/results.json"
    jqr '[.cells[] | select(.variant == "same")][0].status == "ok"' "$r"
    jqr '[.cells[] | select(.variant == "ref")][0].status == "ok"' "$r"
    jqr '[.cells[] | select(.variant == "off")][0] | .status == "wrong_output" and (.reason | test("line 7"))' "$r"
}

@test "same_as baseline with a variant named baseline: an error at file:line:column" {
    family_json '[{"name": "ref"}, {"name": "baseline"}]'
    cp "$F/ref.c" "$F/baseline.c"
    fb_run --dry-run
    [ "$status" -eq 2 ]
    [[ "$output" == *"family.json:"[0-9]*:[0-9]*": check.same_as: \"baseline\" means the family's baseline variant, and a variant is named baseline too"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/out/results.json" ]
}
