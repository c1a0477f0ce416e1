#!/usr/bin/env bats
# Families from any folder (issue 14): a family written in a temporary
# folder outside the repo, taken by --family-dir or a suite's family_dirs;
# variants of one file or a folder of files with include_dirs and defines;
# each check declared in JSON (same_as, sha256, command, none); each bad
# input a clear message (file:line:column) or a cell status with a reason.

load helpers
bats_require_minimum_version 1.5.0

setup() {
    W="$BATS_TEST_TMPDIR/w"
    F="$W/fams/lines"
    mkdir -p "$F/multi" "$F/inc"
    # good: the lines 1..N; bad: line 500 reads 0; multi: two files, a header and a define
    cat > "$F/good.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	unsigned long n = strtoul(argv[1], 0, 10);
	for (unsigned long i = 1; i <= n; i++)
		printf("%lu\n", i);
	return 0;
}
C
    sed 's/printf("%lu\\n", i);/printf("%lu\\n", i == 500 ? 0 : i);/' "$F/good.c" > "$F/bad.c"
    echo 'unsigned long step(unsigned long i);' > "$F/inc/step.h"
    cat > "$F/multi/main.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "step.h"
int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	unsigned long n = strtoul(argv[1], 0, 10);
	for (unsigned long i = 1; i <= n; i = step(i))
		printf("%lu\n", i);
	return 0;
}
C
    printf '#include "step.h"\nunsigned long step(unsigned long i) { return i + STEP; }\n' > "$F/multi/step.c"
    # a suite of one configuration beside the families
    cat > "$W/suite.json" <<'J'
{"name": "fam-test", "variants": ["lines/*"], "compilers": ["gcc"], "opt": ["-O2"], "march": ["default"],
 "sizes": {"lines": 100000}, "runs": 1, "warmup": 0, "family_dirs": ["fams"]}
J
    CACHE="$BATS_TEST_TMPDIR/cache"
}

# family.json of the lines family with CHECK as its "check"
family_json() {
    cat > "$F/family.json" <<J
{
  "family": "lines",
  "kind": "stream",
  "unit": "lines",
  "default_size": 100000,
  "check": $1,
  "baseline": "good",
  "variants": [
    {"name": "good"},
    {"name": "bad"},
    {"name": "multi", "include_dirs": ["inc"], "defines": ["STEP=1"]}
  ]
}
J
}

# Every real run here takes --precision 0: the suite's one run a cell, not
# the 13 or more the default precision target adds (what is tested is the
# check and the build, not the figure; precision: core.bats, intervals.bats).
fb_run() { # extra args... (a fresh run folder each time)
    rm -rf "$W/out"
    run "$FLAGBENCH" run --suite "$W/suite.json" --cache "$CACHE" --no-render --precision 0 --no-counters -o "$W/out" "$@"
}

cell() { # id -> "status<TAB>reason"
    jq -r --arg id "$1" '.cells[] | select(.id == $id) | [.status, (.reason // "")] | @tsv' "$W/out/results.json"
}

@test "same_as: the wrong variant's first difference is named by byte offset and line; the rest ok" {
    family_json '{"same_as": "good"}'
    fb_run
    [ "$status" -eq 1 ]
    [ "$(cell 'lines/good@gcc/-O2/default')" = "ok	" ]
    [ "$(cell 'lines/multi@gcc/-O2/default')" = "ok	" ]
    run cell 'lines/bad@gcc/-O2/default'
    [ "$status" -eq 0 ]
    [[ "$output" == wrong_output*"differs from good at byte 1888 (line 500): expected \"500\", got \"0\""* ]]
    jqr '.families.lines.check == "same_as"' "$W/out/results.json"
    # a stream of a declared check is measured as bytes: the verified size
    jqr '.cells[] | select(.id == "lines/good@gcc/-O2/default") | .bytes == 588895' "$W/out/results.json"
}

@test "same_as: a shorter output is named by where it ends" {
    family_json '{"same_as": "good"}'
    sed 's/i <= n;/i < n;/' "$F/good.c" > "$F/bad.c"
    fb_run
    run cell 'lines/bad@gcc/-O2/default'
    [ "$status" -eq 0 ]
    [[ "$output" == wrong_output*"output ends at byte 588888 (line 100000)"* ]]
}

