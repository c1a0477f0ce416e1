#!/bin/sh
# check.sh VARIANT N: speedtest1's output on stdin must have the verification
# hash of expected/VARIANT-N.txt.  --verify hashes every result row of every
# query but the values of floating-point ones (speedtest1 leaves those out, so
# the hash is the same for every compiler and flag); the timing lines differ
# from run to run and are not compared.
want="expected/$1-$2.txt"
[ -f "$want" ] || { echo "no expected verification hash for $1 at N=$2 ($want)" >&2; exit 2; }
got=$(grep '^Verification Hash: ')
[ -n "$got" ] || { echo "no Verification Hash line in the output of $1 $2" >&2; exit 1; }
[ "$got" = "$(cat "$want")" ] || { echo "the verification hash of $1 $2 differs from $want ($got)" >&2; exit 1; }
