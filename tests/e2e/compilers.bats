#!/usr/bin/env bats
# Compiler versions and flag sets (issue 13): globs, a missing version, a
# flag the compiler rejects, PGO's two phases with gcc and clang, .text sizes.

load helpers

setup_file() {
    export CACHE="$BATS_FILE_TMPDIR/cache"
}

@test "compiler globs expand to every NAME-VERSION on PATH, in version order" {
    bin="$BATS_TEST_TMPDIR/bin"
    mkdir -p "$bin"
    for n in fbcc-2 fbcc-10 fbcc-9 fbcc-ar-2 fbcc-x; do
        printf '#!/bin/sh\necho "fbcc (fake) %s"\n' "$n" > "$bin/$n"
        chmod +x "$bin/$n"
    done
    root="$BATS_TEST_TMPDIR/root"
    make_vecloop_root "$root"
    cat > "$root/configs/suites/globs.json" <<'J'
{"name": "globs", "variants": ["vecloop/dot"], "compilers": ["fbcc-*", "nosuchcc-*"], "opt": ["-O2"],
 "march": ["default"], "runs": 1, "warmup": 0}
J
    PATH="$bin:$PATH" FLAGBENCH_ROOT="$root" run "$FLAGBENCH" run --suite globs --dry-run --out "$BATS_TEST_TMPDIR/r"
    [ "$status" -eq 0 ]
    r="$BATS_TEST_TMPDIR/r/results.json"
    [ "$(jq -c '[.cells[].compiler]' "$r")" = '["fbcc-2","fbcc-9","fbcc-10"]' ]
    jqr '.tools["fbcc-10"] == "fbcc (fake) fbcc-10"' "$r"
    jqr '.run.warnings | any(contains("nosuchcc-*"))' "$r"
}

@test "a missing compiler version makes its cells unsupported, naming the package" {
    root="$BATS_TEST_TMPDIR/root"
    make_vecloop_root "$root"
    cat > "$root/configs/suites/missing.json" <<'J'
{"name": "missing", "variants": ["vecloop/dot"], "compilers": ["gcc", "clang-99", "gcc-98"], "opt": ["-O2"],
 "march": ["default"], "runs": 1, "warmup": 0}
J
    FLAGBENCH_ROOT="$root" run "$FLAGBENCH" run --suite missing --dry-run --out "$BATS_TEST_TMPDIR/r"
    [ "$status" -eq 0 ]
    r="$BATS_TEST_TMPDIR/r/results.json"
    why() { jq -r --arg id "$1" '.cells[] | select(.id == $id) | .status + ": " + .reason' "$r"; }
    [[ "$(why vecloop/dot@clang-99/-O2/default)" == "unsupported: "*"install the Debian package clang-99"* ]]
    [[ "$(why vecloop/dot@gcc-98/-O2/default)" == "unsupported: "*"install the Debian package gcc-98"* ]]
    jqr '.cells[] | select(.id == "vecloop/dot@gcc/-O2/default") | .status == "ok"' "$r"
}

@test "flag sets: the name joins id and config; a rejected flag is build_failed with the compiler's message" {
    root="$BATS_TEST_TMPDIR/root"
    make_vecloop_root "$root"
    cat > "$root/configs/suites/sets.json" <<'J'
{"name": "sets", "variants": ["broken/good"], "compilers": ["gcc"], "opt": ["-O2"], "march": ["default"],
 "flags": {"base": [], "bad": ["-fno-such-flag-flagbench"], "unroll": ["-funroll-loops"]},
 "sizes": {"broken": 1000}, "runs": 1, "warmup": 0}
J
    FLAGBENCH_ROOT="$root" run "$FLAGBENCH" run --suite sets --out "$BATS_TEST_TMPDIR/r" --cache "$CACHE" --precision 0
    [ "$status" -eq 1 ]
    r="$BATS_TEST_TMPDIR/r/results.json"
    [ "$(jq -c '[.cells[] | [.id, .config, .flags, .status]]' "$r")" = \
      '[["broken/good@gcc/-O2/default/base","gcc/-O2/default/base","base","ok"],["broken/good@gcc/-O2/default/bad","gcc/-O2/default/bad","bad","build_failed"],["broken/good@gcc/-O2/default/unroll","gcc/-O2/default/unroll","unroll","ok"]]' ]
    jqr '.cells[] | select(.flags == "bad") | .reason | contains("-fno-such-flag-flagbench")' "$r"
    jqr '.cells[] | select(.flags == "unroll") | .cflags == ["-O2", "-funroll-loops"]' "$r"
    jqr '([.cells[] | select(.status == "ok")] | length > 0) and all(.cells[] | select(.status == "ok"); .text_bytes > 0 and .pgo == null)' "$r"
}