@test "--family-dir takes a family folder, or a folder of them, and runs all its variants" {
    family_json '{"same_as": "good"}'
    jq 'del(.family_dirs) | .variants = ["yes/simple"]' "$W/suite.json" > "$W/s2.json"
    run "$FLAGBENCH" run --suite "$W/s2.json" --family-dir "$F" --cache "$CACHE" --no-render --precision 0 --no-counters \
        --only 'lines/*' -o "$W/out"
    [ "$status" -eq 1 ]
    [ "$(cell 'lines/multi@gcc/-O2/default')" = "ok	" ]
    rm -rf "$W/out"
    run "$FLAGBENCH" run --suite "$W/s2.json" --family-dir "$W/fams" --cache "$CACHE" --no-render --precision 0 --no-counters \
        --only 'lines/good*' -o "$W/out"
    [ "$status" -eq 0 ]
    [ "$(cell 'lines/good@gcc/-O2/default')" = "ok	" ]
}

@test "sha256: the right digest passes, a wrong one names both, a size without one is unsupported" {
    good=$(seq 1 100000 | sha256sum | cut -d' ' -f1)
    family_json "{\"sha256\": {\"100000\": \"$good\"}}"
    fb_run
    [ "$(cell 'lines/good@gcc/-O2/default')" = "ok	" ]
    run cell 'lines/bad@gcc/-O2/default'
    [ "$status" -eq 0 ]
    [[ "$output" == wrong_output*"sha256 of the output (588893 bytes) is "*", expected $good"* ]]
    family_json "{\"sha256\": {\"7\": \"$good\"}}"
    fb_run
    run cell 'lines/good@gcc/-O2/default'
    [ "$status" -eq 0 ]
    [[ "$output" == unsupported*"no digest for N=100000"* ]]
}

@test "command: exit 0 passes, else stderr's first line is the reason; missing or crashing is a status" {
    printf '#!/bin/sh\n[ "$(seq 1 "$1" | md5sum)" = "$(md5sum)" ] || { echo "not the lines 1..$1" >&2; echo more >&2; exit 1; }\n' \
        > "$F/check.sh"
    chmod +x "$F/check.sh"
    family_json '{"command": ["./check.sh", "{N}"]}'
    fb_run
    [ "$(cell 'lines/good@gcc/-O2/default')" = "ok	" ]
    run cell 'lines/bad@gcc/-O2/default'
    [ "$status" -eq 0 ]
    [[ "$output" == wrong_output*"exited 1: not the lines 1..100000" ]]
    printf '#!/bin/sh\nkill -SEGV $$\n' > "$F/check.sh"
    fb_run
    run cell 'lines/good@gcc/-O2/default'
    [ "$status" -eq 0 ]
    [[ "$output" == unsupported*"the check could not run"*"SIGSEGV"* ]]
    family_json '{"command": ["./no-such-check", "{N}"]}'
    fb_run
    run cell 'lines/good@gcc/-O2/default'
    [ "$status" -eq 0 ]
    [[ "$output" == unsupported*"the check could not run"*"no-such-check"* ]]
}

@test "check none: runs, and every table marks the cells unchecked" {
    family_json '"none"'
    fb_run
    [ "$status" -eq 0 ]
    [ "$(cell 'lines/bad@gcc/-O2/default')" = "ok	" ]
    run "$FLAGBENCH" tables "$W/out"
    [ "$status" -eq 0 ]
    [[ "$output" == *"¶ unchecked"* ]]
    echo "$output" | grep -E '^bad .*¶'
    run "$FLAGBENCH" tables "$W/out" --format csv
    [ "$status" -eq 0 ]
    echo "$output" | grep -E '^"lines",.*"bad",.*¶'
}

