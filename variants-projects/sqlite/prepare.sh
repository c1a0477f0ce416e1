#!/bin/sh
# prepare.sh SRC DEST (run by scripts/project-sources.sh): from the unpacked Debian
# source package sqlite3 in SRC, the amalgamation that SQLite is shipped and built
# as: sqlite3.c (one file of about 244,000 lines) and sqlite3.h, made by the
# source's own `./configure && make sqlite3.c` (tclsh runs tool/mksqlite3c.tcl),
# with the benchmark driver test/speedtest1.c and the licence, into DEST.  Only
# these files: DEST is copied and hashed for every build (the whole source tree
# with its documentation is 146 MB).
set -eu
src=$(cd "$1" && pwd)
dest=$2
command -v tclsh >/dev/null || { echo "flagbench: making sqlite3.c needs tclsh (Debian's tcl)" >&2; exit 1; }
bld=$(mktemp -d "${TMPDIR:-/tmp}/flagbench-sqlite.XXXXXX")
trap 'rm -rf "$bld"' EXIT
(cd "$bld" && "$src/configure" --disable-tcl >configure.log 2>&1 && make sqlite3.c >make.log 2>&1) || {
    tail -n 5 "$bld/configure.log" "$bld/make.log" 2>/dev/null >&2
    echo "flagbench: make sqlite3.c failed in $bld" >&2
    exit 1
}
mkdir -p "$dest/test"
cp "$bld/sqlite3.c" "$bld/sqlite3.h" "$dest/"
cp "$src/test/speedtest1.c" "$dest/test/"
cp "$src/LICENSE.md" "$dest/"
