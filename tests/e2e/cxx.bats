#!/usr/bin/env bats
# C++ (issue 47): a .cpp variant and a folder mixing C and C++ build and
# link with each compiler's C++ driver (g++, clang++ run as clang++); a
# compiler without its C++ driver leaves the C++ cells unsupported, naming
# the Debian package, while its C cells run; a family's own build gets
# {cxx} and {cxxflags} (the variant's defines in them) and runs its steps
# in order, a failing step named in the reason; try takes a .cpp file.

load helpers
bats_require_minimum_version 1.5.0

setup() {
    T="$BATS_TEST_TMPDIR"
    cp -r "$REPO/tests/fixtures/cxx" "$T/fam"
    echo '{"name": "t", "variants": ["sorts/*"], "compilers": ["gcc", "clang"], "opt": ["-O2"], "march": ["default"], "runs": 1, "warmup": 0, "family_dirs": ["'"$T/fam"'"]}' \
        > "$T/suite.json"
}

@test "cxx: a .cpp variant and a mixed C/C++ folder build with g++ and clang++, every cell ok and said to be C++" {
    run "$FLAGBENCH" run --suite "$T/suite.json" --cache "$T/cache" --no-render --no-counters -o "$T/out"
    [ "$status" -eq 0 ]
    r="$T/out/results.json"
    [ "$(jq '.cells | length' "$r")" -eq 6 ]
    jqr '[.cells[] | .status] | all(. == "ok")' "$r"
    jqr '[.cells[] | select(.variant == "plain") | [.config, .language, .compiler]] == [["gcc/-O2/default", "c", "gcc"], ["clang/-O2/default", "c", "clang"]]' "$r"
    jqr '[.cells[] | select(.variant == "vec") | [.config, .language]] == [["g++/-O2/default", "c++"], ["clang++/-O2/default", "c++"]]' "$r"
    jqr '[.cells[] | select(.variant == "mixed") | .compiler] == ["g++", "clang++"]' "$r"
    # clang++ runs as clang++ (by the name on PATH), not as the clang binary it links to
    jqr '[.cells[] | select(.compiler == "clang++") | .driver | endswith("/clang++")] == [true, true]' "$r"
    # the C++ drivers' versions are among the run's tools
    jqr '.tools | has("g++") and has("clang++")' "$r"
}

@test "cxx: a PATH whose gcc has no g++ beside it: the C++ cells unsupported naming the package, the C cells ok" {
    mkdir -p "$T/bin"
    ln -s "$(command -v gcc)" "$T/bin/gcc"
    ln -s "$(command -v clang)" "$T/bin/clang"
    ln -s "$(command -v clang++)" "$T/bin/clang++"
    PATH="$T/bin:$PATH" run "$FLAGBENCH" run --suite "$T/suite.json" --cache "$T/cache" --no-render --no-counters -o "$T/out"
    [ "$status" -eq 0 ]
    r="$T/out/results.json"
    [ "$(jq '[.cells[] | select(.compiler == "g++")] | length' "$r")" -eq 2 ]
    jqr '[.cells[] | select(.compiler == "g++") | .status] | all(. == "unsupported")' "$r"
    jqr '[.cells[] | select(.compiler == "g++") | .reason] | length == 2 and all(test("C\\+\\+ driver g\\+\\+ not found beside .*/bin/gcc: install the Debian package g\\+\\+$"))' "$r"
    jqr '[.cells[] | select(.compiler != "g++") | .status] == ["ok", "ok", "ok", "ok"]' "$r"
}

@test "cxx: a family's own build gets {cxx} and {cxxflags} with the defines; a failing second step is the reason" {
    echo '{"name": "s", "variants": ["steps/*"], "compilers": ["gcc"], "opt": ["-O2"], "march": ["default"], "runs": 1, "warmup": 0, "family_dirs": ["'"$T/fam"'"]}' \
        > "$T/steps.json"
    run "$FLAGBENCH" run --suite "$T/steps.json" --cache "$T/cache" --no-render --no-counters -o "$T/out"
    [ "$status" -eq 0 ]
    jqr '[.cells[] | [.id, .status, .language]] == [["steps/defined@g++/-O2/default", "ok", "c++"]]' "$T/out/results.json"
    # the step's words: the C++ driver and the define
    grep -q -- "CXX=$(command -v g++) CXXFLAGS=-O2 -DANSWER=42" "$T"/cache/*/*/command
    jq '.build.commands[1] = ["make", "-s", "-C", "{src}", "nosuchtarget"]' "$T/fam/steps/family.json" > "$T/f.json"
    mv "$T/f.json" "$T/fam/steps/family.json"
    run "$FLAGBENCH" run --suite "$T/steps.json" --cache "$T/cache" --no-render --no-counters -o "$T/out2"
    [ "$status" -eq 1 ]
    jqr '.cells[0].status == "build_failed"' "$T/out2/results.json"
    # make says make[N] under an outer make (make test)
    jqr '.cells[0].reason | test("^build step 2 of 2 exited 2: make(\\[[0-9]+\\])?: \\*\\*\\* No rule to make target")' "$T/out2/results.json"
}

@test "cxx: family \"std\" reaches the C++ variants only; a bad one is a config error" {
    jq '.std = "c++17"' "$T/fam/sorts/family.json" > "$T/f.json"
    rm -r "$T/fam/sorts/mixed"
    jq '.variants |= map(select(.name != "mixed"))' "$T/f.json" > "$T/fam/sorts/family.json"
    run "$FLAGBENCH" run --suite "$T/suite.json" --dry-run --no-render -o "$T/out"
    [ "$status" -eq 0 ]
    jqr '[.cells[] | select(.variant == "vec") | .cflags[-1]] == ["-std=c++17", "-std=c++17"]' "$T/out/results.json"
    jqr '[.cells[] | select(.variant == "plain") | .cflags | index("-std=c++17")] == [null, null]' "$T/out/results.json"
    jq '.std = "python3"' "$T/fam/sorts/family.json" > "$T/f.json"
    mv "$T/f.json" "$T/fam/sorts/family.json"
    run "$FLAGBENCH" run --suite "$T/suite.json" --dry-run --no-render -o "$T/out3"
    [ "$status" -eq 2 ]
    [[ "$output" == *"family.json:"*"std: 'python3' is not a language standard"* ]]
}

@test "cxx: try FILE.cpp builds with the C++ drivers" {
    echo '{"name": "t", "variants": ["yes/simple"], "compilers": ["gcc", "clang"], "opt": ["-O2"], "march": ["default"], "runs": 1, "warmup": 0}' \
        > "$T/try.json"
    run "$FLAGBENCH" try "$T/fam/sorts/vec.cpp" --suite "$T/try.json" --cache "$T/cache" --args 1000 --runs 1 --no-render --no-counters -o "$T/out"
    [ "$status" -eq 0 ]
    jqr '[.cells[] | [.config, .status]] == [["g++/-O2/default", "ok"], ["clang++/-O2/default", "ok"]]' "$T/out/results.json"
    run "$FLAGBENCH" try "$T/fam/sorts/family.json" --suite "$T/try.json"
    [ "$status" -eq 2 ]
    [[ "$output" == *"try needs one C or C++ file"* ]]
}
