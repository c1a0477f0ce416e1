#!/bin/sh
# roundtrip.sh N: the compressed stream on stdin, decompressed by the system's
# zstd, must be the corpus of size N again
got=$(zstd -dcq | sha256sum) || { echo "zstd -d failed on the output" >&2; exit 1; }
want=$(./gen.sh "$1" | sha256sum)
[ "$got" = "$want" ] || { echo "the round trip differs from the corpus of $1 bytes" >&2; exit 1; }
