#!/usr/bin/env bash
# Issue 47's "every command" on C++, as a user with C++ code runs them:
#   ranks      a family of .cpp files (examples/families/cmake-cxx's ranks.cpp
#              as each variant's source, the variant's define USE_MAP)
#   cmake-cxx  the CMake project of examples/families/ (configure, then build)
# Each through: run (g++ and clang++ at -O2 and -O3), tune (a budget of a few
# candidates), explain (g++ -O2 against -O3), compare --confirm against a
# second run in which the sorted variant's code changed (std::stable_sort
# for std::sort; the mapped cells are the same programs: the controls), and
# for ranks `flagbench try ranks.cpp`.  Prints one line per command: its
# exit status, its time, its cells' statuses and its answer line.
# Usage: bench/cxx-commands.sh   (KEEP=DIR keeps the folders there)
set -euo pipefail
cd "$(dirname "$0")/.."
make -s build/flagbench build/flagbench-meter
fb=$PWD/build/flagbench
. bench/lib/bench.sh
dir=$(bench_dir cxx)
for t in g++ clang++ cmake; do
    command -v "$t" >/dev/null || { echo "cxx-commands: $t is not installed (scripts/deps.sh test)" >&2; exit 2; }
done
mkdir -p "$dir/base/ranks" "$dir/base/cmake-cxx"
cp examples/families/cmake-cxx/ranks.cpp "$dir/base/ranks/"
cat >"$dir/base/ranks/family.json" <<'J'
{"family": "ranks", "title": "ranks: C++ sources, no build system", "kind": "compute", "unit": "values",
 "default_size": 200000, "check": {"same_as": "sorted"}, "baseline": "sorted",
 "variants": [{"name": "sorted", "source": "ranks.cpp"},
              {"name": "mapped", "source": "ranks.cpp", "defines": ["USE_MAP"]}]}
J
cp -a examples/families/cmake-cxx/. "$dir/base/cmake-cxx/"
cp -a "$dir/base" "$dir/new"
# the change compare must find: the sorted variant's code, in both families
sed -i 's/std::sort(/std::stable_sort(/' "$dir/new/ranks/ranks.cpp" "$dir/new/cmake-cxx/ranks.cpp"

elapsed() { echo "$1 $EPOCHREALTIME" | awk '{ printf "%.0f", $2 - $1 }'; }
step() { # NAME LOG CMD...: runs CMD, prints its status and time
    local name=$1 log=$2 t=$EPOCHREALTIME rc=0
    shift 2
    "$@" >"$log" 2>&1 || rc=$?
    printf '%-28s exit %d in %4s s' "$name" "$rc" "$(elapsed "$t")"
}
cells() { # RESULTS: "N cells: STATUS..." of a results.json
    jq -r '"\(.cells | length) cells: \([.cells[] | .status] | group_by(.) | map("\(length) \(.[0])") | join(", "))"' "$1"
}
for fam in ranks cmake-cxx; do
    echo "== $fam ($([ "$fam" = ranks ] && echo "a family of .cpp files" || echo "a CMake project"))"
    cat >"$dir/$fam.json" <<J
{"name": "cxx-$fam", "variants": ["$fam/*"], "compilers": ["gcc", "clang"], "opt": ["-O2", "-O3"],
 "march": ["default"], "runs": 10, "sizes": {"$fam": 200000}}
J
    for side in base new; do
        step "run ($side)" "$dir/$fam-$side.log" "$fb" run --suite "$dir/$fam.json" --family-dir "$dir/$side/$fam" \
            --cache "$dir/cache" --no-render -o "$dir/$fam-$side"
        echo ": $(cells "$dir/$fam-$side/results.json"); $(jq -r '[.cells[] | .compiler] | unique | join(" ")' "$dir/$fam-$side/results.json")"
    done
    step "tune $fam/sorted (g++)" "$dir/$fam-tune.log" "$fb" tune "$fam/sorted" --compiler gcc \
        --family-dir "$dir/base/$fam" --march default --budget 4 --batch 2 --screen-runs 3 --confirm-runs 6 \
        --cache "$dir/cache" --no-render -o "$dir/$fam-tune"
    echo ": $(jq -r '"\(.candidates | length) candidates, answer \(.answer.cflags // "-") (better: \(.answer.better))"' "$dir/$fam-tune/results.json" 2>/dev/null || echo "no results")"
    step "explain g++ -O2 vs -O3" "$dir/$fam-explain.log" "$fb" explain "$dir/$fam-base" \
        "$fam/sorted@g++/-O2/default" "$fam/sorted@g++/-O3/default" --budget 3m --cache "$dir/cache" -o "$dir/$fam-explain"
    echo ": $(grep -m1 -E '^\*\*Answer|not faster|B is' "$dir/$fam-explain.log" | cut -c1-160)"
    step "compare --confirm 10" "$dir/$fam-compare.log" "$fb" compare "$dir/$fam-base" "$dir/$fam-new" --confirm 10 \
        --json-out "$dir/$fam-compare.json"
    echo ": $(jq -r '"machine \(.machine.shift // "-" | tostring | .[0:5])x from \(.machine.controls) controls; " + ([.cells[] | select(.control | not) | "\(.id | sub(".*@"; "")) \(.verdict) \(.ratio // "-" | tostring | .[0:5])x"] | join(", "))' "$dir/$fam-compare.json")"
done
echo "== try"
step "try ranks.cpp" "$dir/try.log" "$fb" try "$dir/base/ranks/ranks.cpp" --args "{N}" --size 200000 --unit values \
    --compilers gcc,clang --opt -O2,-O3 --march default --cache "$dir/cache" --no-render -o "$dir/try"
echo ": $(cells "$dir/try/results.json"); $(jq -r '[.cells[] | "\(.compiler)/\(.opt)"] | join(" ")' "$dir/try/results.json")"
echo "cxx-commands: folders and logs in $dir"
