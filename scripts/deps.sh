#!/usr/bin/env bash
# The one dependency step of flagbench, used by ./run.sh and `make test`:
# installs the Debian packages that are missing and says what it does.
# usage: scripts/deps.sh [run|test|compilers]   (test adds what only the tests need)
set -u
want_run="gcc clang make pkg-config hyperfine jq gnuplot-nox pv libjansson-dev nettle-dev libgmp-dev
          libmimalloc-dev libjemalloc-dev libgoogle-perftools-dev valgrind musl-tools"
want_test="libcmocka-dev bats bats-assert bats-support libxml2-utils chromium"
want="$want_run"
[ "${1:-run}" = test ] && want="$want_run $want_test"

# --- compilers (issue 13): every gcc and clang version the archive has, and
# the llvm-profdata and profile runtime of each clang (PGO merges profiles
# with its own version).
# Only the compilers suite needs them; apt-cache says which exist here.
# A package "exists" when it has an installation candidate (apt-cache show
# also answers for names that are only referenced).
available() { apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [^(]'; }
if [ "${1:-run}" = compilers ]; then
    want="$want_run"
    # a fresh machine may have no package lists yet: apt-cache would know nothing
    if ! available gcc; then
        s=""; [ "$(id -u)" != 0 ] && s="sudo"
        $s apt-get update -qq >&2 || echo "flagbench: apt-get update failed" >&2
    fi
    for v in 10 11 12 13 14; do
        available "gcc-$v" && want="$want gcc-$v"
    done
    for v in 11 12 13 14 15 16 17 18 19 20; do
        available "clang-$v" && available "llvm-$v" && want="$want clang-$v llvm-$v"
        # the profile runtime of -fprofile-instr-generate (in libclang-common before 16)
        available "clang-$v" && available "libclang-rt-$v-dev" && want="$want libclang-rt-$v-dev"
    done
fi
# --- end compilers

missing=""
for p in $want; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "flagbench: installing missing packages:$missing" >&2
sudo=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null; then sudo="sudo"; else
        echo "flagbench: not root and no sudo: install these yourself:$missing" >&2; exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
# An apt list older than a day may name versions the mirror no longer has.
if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null | head -1)" ]; then
    $sudo apt-get update -qq >&2 || echo "flagbench: apt-get update failed, trying the old lists" >&2
fi
# shellcheck disable=SC2086
if ! $sudo apt-get install -y -qq --no-install-recommends $missing >&2; then
    echo "flagbench: apt-get install failed for:$missing" >&2
    exit 1
fi
echo "flagbench: packages installed" >&2
