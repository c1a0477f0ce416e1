#!/bin/sh
# gen.sh N: N bytes of a fixed, compressible text corpus (records with numbers and words)
exec awk -v n="$1" 'BEGIN {
    split("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda", w, " ")
    for (i = 1; total < n; i++) {
        line = sprintf("%08d %s %s %d.%03d %s\n", i, w[i % 11 + 1], w[(i * 7) % 11 + 1], (i * 7919) % 100000, i % 1000, w[(i * 13) % 11 + 1])
        if (total + length(line) > n) line = substr(line, 1, n - total)
        printf "%s", line
        total += length(line)
    }
}'
