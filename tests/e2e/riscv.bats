#!/usr/bin/env bats
# RISC-V cells end to end (issue 15): the RVV variants built with clang-16
# for rv64gcv and proven by the checker under qemu-riscv64; a small seed001
# -like run whose emulated cells carry qemu's instruction counts in the
# fields callgrind fills for native cells; and the message when the cross
# tools are missing.  Tests that need the cross tools skip with the reason
# (scripts/deps.sh riscv installs them).

load helpers
bats_require_minimum_version 1.5.0

QEMU_CPU="rv64,v=true,vlen=128,vext_spec=v1.0"
RVV_SIZES="0 1 63 64 65 127 129 255 257 4103 65537"

have_riscv_tools() {
    local t
    for t in clang-16 riscv64-linux-gnu-gcc qemu-riscv64; do
        command -v "$t" >/dev/null || { echo "$t"; return 1; }
    done
    [ -d /usr/riscv64-linux-gnu/lib ] || { echo "libc6-dev-riscv64-cross"; return 1; }
}

need_riscv_tools() {
    local missing
    missing=$(have_riscv_tools) || skip "$missing not installed (scripts/deps.sh riscv)"
}

# the rvv variants' names, from family.json
rvv_variants() {
    jq -r '.variants[] | select((.requires_march // []) | any(test("^rv"))) | .name' \
        "$REPO/variants/chacha20/family.json"
}

@test "family.json: the rvv variants are listed and limited to a vector -march" {
    run rvv_variants
    [ "$status" -eq 0 ]
    [ "$(echo "$output" | sort | tr '\n' ' ')" = "rvv_grouped rvv_lmul2 rvv_naive " ]
}

@test "rvv variants: each rv64gcv build passes the checker at sizes around the block edges" {
    need_riscv_tools
    local name bin n out bad=""
    for name in $(rvv_variants); do
        bin="$BATS_TEST_TMPDIR/$name"
        if ! out=$(clang-16 --target=riscv64-linux-gnu -march=rv64gcv -O3 -std=c11 -Wall -Wextra -Werror \
                -o "$bin" "$REPO/variants/chacha20/$name.c" 2>&1); then
            bad="$bad
build failed: $name: $out"
            continue
        fi
        for n in $RVV_SIZES; do
            out=$(qemu-riscv64 -L /usr/riscv64-linux-gnu -cpu "$QEMU_CPU" "$bin" "$n" |
                "$FLAGBENCH" check chacha20 "$n" 2>&1) || bad="$bad
$name $n: $out"
        done
    done
    [ -z "$bad" ] || { echo "$bad"; return 1; }
}

@test "rvv variants: a build without the V extension stops at the preprocessor with the reason" {
    command -v clang-16 >/dev/null || skip "clang-16 not installed (scripts/deps.sh riscv)"
    run clang-16 --target=riscv64-linux-gnu -march=rv64gc -O2 -fsyntax-only "$REPO/variants/chacha20/rvv_grouped.c"
    [ "$status" -ne 0 ]
    [[ "$output" == *"vector"* ]]
}

# A project root with the chacha20 family and a seed001-like suite: ref and
# rvv_grouped natively (x86) and cross-built for rv64gc and rv64gcv, at 4 KiB.
make_riscv_root() {
    local root="$1"
    mkdir -p "$root/configs/suites" "$root/variants"
    cp -r "$REPO/configs/cpus" "$root/configs/"
    cp -r "$REPO/variants/chacha20" "$root/variants/"
    cat > "$root/configs/suites/rv.json" <<EOF
{
  "name": "rv",
  "variants": ["chacha20/ref", "chacha20/rvv_grouped"],
  "compilers": ["gcc"],
  "opt": ["-O2"],
  "march": ["x86-64"],
  "sizes": {"chacha20": 4096},
  "runs": 1,
  "warmup": 0,
  "cross": [
    {"compiler": "clang-16", "cflags": ["--target=riscv64-linux-gnu"], "march": ["rv64gc", "rv64gcv"],
     "run_prefix": ["qemu-riscv64", "-L", "/usr/riscv64-linux-gnu", "-cpu", "$QEMU_CPU"],
     "packages": "clang-16 gcc-riscv64-linux-gnu libc6-dev-riscv64-cross qemu-user"}
  ]
}
EOF
}