@test "bad input: no family.json, an empty variant folder, unknown placeholders, '..' paths, unknown same_as" {
    family_json '{"same_as": "good"}'
    run "$FLAGBENCH" run --suite "$W/suite.json" --family-dir "$W" --dry-run -o "$W/out"
    [ "$status" -eq 2 ]
    [[ "$output" == *"$W: no family.json there nor in its subfolders"* ]]
    run "$FLAGBENCH" run --suite "$W/suite.json" --family-dir "$W/nothing" --dry-run -o "$W/out"
    [ "$status" -eq 2 ]
    [[ "$output" == *"family folder $W/nothing"* ]]

    mkdir "$F/empty"
    jq '.variants += [{"name": "empty"}]' "$F/family.json" > "$F/f" && mv "$F/f" "$F/family.json"
    fb_run --dry-run
    [ "$status" -eq 2 ]
    [[ "$output" == *"family.json:"[0-9]*:[0-9]*": variants[3].name: the variant folder $F/empty holds no C or C++ file (.c .cc .cpp .cxx .C)"* ]]

    family_json '{"command": ["./check.sh", "{N}", "{size}"]}'
    fb_run --dry-run
    [ "$status" -eq 2 ]
    [[ "$output" == *"family.json:6:"[0-9]*": check.command[2]: unknown placeholder '{size}'"* ]]

    family_json '{"command": ["../check.sh"]}'
    fb_run --dry-run
    [ "$status" -eq 2 ]
    [[ "$output" == *"check.command[0]: '../check.sh' leaves the family folder"* ]]

    family_json '"none"'
    jq '.include_dirs = ["inc/../../x"]' "$F/family.json" > "$F/f" && mv "$F/f" "$F/family.json"
    fb_run --dry-run
    [ "$status" -eq 2 ]
    [[ "$output" == *"family.json:"[0-9]*:[0-9]*": include_dirs[0]: 'inc/../../x' leaves the family folder"* ]]

    family_json '{"same_as": "best"}'
    fb_run --dry-run
    [ "$status" -eq 2 ]
    [[ "$output" == *"check.same_as: 'best' is not one of the family's variants"* ]]

    family_json '{"sha256": {"10": "abc"}}'
    fb_run --dry-run
    [ "$status" -eq 2 ]
    [[ "$output" == *"check.sha256.10: must be a SHA-256 as 64 hex digits"* ]]
}

@test "a family name seen twice is an error" {
    family_json '"none"'
    cp -r "$F" "$W/fams/lines2"
    fb_run --dry-run
    [ "$status" -eq 2 ]
    [[ "$output" == *"family 'lines' is also defined in"* ]]
}

@test "new family: a skeleton that runs as it is; an existing folder is refused" {
    cd "$BATS_TEST_TMPDIR"
    run "$FLAGBENCH" new family mine
    [ "$status" -eq 0 ]
    [ -f mine/family.json ]
    [ -f mine/simple.c ]
    jq '.variants = ["mine/*"] | del(.family_dirs) | .sizes = {"mine": 1000}' "$W/suite.json" > s.json
    run "$FLAGBENCH" run --suite s.json --family-dir mine --cache "$CACHE" --no-render --precision 0 --no-counters -o out
    [ "$status" -eq 0 ]
    jqr '[.cells[] | select(.family == "mine") | .status] == ["ok"]' out/results.json
    run "$FLAGBENCH" new family mine
    [ "$status" -eq 2 ]
    [[ "$output" == *"mine already exists"* ]]
    run "$FLAGBENCH" new family 'Bad Name'
    [ "$status" -eq 2 ]
}

@test "new family: stream or compute, one line on each; --kind stream writes a stream family that runs as it is" {
    cd "$BATS_TEST_TMPDIR"
    # no terminal to ask on: compute, said with the two lines
    run "$FLAGBENCH" new family calc </dev/null
    [ "$status" -eq 0 ]
    [[ "$output" == *"a compute family (--kind stream for the other)"* ]]
    [[ "$output" == *"stream:  its output timed as it flows into a pipe; reports bytes of output per second (a compressor writing to stdout)"* ]]
    [[ "$output" == *"compute: whole runs timed; reports N, its unit of work, per second (a compressor timed over a whole file, a sort)"* ]]
    jqr '.kind == "compute"' calc/family.json
    run "$FLAGBENCH" new family flow --kind stream
    [ "$status" -eq 0 ]
    [[ "$output" == *"(a stream family)"* ]]
    jqr '.kind == "stream" and .unit == "lines"' flow/family.json
    jq '.variants = ["flow/*"] | del(.family_dirs) | .sizes = {"flow": 1000}' "$W/suite.json" > s.json
    run "$FLAGBENCH" run --suite s.json --family-dir flow --cache "$CACHE" --no-render --precision 0 -o out
    [ "$status" -eq 0 ]
    jqr '[.cells[] | select(.family == "flow") | .status] == ["ok"] and .families.flow.kind == "stream"' out/results.json
    run "$FLAGBENCH" new family other --kind batch
    [ "$status" -eq 2 ]
    [[ "$output" == *"--kind must be stream or compute, not 'batch'"* ]]
}

