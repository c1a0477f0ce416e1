#!/bin/sh
# prepare.sh SRC DEST (run by scripts/project-sources.sh): from the unpacked Debian
# source package simdjson in SRC, the amalgamation that simdjson is shipped as
# (singleheader/simdjson.cpp and simdjson.h, checked into the source) and the
# licence, into DEST.  Only these files: DEST is copied and hashed for every
# build (the source tree with its test data is 8 MB).
set -eu
src=$1
dest=$2
[ -f "$src/singleheader/simdjson.cpp" ] && [ -f "$src/singleheader/simdjson.h" ] || {
    echo "flagbench: $src has no singleheader/simdjson.cpp and simdjson.h" >&2; exit 1; }
mkdir -p "$dest"
cp "$src/singleheader/simdjson.cpp" "$src/singleheader/simdjson.h" "$src/LICENSE" "$dest/"