@test "emulated cells are counted by qemu in callgrind's fields; rvv cells only on a vector -march" {
    need_riscv_tools
    local root="$BATS_TEST_TMPDIR/root" out="$BATS_TEST_TMPDIR/run"
    make_riscv_root "$root"
    FLAGBENCH_ROOT="$root" run "$FLAGBENCH" run --suite rv --out "$out" --cooldown 0 --only "*@clang-16/*"
    echo "$output"
    [ "$status" -eq 0 ]
    local r="$out/results.json"
    # every ok emulated cell: qemu's count, per byte, at a small size
    jqr '[.cells[] | select(.emulated and .status == "ok")] | length == 3' "$r"
    jqr '[.cells[] | select(.emulated and .status == "ok") | .counters
          | select(.source == "qemu" and .unit == "byte" and .size == 4096 and .cycles_per_unit == null
                   and .instructions_per_unit > 5 and .instructions_per_unit < 200)] | length == 3' "$r"
    # deterministic figures: vectors need fewer instructions than scalar ref here
    jqr '([.cells[] | select(.id == "chacha20/rvv_grouped@clang-16/-O2/rv64gcv")][0].counters.instructions_per_unit)
         < ([.cells[] | select(.id == "chacha20/ref@clang-16/-O2/rv64gc")][0].counters.instructions_per_unit)' "$r"
    # rvv elsewhere: unsupported with the reason
    jqr '.cells[] | select(.id == "chacha20/rvv_grouped@clang-16/-O2/rv64gc")
         | .status == "unsupported" and (.reason | test("needs a -march matching rv64\\*v\\*"))' "$r"
    # the seed001 table: counted rows with the seed's figures beside them
    run "$REPO/scripts/seed001-table.sh" "$out"
    [ "$status" -eq 0 ]
    [[ "$output" == *"## clang-16 (emulated under qemu: ranked by instructions)"* ]]
    [[ "$output" == *"| rvv_grouped | rv64gcv | "*" | 73833 | 0.515 | 0.315 |"* ]]
    [[ "$output" == *"| ref | rv64gc | "*" | 1 | 143409 | 1 | 1 |"* ]]
    [[ "$output" == *"- rvv_grouped (rv64gc): unsupported: rvv_grouped needs a -march matching rv64*v*"* ]]
}

@test "without qemu-riscv64 the cross cells are unsupported, naming the package, and the run says so; rvv on x86 too" {
    local root="$BATS_TEST_TMPDIR/root" bin="$BATS_TEST_TMPDIR/bin" t
    make_riscv_root "$root"
    # a PATH with the compilers (where installed) but no emulator
    mkdir -p "$bin"
    for t in gcc cc clang-16 riscv64-linux-gnu-gcc; do
        if command -v "$t" >/dev/null; then ln -s "$(command -v "$t")" "$bin/$t"; fi
    done
    run --separate-stderr env PATH="$bin" FLAGBENCH_ROOT="$root" "$FLAGBENCH" run --suite rv --dry-run \
        --out "$BATS_TEST_TMPDIR/run"
    echo "$output"
    echo "$stderr"
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"cross target clang-16:"*"qemu-riscv64"*"install clang-16 gcc-riscv64-linux-gnu libc6-dev-riscv64-cross qemu-user"* ]]
    local r="$BATS_TEST_TMPDIR/run/results.json"
    jqr '[.cells[] | select(.emulated)] | length == 4' "$r"
    jqr '[.cells[] | select(.emulated) | select(.status == "unsupported" and (.reason | test("qemu-riscv64.*qemu-user")))]
         | length == 4' "$r"
    # and the rvv variants on x86: unsupported with the reason
    jqr '.cells[] | select(.id == "chacha20/rvv_grouped@gcc/-O2/x86-64")
         | .status == "unsupported" and (.reason | test("needs a -march matching rv64\\*v\\*, not x86-64"))' "$r"
}

@test "without the cross C library the cross cells are unsupported, naming the packages" {
    command -v clang-16 >/dev/null || skip "clang-16 not installed (scripts/deps.sh riscv)"
    local root="$BATS_TEST_TMPDIR/root" r="$BATS_TEST_TMPDIR/run/results.json"
    make_riscv_root "$root"
    # a sysroot without headers stands for a machine without libc6-dev-riscv64-cross
    sed -i 's|"--target=riscv64-linux-gnu"|"--target=riscv64-linux-gnu", "--sysroot=/nonexistent"|' \
        "$root/configs/suites/rv.json"
    FLAGBENCH_ROOT="$root" run "$FLAGBENCH" run --suite rv --out "$BATS_TEST_TMPDIR/run" --only "*rv64gcv"
    echo "$output"
    [ "$status" -eq 1 ] # no cell is ok
    jqr '[.cells[] | select(.emulated and .status == "unsupported")
          | select(.reason | test("clang-16 cannot build C here with -march=rv64gcv: .*stdio.h.*install clang-16 .*libc6-dev-riscv64-cross"))]
         | length == 2' "$r"
}