# a compute family that reads a file: args with {input} and {N}, the input
# made by a command of the family (or shipped with it)
input_family() { # input-json
    R="$W/fams/sum"
    mkdir -p "$R"
    cat > "$R/family.json" <<J
{"family": "sum", "kind": "compute", "unit": "lines", "default_size": 2000,
 "input": $1, "args": ["-f", "{input}", "{N}"], "check": {"same_as": "a"}, "baseline": "a",
 "variants": [{"name": "a"}, {"name": "twice", "source": "a.c", "defines": ["TWICE"]}]}
J
    printf '#!/bin/sh\nseq 1 "$1"\n' > "$R/gen.sh"
    chmod +x "$R/gen.sh"
    cat > "$R/a.c" <<'C'
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
	if (argc != 4 || strcmp(argv[1], "-f"))
		return 2;
	FILE *f = fopen(argv[2], "r");
	unsigned long s = 0, x;
	while (f && fscanf(f, "%lu", &x) == 1)
		s += x;
#ifdef TWICE
	s *= 2;
#endif
	printf("%lu %s\n", s, argv[3]);
	return f ? 0 : 2;
}
C
    jq '.variants = ["sum/*"] | .sizes = {}' "$W/suite.json" > "$W/sum.json"
}

@test "args with {input} and {N}: the input made by the family's command once per size, or shipped" {
    family_json '"none"'
    input_family '{"command": ["./gen.sh", "{N}"]}'
    run "$FLAGBENCH" run --suite "$W/sum.json" --cache "$CACHE" --no-render --precision 0 --no-counters -o "$W/out"
    [ "$status" -eq 1 ]
    [ "$(cell 'sum/a@gcc/-O2/default')" = "ok	" ]
    run cell 'sum/twice@gcc/-O2/default'
    [ "$status" -eq 0 ]
    [[ "$output" == wrong_output*'differs from a at byte 0 (line 1): expected "2001000 2000", got "4002000 2000"'* ]]
    jqr '.cells[0].argv[2] == "2000" and (.cells[0].argv[1] | startswith("'"$CACHE"'/inputs/"))' "$W/out/results.json"
    # a shipped file; and a generator that fails leaves the cells unsupported with its reason
    seq 1 10 > "$R/ten.txt"
    input_family '{"file": "ten.txt"}'
    seq 1 10 > "$R/ten.txt"
    rm -rf "$W/out"
    run "$FLAGBENCH" run --suite "$W/sum.json" --cache "$CACHE" --no-render --precision 0 --no-counters -o "$W/out"
    [ "$status" -eq 1 ]
    jqr --arg f "$R/ten.txt" '.cells[0].argv[1] == $f and .cells[0].status == "ok"' "$W/out/results.json"
    input_family '{"command": ["./gen.sh", "{N}"]}'
    printf '#!/bin/sh\necho "no corpus today" >&2\nexit 3\n' > "$R/gen.sh"
    rm -rf "$W/out"
    run "$FLAGBENCH" run --suite "$W/sum.json" --cache "$CACHE" --no-render --precision 0 --no-counters -o "$W/out"
    [ "$status" -eq 1 ]
    run cell 'sum/a@gcc/-O2/default'
    [ "$status" -eq 0 ]
    [[ "$output" == unsupported*"input command $R/gen.sh exited 3: no corpus today" ]]
}

