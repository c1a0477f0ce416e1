#!/bin/sh
# roundtrip.sh N: the compressed stream on stdin, decompressed by the system's
# lz4, must be the corpus of size N again
got=$(lz4 -dc | sha256sum) || { echo "lz4 -d failed on the output" >&2; exit 1; }
want=$(./gen.sh "$1" | sha256sum)
[ "$got" = "$want" ] || { echo "the round trip differs from the corpus of $1 bytes" >&2; exit 1; }
