#!/bin/sh
# check.sh VARIANT N: the output on stdin must be expected/VARIANT-N.txt (the
# outputs of the reference sizes; fib, n-body, spectral-norm and binary-trees
# match the published values of these classic benchmarks)
want="expected/$1-$2.txt"
[ -f "$want" ] || { echo "no expected output for $1 at N=$2 ($want)" >&2; exit 2; }
cmp -s - "$want" || { echo "the output of $1 $2 differs from $want" >&2; exit 1; }