@test "an input command's file is one for every copy of the family: an edited copy's unchanged programs keep their argv" {
    family_json '"none"'
    input_family '{"command": ["./gen.sh", "{N}"]}'
    # the copy elsewhere, edited (a new file: its family hash differs), as a user's next version of a project is
    mkdir -p "$W/copy/fams"
    cp -a "$R" "$W/copy/fams/sum"
    echo "a note" > "$W/copy/fams/sum/NOTES"
    jq '.family_dirs = ["fams"]' "$W/sum.json" > "$W/copy/sum.json"
    for s in "$W/sum.json" "$W/copy/sum.json"; do
        run "$FLAGBENCH" run --suite "$s" --cache "$CACHE" --no-render --precision 0 --no-counters --only 'sum/a@*' \
            -o "$(dirname "$s")/one"
        [ "$status" -eq 0 ]
    done
    a=$(jq -r '.cells[0].argv[1]' "$W/one/results.json")
    b=$(jq -r '.cells[0].argv[1]' "$W/copy/one/results.json")
    [[ "$a" == "$CACHE/inputs/"* ]]
    [ "$a" = "$b" ]
    # the two families hash apart, and compare takes the same binary with the same argv as the same program
    [ "$(jq -r '.families.sum.hash' "$W/one/results.json")" != "$(jq -r '.families.sum.hash' "$W/copy/one/results.json")" ]
    run "$FLAGBENCH" compare "$W/one" "$W/copy/one" --json-out "$W/cmp.json"
    [ "$status" -le 1 ]
    jqr '.cells | length == 1 and .[0].same_program == true' "$W/cmp.json"
}

@test "bad input: an unknown placeholder in args, {input} without an input, a missing shipped input" {
    family_json '"none"'
    input_family '{"command": ["./gen.sh", "{N}"]}'
    jq '.args = ["{input}", "{size}"]' "$R/family.json" > "$R/f" && mv "$R/f" "$R/family.json"
    run "$FLAGBENCH" run --suite "$W/sum.json" --dry-run -o "$W/out"
    [ "$status" -eq 2 ]
    [[ "$output" == *"sum/family.json:"[0-9]*:[0-9]*": args[1]: unknown placeholder '{size}'"* ]]
    jq '.args = ["{input}"] | del(.input)' "$R/family.json" > "$R/f" && mv "$R/f" "$R/family.json"
    run "$FLAGBENCH" run --suite "$W/sum.json" --dry-run -o "$W/out"
    [ "$status" -eq 2 ]
    [[ "$output" == *"args[0]: unknown placeholder '{input}'"* ]]
    jq '.input = {"file": "none.txt"}' "$R/family.json" > "$R/f" && mv "$R/f" "$R/family.json"
    run "$FLAGBENCH" run --suite "$W/sum.json" --dry-run -o "$W/out"
    [ "$status" -eq 2 ]
    [[ "$output" == *"input.file: cannot read $R/none.txt"* ]]
}

@test "build command: the Makefile example builds in a private copy per cell and runs ok" {
    jq '.variants = ["mix/*"] | del(.family_dirs) | .sizes = {"mix": 100000}' "$W/suite.json" > "$W/mix.json"
    cp -r "$REPO/examples/families/mix" "$W/mix"
    run "$FLAGBENCH" run --suite "$W/mix.json" --family-dir "$W/mix" --cache "$CACHE" --no-render --precision 0 --no-counters -o "$W/out"
    [ "$status" -eq 0 ]
    jqr '[.cells[] | select(.family == "mix") | .status] == ["ok", "ok"]' "$W/out/results.json"
    # nothing was built in the family's own folder
    [ ! -e "$W/mix/mix" ]
    [ ! -e "$W/mix/main.o" ]
    # the whole tree is in the cache key: an edited header rebuilds
    run "$FLAGBENCH" run --suite "$W/mix.json" --family-dir "$W/mix" --cache "$CACHE" --no-render --precision 0 --no-counters -o "$W/out2"
    [ "$status" -eq 0 ]
    [[ "$output" == *"built 0, cached 2"* ]]
    echo '/* edited */' >> "$W/mix/mix.h"
    run "$FLAGBENCH" run --suite "$W/mix.json" --family-dir "$W/mix" --cache "$CACHE" --no-render --precision 0 --no-counters -o "$W/out3"
    [ "$status" -eq 0 ]
    [[ "$output" == *"built 2, cached 0"* ]]
}