@test "pgo: instrumented build, training run, (clang) merge, build with the profile" {
    command -v clang >/dev/null || skip "clang not installed"
    major=$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
    command -v "llvm-profdata-$major" >/dev/null || skip "llvm-profdata-$major not installed (scripts/deps.sh compilers)"
    root="$BATS_TEST_TMPDIR/root"
    make_vecloop_root "$root"
    cat > "$root/configs/suites/pgo.json" <<'J'
{"name": "pgo", "variants": ["vecloop/dot"], "compilers": ["gcc", "clang"], "opt": ["-O2"], "march": ["default"],
 "flags": {"base": [], "pgo": "pgo"}, "sizes": {"vecloop": 300}, "runs": 1, "warmup": 0}
J
    FLAGBENCH_ROOT="$root" run "$FLAGBENCH" run --suite pgo --out "$BATS_TEST_TMPDIR/r" --cache "$CACHE" --no-counters --precision 0
    [ "$status" -eq 0 ]
    r="$BATS_TEST_TMPDIR/r/results.json"
    jqr '[.cells[] | select(.status == "ok")] | length == 4' "$r"
    # the training run at the family's train_size is recorded, not measured as the cell
    jqr '([.cells[] | select(.flags == "pgo")] | length > 0) and all(.cells[] | select(.flags == "pgo"); .pgo.train_size == 100 and .pgo.train_s > 0 and .size == 300)' "$r"
    for cc in gcc clang; do
        base=$(jq -r --arg c "$cc" '.cells[] | select(.compiler == $c and .flags == "base") | .binary.sha256' "$r")
        pgo=$(jq -r --arg c "$cc" '.cells[] | select(.compiler == $c and .flags == "pgo") | .binary.sha256' "$r")
        [ -n "$pgo" ]
        [ "$pgo" != "$base" ]
    done
    # phase one left its profile in the cache entry: gcc's .gcda, clang's merged .profdata
    [ -n "$(find "$CACHE" -path '*/pgo/*.gcda' | head -1)" ]
    [ -n "$(find "$CACHE" -path '*/pgo/train.profdata' | head -1)" ]
    # a second run finds both phases in the cache
    FLAGBENCH_ROOT="$root" run "$FLAGBENCH" run --suite pgo --out "$BATS_TEST_TMPDIR/r2" --cache "$CACHE" --no-counters --precision 0
    [ "$status" -eq 0 ]
    [[ "$output" == *"built 0, cached 4, failed 0"* ]]
    # a cached profiled build still reports its training time
    jqr '([.cells[] | select(.flags == "pgo")] | length > 0) and all(.cells[] | select(.flags == "pgo"); .pgo.train_s > 0)' "$BATS_TEST_TMPDIR/r2/results.json"
}

@test "a malformed flags object exits 2 naming the place" {
    root="$BATS_TEST_TMPDIR/root"
    make_vecloop_root "$root"
    printf '{"name": "x", "variants": ["vecloop/*"], "compilers": ["gcc"], "opt": ["-O2"],\n "flags": {"base": [], "lto": "flto"}}\n' \
        > "$root/configs/suites/badflags.json"
    FLAGBENCH_ROOT="$root" run "$FLAGBENCH" run --suite badflags --dry-run --out "$BATS_TEST_TMPDIR/r"
    [ "$status" -eq 2 ]
    [[ "$output" == *"badflags.json:2:"*"flags.lto: must be a list of flags, or the string \"pgo\""* ]]
}
