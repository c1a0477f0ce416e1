#!/usr/bin/env bats
# The compute families (chacha20, bignum) end to end: every variant built
# with gcc and clang as the harness builds it (the matrix flags plus its
# requires_flags), run at sizes around the block and interleave edges, and
# proven by `flagbench check`; usage errors; each installed allocator
# preloaded under the bignum variants; a missing allocator explained.

load helpers
bats_require_minimum_version 1.5.0

CHACHA_SIZES="0 1 63 64 65 511 513 4103 1048579"

# the variants of a family as "name<TAB>requires_flags<TAB>requires_cpu"
# (those for another -march, the RISC-V vector ones, are in riscv.bats)
variants_of() {
    jq -r '.variants[] | select((.requires_march // []) | length == 0) | [.name, ((.requires_flags // []) | join(" ")), ((.requires_cpu // []) | join(" "))] | @tsv' \
        "$REPO/variants/$1/family.json"
}

host_has() { # cpu flags...
    local f
    for f in "$@"; do
        grep -m1 '^flags' /proc/cpuinfo | grep -qw -- "$f" || return 1
    done
}

setup_file() {
    export BIN="$BATS_FILE_TMPDIR/bin"
    mkdir -p "$BIN"
    local jobs fam name flags cpus cc cfg tag libs n=0 v=0 ci
    jobs=$(nproc 2>/dev/null || echo 2)
    # -O2 also with -std=c11 -Wall -Wextra -Werror: variants must build clean
    for fam in chacha20 bignum; do
        libs=""
        [ "$fam" = bignum ] && libs="-lgmp"
        while IFS=$'\t' read -r name flags cpus; do
            v=$((v + 1))
            # built everywhere (building needs no such cpu); only run where the cpu has it
            if [ -n "$cpus" ] && ! host_has $cpus; then
                echo "host lacks $cpus: built, not run" > "$BIN/$fam-$name.norun"
            fi
            for cc in gcc clang; do
                if ! command -v "$cc" >/dev/null; then
                    echo "$cc is not installed (scripts/deps.sh installs it)" > "$BIN/$cc.missing"
                    continue
                fi
                for cfg in "O2:-O2 -std=c11 -Wall -Wextra -Werror" "O3:-O3" "O3v3:-O3 -march=x86-64-v3" \
                           "O3native:-O3 -march=native"; do
                    tag=${cfg%%:*}
                    # the fast tier: the strict build and -O3; make test-slow adds the -march builds
                    slow_tier || [ "$tag" = O2 ] || [ "$tag" = O3 ] || continue
                    # the fast tier builds chacha20's -O3 with one compiler a variant, in turn
                    # (gcc for multiblock, which a test below runs; the strict -O2 build with
                    # both: their warnings differ); make test-slow with both
                    ci=0; [ "$cc" = gcc ] || ci=1
                    slow_tier || [ "$fam" != chacha20 ] || [ "$tag" != O3 ] || [ $(((v + ci) % 2)) -eq 0 ] || continue
                    # bignum does not depend on -march: two builds are enough
                    [ "$fam" = bignum ] && [ "$tag" != O2 ] && [ "$tag" != O3 ] && continue
                    # shellcheck disable=SC2086
                    ( $cc ${cfg#*:} $flags -o "$BIN/$fam-$name-$cc-$tag" "$REPO/variants/$fam/$name.c" $libs \
                        > "$BIN/$fam-$name-$cc-$tag.log" 2>&1 ) &
                    n=$((n + 1))
                    [ $((n % jobs)) -eq 0 ] && wait
                done
            done
        done < <(variants_of "$fam")
    done
    wait
    # the allocator lookup, as the harness calls it
    cat > "$BATS_FILE_TMPDIR/alloc.c" <<'EOF'
#include <stdio.h>
#include "allocators.h"
int main(int argc, char **argv)
{
	char why[1024];
	if (argc != 2)
		return 2;
	const char *lib = allocator_library(argv[1], why, sizeof(why));
	if (!lib) {
		fprintf(stderr, "%s\n", why);
		return 1;
	}
	printf("%s\n", lib);
	return 0;
}
EOF
    cc -std=c11 -Wall -Wextra -Werror -I"$REPO/harness" -I"$REPO/harness/core" -I"$REPO/harness/system" -o "$BIN/alloc" "$BATS_FILE_TMPDIR/alloc.c" \
        "$REPO/harness/system/allocators.c"
}

# Every build of a variant: built, and right at every size; failures are
# collected so one run shows them all.
check_variant() { # family variant sizes...
    local fam="$1" name="$2" bin log n out built=0 bad="" norun=""
    shift 2
    [ -f "$BIN/$fam-$name.norun" ] && norun=$(cat "$BIN/$fam-$name.norun")
    for log in "$BIN/$fam-$name"-*.log; do
        bin="${log%.log}"
        if [ ! -x "$bin" ]; then
            bad="$bad
build failed: ${bin##*/}: $(head -5 "$log")"
            continue
        fi
        if [ -s "$log" ]; then
            bad="$bad
compiler output for ${bin##*/}: $(head -5 "$log")"
        fi
        built=$((built + 1))
        # -march=x86-64-v3 code needs AVX2 to run
        [ -n "$norun" ] && continue
        [[ "$bin" == *-O3v3 ]] && ! host_has avx2 && continue
        for n in "$@"; do
            if [ "$fam" = chacha20 ]; then
                out=$("$bin" "$n" | "$CHECKER" check chacha20 "$n" 2>&1) ||
                    bad="$bad
${bin##*/} $n: $out"
            else
                out=$("$bin" "$n" "$name" | "$CHECKER" check bignum "$n" "$name" 2>&1) ||
                    bad="$bad
${bin##*/} $n $name: $out"
            fi
        done
    done
    [ "$built" -gt 0 ] || bad="$bad
no builds of $fam/$name"
    if [ -n "$bad" ]; then
        echo "$bad"
        return 1
    fi
    # every build is proven to compile clean; say what could not be run or built
    [ -z "$norun" ] || skip "$fam/$name: $norun"
    for cc in gcc clang; do
        [ ! -f "$BIN/$cc.missing" ] || skip "$(cat "$BIN/$cc.missing"): only the other compiler's builds are proven"
    done
}

@test "chacha20/ref: every build passes the checker at every size" {
    check_variant chacha20 ref $CHACHA_SIZES
}

@test "chacha20/rotate: every build passes the checker at every size" {
    check_variant chacha20 rotate $CHACHA_SIZES
}

@test "chacha20/simd: every build passes the checker at every size" {
    check_variant chacha20 simd $CHACHA_SIZES
}

@test "chacha20/multiblock: every build (4, 8 and 16 lanes) passes the checker at every size" {
    check_variant chacha20 multiblock $CHACHA_SIZES 1023 1025 16383 16385
}

@test "chacha20/multiblock_avx2: every build passes the checker at every size" {
    check_variant chacha20 multiblock_avx2 $CHACHA_SIZES 16385
}

@test "chacha20/multiblock_avx512: every build passes the checker at every size" {
    check_variant chacha20 multiblock_avx512 $CHACHA_SIZES 1023 1025 16385
}

@test "chacha20: every variant prints the same digest, and the default size is 64 MiB" {
    local want got bin
    want=$("$BIN/chacha20-ref-gcc-O2" 1048579)
    for bin in "$BIN"/chacha20-*-O3; do
        name=${bin#"$BIN"/chacha20-}
        [ ! -f "$BIN/chacha20-${name%-*-O3}.norun" ] || continue # built, but this cpu cannot run it
        got=$("$bin" 1048579)
        [ "$got" = "$want" ] || { echo "${bin##*/}: $got"; return 1; }
    done
    run "$BIN/chacha20-multiblock-gcc-O3"
    [ "$status" -eq 0 ]
    [ "$output" = "$("$BIN/chacha20-multiblock-gcc-O3" 67108864)" ]
    [ "${#output}" -eq 287 ]
}

@test "chacha20: a bad argument gets usage on stderr and exit 2" {
    local bin arg
    for bin in "$BIN"/chacha20-*-gcc-O2; do
        for arg in x -1 12x "" 274877906881 99999999999999999999999; do
            run --separate-stderr "$bin" "$arg"
            if [ "$status" -ne 2 ] || [ -n "$output" ] || [[ "$stderr" != usage:* ]]; then
                echo "${bin##*/} '$arg': status $status, stdout '$output', stderr '$stderr'"
                return 1
            fi
        done
        run --separate-stderr "$bin" 1 2
        [ "$status" -eq 2 ]
    done
    # one past the largest size: the counter would wrap
    run "$FLAGBENCH" check chacha20 274877906881 < /dev/null
    [ "$status" -eq 2 ]
    [[ "$output" == *"counter would wrap"* ]]
}

@test "chacha20: the checker names the word that differs" {
    run bash -c "'$BIN/chacha20-ref-gcc-O2' 1000 | sed 's/^\(.\{20\}\)./\1z/' | '$FLAGBENCH' check chacha20 1000"
    [ "$status" -eq 1 ]
    [[ "$output" == *"digest word 2 (sum[2]) differs at byte 20: expected "* ]]
    run bash -c "'$BIN/chacha20-ref-gcc-O2' 1000 | '$FLAGBENCH' check chacha20 1001"
    [ "$status" -eq 1 ]
    run bash -c "'$BIN/chacha20-ref-gcc-O2' 1000 | '$FLAGBENCH' check chacha20 1000 extra"
    [ "$status" -eq 2 ]
}

@test "bignum/fp_mul: every build passes the checker" {
    check_variant bignum fp_mul 0 1 2 1000 100000
}

@test "bignum/ec_mul: every build passes the checker" {
    check_variant bignum ec_mul 0 1 3 20
}

@test "bignum: the operation argument is optional for the variant, required by the checker" {
    [ "$("$BIN/bignum-fp_mul-gcc-O2" 100)" = "$("$BIN/bignum-fp_mul-gcc-O2" 100 fp_mul)" ]
    local a
    for a in "5 ec_mul" "x" "5 fp_mul x" "-3"; do
        # shellcheck disable=SC2086
        run --separate-stderr "$BIN/bignum-fp_mul-gcc-O2" $a
        if [ "$status" -ne 2 ] || [ -n "$output" ] || [[ "$stderr" != usage:* ]]; then
            echo "fp_mul '$a': status $status, stdout '$output', stderr '$stderr'"
            return 1
        fi
    done
    run --separate-stderr "$BIN/bignum-ec_mul-gcc-O2" 5 fp_mul
    [ "$status" -eq 2 ]
    run bash -c "'$BIN/bignum-ec_mul-gcc-O2' 3 | '$FLAGBENCH' check bignum 3"
    [ "$status" -eq 2 ]
    [[ "$output" == *"operation after N is missing"* ]]
    run bash -c "'$BIN/bignum-ec_mul-gcc-O2' 3 | '$FLAGBENCH' check bignum 3 fp_mul"
    [ "$status" -eq 1 ]
}

@test "bignum: every installed allocator, preloaded, serves GMP and keeps the output right" {
    local alloc lib found=0 missing=""
    for alloc in glibc mimalloc jemalloc tcmalloc; do
        if ! lib=$("$BIN/alloc" "$alloc" 2>"$BATS_TEST_TMPDIR/why"); then
            missing="$missing; $(cat "$BATS_TEST_TMPDIR/why")"
            continue
        fi
        # glibc is always there: only a preloaded library counts as found
        [ -z "$lib" ] || found=$((found + 1))
        run bash -c "LD_PRELOAD='$lib' '$BIN/bignum-fp_mul-gcc-O2' 20000 fp_mul | '$FLAGBENCH' check bignum 20000 fp_mul"
        [ "$status" -eq 0 ] || { echo "$alloc fp_mul: $output"; return 1; }
        run bash -c "LD_PRELOAD='$lib' '$BIN/bignum-ec_mul-clang-O3' 3 ec_mul | '$FLAGBENCH' check bignum 3 ec_mul"
        [ "$status" -eq 0 ] || { echo "$alloc ec_mul: $output"; return 1; }
        if [ -n "$lib" ]; then
            # the dynamic linker binds GMP's malloc to the preloaded library
            LD_PRELOAD="$lib" LD_DEBUG=bindings "$BIN/bignum-fp_mul-gcc-O2" 1 2>"$BATS_TEST_TMPDIR/bind" >/dev/null
            grep -E "binding file [^ ]*libgmp[^ ]* .* to ${lib//./\\.} .*symbol .malloc'" "$BATS_TEST_TMPDIR/bind" ||
                { echo "$alloc: libgmp's malloc is not bound to $lib"; grep libgmp "$BATS_TEST_TMPDIR/bind" | head; return 1; }
        fi
    done
    [ "$found" -ge 1 ] || skip "no allocator library installed${missing} (scripts/deps.sh installs them)"
    [ -z "$missing" ] || skip "tested $found allocators; not installed${missing}"
}

@test "allocators: a missing or unknown allocator gets a clear reason" {
    mkdir -p "$BATS_TEST_TMPDIR/empty"
    FLAGBENCH_ALLOCATOR_DIRS="$BATS_TEST_TMPDIR/empty" run --separate-stderr "$BIN/alloc" mimalloc
    [ "$status" -eq 1 ]
    [ "$stderr" = "mimalloc: libmimalloc.so.2 not found in $BATS_TEST_TMPDIR/empty: install libmimalloc2.0" ]
    FLAGBENCH_ALLOCATOR_DIRS="$BATS_TEST_TMPDIR/empty" run --separate-stderr "$BIN/alloc" tcmalloc
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"libtcmalloc_minimal.so.4 or libtcmalloc.so.4 not found"*"install libtcmalloc-minimal4" ]]
    run --separate-stderr "$BIN/alloc" hoard
    [ "$status" -eq 1 ]
    [[ "$stderr" == "unknown allocator 'hoard': known are glibc, mimalloc, jemalloc, tcmalloc"* ]]
    run "$BIN/alloc" glibc
    [ "$status" -eq 0 ]
    [ -z "$output" ]
}