@test "build command: failing, hanging or writing no binary is build_failed with the reason" {
    jq '.variants = ["mix/*"] | del(.family_dirs) | .sizes = {"mix": 1000}' "$W/suite.json" > "$W/mix.json"
    cp -r "$REPO/examples/families/mix" "$W/mix"
    jq '.build.binary = "{src}/nothing"' "$W/mix/family.json" > "$W/f" && mv "$W/f" "$W/mix/family.json"
    run "$FLAGBENCH" run --suite "$W/mix.json" --family-dir "$W/mix" --cache "$CACHE" --no-render --precision 0 -o "$W/out"
    [ "$status" -eq 1 ]
    run jq -r '.cells[] | select(.family == "mix") | .reason' "$W/out/results.json"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "build command exited 0 but wrote no binary "*"/nothing" ]]
    printf 'mix:\n\t@echo "error: no rule for this" >&2; exit 1\n' > "$W/mix/Makefile"
    jq '.build.binary = "{src}/mix"' "$W/mix/family.json" > "$W/f" && mv "$W/f" "$W/mix/family.json"
    rm -rf "$W/out"
    run "$FLAGBENCH" run --suite "$W/mix.json" --family-dir "$W/mix" --cache "$CACHE" --no-render --precision 0 -o "$W/out"
    [ "$status" -eq 1 ]
    run jq -r '.cells[] | select(.family == "mix") | .status + ": " + .reason' "$W/out/results.json"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "build_failed: build command exited 2: error: no rule for this"* ]]
    refute grep -qF "sources fetched" <<<"${lines[0]}"
    # a source package's family whose version file is not there: the sources were never fetched, and the reason says so
    jq '.version_file = "upstream/VERSION"' "$W/mix/family.json" > "$W/f" && mv "$W/f" "$W/mix/family.json"
    rm -rf "$W/out"
    run "$FLAGBENCH" run --suite "$W/mix.json" --family-dir "$W/mix" --cache "$CACHE" --no-render --precision 0 -o "$W/out"
    [ "$status" -eq 1 ]
    run jq -r '.cells[] | select(.family == "mix") | .reason' "$W/out/results.json"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "build command exited 2: error: no rule for this"*"(/"*"/mix/upstream/VERSION is missing: are the family's sources fetched? scripts/project-sources.sh fetches the projects families')" ]]
    jq 'del(.version_file)' "$W/mix/family.json" > "$W/f" && mv "$W/f" "$W/mix/family.json"
    jq '.build.command = ["sleep", "30"]' "$W/mix/family.json" > "$W/f" && mv "$W/f" "$W/mix/family.json"
    rm -rf "$W/out"
    run "$FLAGBENCH" run --suite "$W/mix.json" --family-dir "$W/mix" --cache "$CACHE" --no-render --precision 0 --build-timeout 1 -o "$W/out"
    [ "$status" -eq 1 ]
    run jq -r '.cells[] | select(.family == "mix") | .status + ": " + .reason' "$W/out/results.json"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "build_failed: build command timed out after 1s"* ]]
}

@test "bad input: build placeholders and a binary outside the built tree" {
    cp -r "$REPO/examples/families/mix" "$W/mix"
    jq '.build.command += ["OPT={opt}"]' "$W/mix/family.json" > "$W/f" && mv "$W/f" "$W/mix/family.json"
    run "$FLAGBENCH" run --suite "$W/suite.json" --family-dir "$W/mix" --dry-run -o "$W/out"
    [ "$status" -eq 2 ]
    [[ "$output" == *"mix/family.json:"[0-9]*:[0-9]*": build.command[7]: unknown placeholder '{opt}'"* ]]
    cp "$REPO/examples/families/mix/family.json" "$W/mix/"
    jq '.build.binary = "{src}/../mix"' "$W/mix/family.json" > "$W/f" && mv "$W/f" "$W/mix/family.json"
    run "$FLAGBENCH" run --suite "$W/suite.json" --family-dir "$W/mix" --dry-run -o "$W/out"
    [ "$status" -eq 2 ]
    [[ "$output" == *"build.binary: '../mix' leaves the family folder"* ]]
}
