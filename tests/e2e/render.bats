#!/usr/bin/env bats
# Tables and plots from results.json alone: plots/render.sh, plots/publish.sh,
# make plots/publish, index.html in headless Chromium, `flagbench report` and
# `flagbench merge`.  The fixtures are tests/fixtures/results/*.json.

load helpers

FIX="$REPO/tests/fixtures/results"

setup_file() {
    # A folder name that would break anything that evals or splits paths.
    export FIZZ="$BATS_FILE_TMPDIR/run dir \$(touch pwned) 'q' <x>"
    export FAILED="$BATS_FILE_TMPDIR/failed"
    # a real seed004 run (bignum: ops/s) and a real placements run (reference per placement)
    export SEED4="$BATS_FILE_TMPDIR/seed004" PLACE="$BATS_FILE_TMPDIR/placements"
    # the fizzbuzz fixture with 9 runs a cell in 9 rounds (its 3 runs thrice,
    # 0.1 % apart): every ratio gets the one comparison's interval
    export ROUNDS="$BATS_FILE_TMPDIR/rounds"
    stage fizzbuzz-j4205.json "$FIZZ"
    stage failed.json "$FAILED"
    stage seed004-host.json "$SEED4"
    stage placements-host.json "$PLACE"
    mkdir -p "$ROUNDS"
    jq '.cells |= map(if (.time_s.runs | length) == 3 then .time_s.runs as $r
            | .time_s.runs = [range(0; 9) as $i | $r[$i % 3] * (1 + 0.001 * (($i / 3) | floor))]
            | .time_s.rounds = [range(0; 9)] else . end)' "$FIX/fizzbuzz-j4205.json" >"$ROUNDS/results.json"
    (cd "$BATS_FILE_TMPDIR" && "$REPO/plots/render.sh" "$FIZZ" && "$REPO/plots/render.sh" "$FAILED" &&
        "$REPO/plots/render.sh" "$SEED4" && "$REPO/plots/render.sh" "$PLACE" && "$REPO/plots/render.sh" "$ROUNDS") \
        >"$BATS_FILE_TMPDIR/setup.log" 2>&1 || { cat "$BATS_FILE_TMPDIR/setup.log" >&2; return 1; }
}

@test "render: every family gets its tables, plots and the index" {
    [ ! -e "$BATS_FILE_TMPDIR/pwned" ]
    for fam in fizzbuzz yes chacha20; do
        for t in "$fam.md" "$fam.csv" "$fam-speedup.md" "$fam-against.md" "$fam-compilers.md"; do
            [ -s "$FIZZ/tables/$t" ] || { echo "missing tables/$t"; false; }
        done
        for p in throughput heatmap speedup against compilers; do
            [ -s "$FIZZ/plots/$fam-$p.svg" ] && [ -s "$FIZZ/plots/$fam-$p.png" ] || { echo "missing $fam-$p"; false; }
        done
    done
    [ -s "$FIZZ/index.html" ]
    # nothing left behind by the renderer
    run find "$FIZZ" -mindepth 1 -name '.*'
    [ "$status" -eq 0 ]
    [ -z "$output" ]
}

@test "render: SVGs parse as XML, PNGs carry the PNG signature" {
    for d in "$FIZZ" "$FAILED" "$SEED4" "$PLACE"; do
        for f in "$d"/plots/*.svg; do
            xmllint --noout "$f"
        done
        for f in "$d"/plots/*.png; do
            [ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || { echo "not a PNG: $f"; false; }
        done
    done
}

@test "render: tables in MiB/s and GiB/s, the reference row, speedups and compiler ratios" {
    t="$FIZZ/tables"
    grep -qF '| variant | title | gcc/-O2/x86-64-v2 | gcc/-O3/x86-64-v2 | gcc/-Os/x86-64-v2 | clang/-O2/x86-64-v2 | clang/-O3/x86-64-v2 | clang/-Os/x86-64-v2 |' "$t/fizzbuzz.md"
    # simple@gcc/-O2 is an old-style cell (no ci95_percent): its interval comes from its runs all the same;
    # three runs: [min, max], whose level is 75 %, and the figures say so
    grep -qF '| simple | if/% and printf() per line | 70.0 MiB/s ±3.7% (60%) | 73.3 MiB/s ±8.8% (60%) | 67.3 MiB/s ±1.0% (60%) | 73.1 MiB/s ±3.2% (60%) | 75.1 MiB/s ±2.1% (60%) | 79.6 MiB/s ±4.9% (60%) |' "$t/fizzbuzz.md"
    grep -qF '| sse | offset 0xf6 with SSE4.1 | 6.94 GiB/s ±7.6% (60%) | 7.25 GiB/s ±5.2% (60%) | 6.52 GiB/s ±5.4% (60%) | 7.10 GiB/s ±7.0% (60%) | 7.48 GiB/s ±4.2% (60%) | 7.82 GiB/s ±2.7% (60%) † |' "$t/fizzbuzz.md"
    grep -qF '| gnu-yes (reference) | GNU yes (coreutils 9.1) | 2.23 GiB/s ±6.6% (60%) | 2.23 GiB/s ±6.6% (60%) |' "$t/yes.md"
    grep -qF "A reference row shows in each column the reference measured with that column's placement and consumer, or its one measurement in every column." "$t/yes.md"
    grep -qF '| base | reference rounds | 1.77 Mblocks/s ±0.8% (60%) | 1.88 Mblocks/s ±2.3% (60%) | 1.90 Mblocks/s ±1.0% (60%) | 1.95 Mblocks/s ±6.9% (60%) |' "$t/chacha20.md"
    # a speedup's ± combines both intervals; none against an old-style baseline, none on 1.00x
    grep -qF '| simple | if/% and printf() per line | 1.00x | 1.00x | 1.00x | 1.00x | 1.00x | 1.00x |' "$t/fizzbuzz-speedup.md"
    grep -qF '| sse | offset 0xf6 with SSE4.1 | 101.53x | 101.35x | 99.19x | 99.49x | 102.06x | 100.56x † |' "$t/fizzbuzz-speedup.md"
    # three runs per cell: no 95 % interval on either side, so no interval of a speedup
    refute grep -qF '±' "$t/fizzbuzz-speedup.md"
    refute grep -qF 'x [' "$t/fizzbuzz-speedup.md"
    grep -qF '| variant | title | -O2/x86-64-v2 | -O3/x86-64-v2 | -Os/x86-64-v2 |' "$t/fizzbuzz-compilers.md"
    grep -qF '| f6 | digits offset by 0xf6 | 1.11x | 1.13x | 0.96x |' "$t/fizzbuzz-compilers.md"
    grep -qF '| sse | offset 0xf6 with SSE4.1 | 0.98x | 0.97x | 0.83x † |' "$t/fizzbuzz-compilers.md"
    # -O3 or -O2, gcc or clang: every variant against itself built with gcc/-O2
    grep -qF '# FizzBuzz: against gcc/-O2, built with the same other flags' "$t/fizzbuzz-against.md"
    grep -qF '| f6 | digits offset by 0xf6 | 1.00x | 1.06x | 0.97x | 0.90x | 0.94x | 1.01x |' "$t/fizzbuzz-against.md"
    # CSV: a line per cell, the number in the table's unit, its interval, marks and text
    head -1 "$t/fizzbuzz.csv" | grep -qxF $'family,table,variant,title,column,status,value,unit,low,high,ci_percent,ci_level,marks,text\r'
    grep -qF '"yes","throughput","gnu-yes (reference)","GNU yes (coreutils 9.1)","clang/-O2/x86-64-v2","ok",2394444268,"bytes/s",2214872217,2531302557,6.607594593,0.6,"","2.23 GiB/s ±6.6% (60%)"' "$t/yes.csv"
    grep -qF '"fizzbuzz","throughput","simple","if/% and printf() per line","gcc/-O2/x86-64-v2","ok",73420564.4,"bytes/s",70258913.02,75691303.19,3.699501783,0.6,"","70.0 MiB/s ±3.7% (60%)"' "$t/fizzbuzz.csv"
    grep -qF ',"†","7.82 GiB/s ±2.7% (60%) †"' "$t/fizzbuzz.csv"
    grep -qF '"fizzbuzz","compilers","sse","offset 0xf6 with SSE4.1","-Os/x86-64-v2","ok",0.834056' "$t/fizzbuzz.csv"
}

@test "render: ± of every figure, † for a throttled cell, ‡ for warnings, with their legend" {
    t="$FIZZ/tables"
    # the legend says what ±, † and ‡ mean, only where the table shows them
    grep -qF "± is the half-width of the rerun interval, in percent: a rerun's figure falls inside with 95 % probability" "$t/fizzbuzz.md"
    grep -qF "(83%) after a ±: too few runs for 95 %; the interval's exact confidence is that level." "$t/fizzbuzz.md"
    grep -qF '† the CPU throttled while this cell was measured (throttled: yes): its figure may be too low.' "$t/fizzbuzz.md"
    grep -qF '‡ the cell has warnings, listed below the tables.' "$t/fizzbuzz.md"
    grep -qF '| f6 | digits offset by 0xf6 | 2.15 GiB/s ±3.5% (60%) | 2.28 GiB/s ±1.0% (60%) ‡ | 2.08 GiB/s ±8.2% (60%) | 1.94 GiB/s ±4.4% (60%) | 2.02 GiB/s ±3.1% (60%) | 2.17 GiB/s ±9.1% (60%) |' "$t/fizzbuzz.md"
    grep -qF -- '- fizzbuzz/f6@gcc/-O3/x86-64-v2: precision 0.50% not reached in 3 runs (0.96%)' "$t/fizzbuzz.md"
    # the throttle note is said by † and not listed again as a warning
    refute grep -qF -- '- fizzbuzz/sse@clang/-Os/x86-64-v2: throttled' "$t/fizzbuzz.md"
    refute grep -qF '†' "$t/yes.md"
    refute grep -qF '‡' "$t/yes.md" "$t/fizzbuzz-speedup.md"
    grep -qF '† one of the two cells compared was measured while the CPU throttled' "$t/fizzbuzz-speedup.md"
    # an old results file (no ci95_percent, no throttled): intervals from its runs, no marks
    refute grep -qE '†|‡' "$FAILED/tables/fizzbuzz.md"
    grep -qF '| simple | SIMPLE | 71.0 MiB/s ±3.7% (60%) ≡ | timeout | 71.0 MiB/s ±3.7% (60%) ≡ |' "$FAILED/tables/fizzbuzz.md"
    # index.html: the ± in grey, the marks with a tooltip, the legend under the table
    h="$FIZZ/index.html"
    grep -qF '7.82 GiB/s <span class="pm">±2.7% (60%)</span> <span class="mark" title="measured while the CPU throttled">†</span>' "$h"
    grep -qF '2.28 GiB/s <span class="pm">±1.0% (60%)</span> <span class="mark" title="has warnings (listed below)">‡</span>' "$h"
    grep -qF '<td class="num ok">70.0 MiB/s <span class="pm">±3.7% (60%)</span></td>' "$h"
    grep -qF '<p class="legend">† the CPU throttled while this cell was measured' "$h"
    # the overview first: every family's answers before any table; no raw JSON anywhere
    grep -qF '<h2 id="overview">Answers</h2>' "$h"
    [ "$(grep -n 'id="overview"' "$h" | cut -d: -f1)" -lt "$(grep -n 'id="fam-' "$h" | head -1 | cut -d: -f1)" ]
    refute grep -qF '<pre>{' "$h"
    refute grep -qE '<td>\{&quot;' "$h"
    # the answer first, in words
    grep -qF '<li>fizzbuzz/sse: clang/-Os/x86-64-v2 fastest, 1.05x the runner-up clang/-O3/x86-64-v2 (no interval to tell), 1.20x the slowest gcc/-Os/x86-64-v2</li>' "$h"
    grep -qF '101.35x</td>' "$h"
    # the heatmap labels carry them too
    grep -qF '7.82 GiB/s ±2.7% (60%) †' "$FIZZ/plots/fizzbuzz-heatmap.svg"
    grep -qF '2.28 GiB/s ±1.0% (60%) ‡' "$FIZZ/plots/fizzbuzz-heatmap.svg"
}

@test "render: a family counted in operations shows usec/op (seed004: bignum under four allocators)" {
    t="$SEED4/tables"
    grep -qF '## GMP mpz on secp256k1: field and curve arithmetic that allocates per operation (bignum): time per operation (usec/op, lower is faster), median' "$t/bignum.md"
    grep -qF 'Microseconds per operation (usec/op: 10^6 divided by the ops/s), from the median of the timed runs, lower is faster.' "$t/bignum.md"
    grep -qF '| fp_mul | field multiplication mod 2^256 - 2^32 - 977 | 0.130 usec/op ±9.7% (83.3%) | 0.108 usec/op ±8.0% (83.3%) | 0.102 usec/op ±8.5% (83.3%) † | 0.101 usec/op ±6.5% (83.3%) |' "$t/bignum.md"
    # ec_mul@tcmalloc has two runs only: no interval, so no ± (ci95_percent is 0 there)
    grep -qF '| ec_mul | scalar multiplication k*G (Jacobian double-and-add) | 589.211 usec/op ±7.6% (83.3%) | 525.996 usec/op ±15.9% (83.3%) ‡ | 473.717 usec/op ±4.2% (83.3%) | 408.678 usec/op |' "$t/bignum.md"
    refute grep -qE 'ops/s \||Mops' "$t/bignum.md"
    # speedups keep their meaning (rates); tiny ones keep three significant digits
    grep -qF '| ec_mul | scalar multiplication k*G (Jacobian double-and-add) | 0.000221x | 0.000205x | 0.000215x † | 0.000247x |' "$t/bignum-speedup.md"
    grep -qF '| fp_mul | field multiplication mod 2^256 - 2^32 - 977 | 1.00x | 1.00x | 1.00x | 1.00x |' "$t/bignum-speedup.md"
    grep -qF '"bignum","throughput","ec_mul","scalar multiplication k*G (Jacobian double-and-add)","gcc/-O2/default/glibc","ok",1697.185196,"ops/s",1480.806782,1738.260923,7.584739189,0.8333333333,"","589.211 usec/op ±7.6% (83.3%)"' "$t/bignum.csv"
    grep -qF '"ops/s",,,,,"","408.678 usec/op"' "$t/bignum.csv"
    # each allocator against glibc's malloc, as a table and a plot
    grep -qF '| ec_mul | scalar multiplication k*G (Jacobian double-and-add) | 1.00x | 1.12x | 1.24x | 1.44x |' "$t/bignum-vs_glibc.md"
    [ -s "$SEED4/plots/bignum-vs_glibc.svg" ]
    grep -qF 'time per operation (usec/op, lower is faster), median</h3>' "$SEED4/index.html"
    grep -qF 'usec/op (lower is faster)' "$SEED4/plots/bignum-throughput.svg"
    grep -qF '0.130 usec/op ±9.7% (83.3%)' "$SEED4/plots/bignum-heatmap.svg"
}

@test "render: a reference row follows the placement and consumer of each column" {
    t="$PLACE/tables"
    grep -qF '| buf | 8 KiB buffer + write() | 1.1 MiB/s ±1.1% (60%) | 400.2 KiB/s ±53.4% (60%) | 1.1 MiB/s ±32.5% (60%) | 500.1 KiB/s ±5.8% (60%) | 243.1 KiB/s ±192.9% (60%) | 498.9 KiB/s ±1.7% (60%) |' "$t/yes.md"
    grep -qF '| gnu-yes (reference) | GNU yes (coreutils) | 903.2 KiB/s ±21.3% (60%) | 244.4 KiB/s ±93.7% (60%) | 928.2 KiB/s ±29.0% (60%) | 501.0 KiB/s ±2.4% (60%) | 265.8 KiB/s ±104.3% (60%) | 498.0 KiB/s ±2.7% (60%) |' "$t/yes.md"
    grep -qF "A reference row shows in each column the reference measured with that column's placement and consumer" "$t/yes.md"
    run "$FLAGBENCH" report --width 0 "$PLACE"
    [ "$status" -eq 0 ]
    grep -qE '^gnu-yes \(reference\) +903\.2 KiB/s ±21\.3% \(60%\) +244\.4 KiB/s ±93\.7% \(60%\) +928\.2 KiB/s ±29\.0% \(60%\) +501\.0 KiB/s ±2\.4% \(60%\) +265\.8 KiB/s ±104\.3% \(60%\) +498\.0 KiB/s ±2\.7% \(60%\)$' <<<"$output"
}

@test "render: cells that are not ok show their status word, never 0 or blank" {
    t="$FAILED/tables"
    grep -qF '| simple | SIMPLE | 71.0 MiB/s ±3.7% (60%) ≡ | timeout | 71.0 MiB/s ±3.7% (60%) ≡ |' "$t/fizzbuzz.md"
    for st in build_failed unsupported wrong_output crashed timeout skipped; do
        grep -qE "^\| [^|]+ \| [^|]+ \| $st \| $st \| absent \|$" "$t/fizzbuzz.md" || { echo "no $st row"; false; }
    done
    # no all-n/a tables: no ratio of two measurements, no speedup or gcc/clang table
    [ ! -e "$t/fizzbuzz-speedup.md" ]
    [ ! -e "$t/fizzbuzz-compilers.md" ]
    [ ! -e "$t/dead-speedup.md" ]
    grep -qF '| x | X | build_failed | absent |' "$t/dead.md"
    [ ! -e "$FAILED/plots/dead-throughput.svg" ]
    # no empty cell and no zero in any table
    refute grep -qE '\|  \||\| 0(\.0+)?x? ' "$t"/*.md
    # reasons are listed, escaped for Markdown
    grep -qF 'fizzbuzz/simple@clang/-O2/native: timeout: &lt;script&gt;alert(1)&lt;/script&gt;' "$t/fizzbuzz.md"
    # an unsafe family name gets a safe file name
    [ -s "$t/odd_fam__.md" ]
    [ -s "$FAILED/plots/odd_fam__-throughput.svg" ]
}

@test "index.html escapes every text and loads nothing from the network" {
    for d in "$FIZZ" "$FAILED"; do
        h="$d/index.html"
        refute grep -q '<script' "$h"
        refute grep -qiE '(src|href)="[a-z]+:' "$h"
        refute grep -qi 'url(' "$h"
        # every image it shows exists
        for img in $(grep -o 'src="[^"]*"' "$h" | sed 's/^src="//; s/"$//'); do
            [ -s "$d/$img" ] || { echo "missing $img"; false; }
        done
    done
    h="$FAILED/index.html"
    grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' "$h"
    grep -qF 'remapped to 1: host has 2 cpus &lt;cpu3&gt; &amp; &quot;more&quot;' "$h"
    grep -qF 'odd_fam__-throughput.svg' "$h"
    grep -qF 'odd &lt;family&gt; &amp; &quot;quotes&quot;' "$h"
    grep -qF 'odd warning &lt;i&gt;&amp;amp;&lt;/i&gt;' "$h"
    # the run metadata: host, tools, phases, warnings
    grep -qF 'hyperfine 1.15.0' "$FIZZ/index.html"
    grep -qF 'measure_s' "$FIZZ/index.html"
    grep -qF 'Intel(R) Pentium(R) CPU J4205' "$FIZZ/index.html"
    grep -qF 'cooldown: waiting 30 s between runs' "$FIZZ/index.html"
    grep -c '<img src="plots/' "$FIZZ/index.html" | grep -qx 15
    # every text of the real runs is escaped too (pv's version has <andrew.wood@ivarch.com>)
    for d in "$SEED4" "$PLACE"; do
        refute grep -q '<andrew' "$d/index.html"
        grep -qF '&lt;andrew.wood@ivarch.com&gt;' "$d/index.html"
    done
}

@test "results.json alone renders the same files; rendering twice changes nothing" {
    copy="$BATS_TEST_TMPDIR/copy"
    stage fizzbuzz-j4205.json "$copy"
    run "$REPO/plots/render.sh" "$copy"
    [ "$status" -eq 0 ]
    diff -r "$FIZZ" "$copy"
    # a rendered folder rendered again: the real seed004 run, rendered by
    # setup_file (8 plot files to the fizzbuzz fixture's 30: a quarter the time)
    again="$BATS_TEST_TMPDIR/again"
    cp -r "$SEED4" "$again"
    run "$REPO/plots/render.sh" "$again"
    [ "$status" -eq 0 ]
    diff -r "$SEED4" "$again"
}

@test "render without gnuplot keeps the tables, names gnuplot-nox, exits 0" {
    d="$BATS_TEST_TMPDIR/nognuplot"
    stage failed.json "$d"
    # a PATH with what render.sh needs, but no gnuplot
    bin="$BATS_TEST_TMPDIR/bin"
    mkdir -p "$bin"
    for t in bash env jq dirname mktemp mkdir rm mv tail cat sed; do
        ln -s "$(command -v "$t")" "$bin/$t"
    done
    PATH="$bin" run "$bin/bash" "$REPO/plots/render.sh" "$d"
    [ "$status" -eq 0 ]
    [[ "$output" == *"gnuplot-nox"* ]]
    [ -s "$d/tables/fizzbuzz.md" ]
    [ -s "$d/index.html" ]
    [ -z "$(ls -A "$d/plots")" ]
    grep -qF 'gnuplot is not installed (Debian package gnuplot-nox)' "$d/index.html"
    cmp "$FIX/failed.json" "$d/results.json"
}

@test "render without jq skips everything with the package name, exits 0" {
    d="$BATS_TEST_TMPDIR/nojq"
    stage failed.json "$d"
    JQ=/nonexistent/jq run "$REPO/plots/render.sh" "$d"
    [ "$status" -eq 0 ]
    [[ "$output" == *"jq not found (Debian package jq)"* ]]
    [ ! -e "$d/index.html" ]
    cmp "$FIX/failed.json" "$d/results.json"
}

@test "render: bad input exits 2 with a message" {
    run "$REPO/plots/render.sh" "$BATS_TEST_TMPDIR/nowhere"
    [ "$status" -eq 2 ]
    [[ "$output" == *"no such run folder"* ]]
    mkdir -p "$BATS_TEST_TMPDIR/empty"
    run "$REPO/plots/render.sh" "$BATS_TEST_TMPDIR/empty"
    [ "$status" -eq 2 ]
    [[ "$output" == *"no results.json"* ]]
    mkdir -p "$BATS_TEST_TMPDIR/bad"
    printf '{"schema": "flagbench-results/1",\n "cells": [\n' >"$BATS_TEST_TMPDIR/bad/results.json"
    run "$REPO/plots/render.sh" "$BATS_TEST_TMPDIR/bad"
    [ "$status" -eq 2 ]
    [[ "$output" == *"/bad/results.json:3:"* ]]
    mkdir -p "$BATS_TEST_TMPDIR/other"
    echo '{"schema": "other/1", "cells": []}' >"$BATS_TEST_TMPDIR/other/results.json"
    run "$REPO/plots/render.sh" "$BATS_TEST_TMPDIR/other"
    [ "$status" -eq 2 ]
    [[ "$output" == *"not a flagbench results file"* ]]
    run "$REPO/plots/render.sh"
    [ "$status" -eq 2 ]
    [[ "$output" == *"usage"* ]]
}

@test "flagbench report: headline tables, status words, bad input exits 2" {
    run "$FLAGBENCH" report --width 0 "$FIZZ"
    [ "$status" -eq 0 ]
    [[ "$output" == *"FizzBuzz (fizzbuzz): throughput, median"* ]]
    grep -qE '^sse +6\.94 GiB/s ±7\.6% \(60%\) +7\.25 GiB/s ±5\.2% \(60%\) +6\.52 GiB/s ±5\.4% \(60%\) +7\.10 GiB/s ±7\.0% \(60%\) +7\.48 GiB/s ±4\.2% \(60%\) +7\.82 GiB/s ±2\.7% \(60%\) †$' <<<"$output"
    grep -qE '^simple +70\.0 MiB/s ±3\.7% \(60%\) +73\.3 MiB/s ±8\.8% \(60%\) ' <<<"$output"
    grep -qE '^f6 +2\.15 GiB/s ±3\.5% \(60%\) +2\.28 GiB/s ±1\.0% \(60%\) ‡ ' <<<"$output"
    grep -qE '^gnu-yes \(reference\) +2\.23 GiB/s ±6\.6% \(60%\) +2\.23 GiB/s ±6\.6% \(60%\)$' <<<"$output"
    grep -qE '^sse +101\.53x +101\.35x +99\.19x ' <<<"$output"
    grep -qE '^simd +4\.79 Mblocks/s ±' <<<"$output"
    grep -qxF '† the CPU throttled while this cell was measured (throttled: yes): its figure may be too low.' <<<"$output"
    grep -qxF '‡ the cell has warnings, listed below the tables.' <<<"$output"
    # the answer first, in words
    grep -qxF "fizzbuzz: most often fastest: compiler clang for 5 of 6 variants, flags -Os/x86-64-v2 for 5 of 6; no lead has an interval to tell (too few runs)" <<<"$output"
    grep -qE '^f6 +1\.00x +1\.06x +0\.97x ' <<<"$output"
    grep -qxF '  fizzbuzz/f6@gcc/-O3/x86-64-v2: precision 0.50% not reached in 3 runs (0.96%)' <<<"$output"
    # a family counted in operations: microseconds per operation
    run "$FLAGBENCH" report --width 0 "$SEED4"
    [ "$status" -eq 0 ]
    [[ "$output" == *"(bignum): time per operation (usec/op, lower is faster), median"* ]]
    grep -qE '^fp_mul +0\.130 usec/op ±9\.7% \(83\.3%\) +0\.108 usec/op ±8\.0% \(83\.3%\) +0\.102 usec/op ±8\.5% \(83\.3%\) † +0\.101 usec/op ±6\.5% \(83\.3%\)$' <<<"$output"
    grep -qE '^ec_mul +589\.211 usec/op ±7\.6% \(83\.3%\) +525\.996 usec/op ±15\.9% \(83\.3%\) ‡ +473\.717 usec/op ±4\.2% \(83\.3%\) +408\.678 usec/op$' <<<"$output"
    grep -qE '^ec_mul +0\.000221x +0\.000205x ' <<<"$output"
    run "$FLAGBENCH" report "$FIX/failed.json"
    [ "$status" -eq 0 ]
    grep -qE '^simple +71\.0 MiB/s ±3\.7% \(60%\) ≡ +timeout +71\.0 MiB/s ±3\.7% \(60%\) ≡$' <<<"$output"
    grep -qxF '≡ the same binary as another build of its row: byte-identical and run alike, measured once and shown in each of its columns.' <<<"$output"
    # an old file: intervals from its runs, no marks; ops/s as usec/op
    refute grep -qE '†|‡' <<<"$output"
    grep -qE '^a +0\.00286 usec/op ±3\.7% \(60%\)$' <<<"$output"
    for st in build_failed unsupported wrong_output crashed timeout skipped; do
        grep -qE "^[a-z0-9&<>\"]+ +$st +$st +absent$" <<<"$output" || { echo "no $st row"; false; }
    done
    [[ "$output" == *"<script>alert(1)</script>"* ]]
    run "$FLAGBENCH" report "$BATS_TEST_TMPDIR/nowhere"
    [ "$status" -eq 2 ]
    [[ "$output" == "flagbench: "*"no such run folder"* ]]
    printf '{"schema": "flagbench-results/1",\n "cells": [\n' >"$BATS_TEST_TMPDIR/bad.json"
    run "$FLAGBENCH" report "$BATS_TEST_TMPDIR/bad.json"
    [ "$status" -eq 2 ]
    [[ "$output" == "flagbench: $BATS_TEST_TMPDIR/bad.json:3:"* ]]
    echo '{"schema": "other/1", "cells": []}' >"$BATS_TEST_TMPDIR/other.json"
    run "$FLAGBENCH" report "$BATS_TEST_TMPDIR/other.json"
    [ "$status" -eq 2 ]
    [[ "$output" == *"not a flagbench results file"* ]]
    run "$FLAGBENCH" report
    [ "$status" -eq 2 ]
}

@test "flagbench merge: both machines side by side, as tables --format md" {
    run "$FLAGBENCH" merge "$FIX/fizzbuzz-j4205.json" "$FIX/quick-5700x.json"
    [ "$status" -eq 0 ]
    [[ "$output" == *"| variant | config | J4205 | 5700X |"* ]]
    [[ "$output" == *"| vmsplice | gcc/-O2/x86-64-v2 | 6.65 GiB/s ±8.1% (60%) | 31.49 GiB/s ±4.3% (60%) |"* ]]
    [[ "$output" == *"| vmsplice | gcc/-O2/x86-64-v2 | 150.21x | 162.72x |"* ]]
    # the caption names the statistic, and says so when the runs differ
    [[ "$output" == *"Figures from the median of each cell's runs."* ]]
    jq '.run.statistic = "p25"' "$FIX/quick-5700x.json" > "$BATS_TEST_TMPDIR/p25.json"
    run "$FLAGBENCH" merge "$FIX/fizzbuzz-j4205.json" "$BATS_TEST_TMPDIR/p25.json"
    [ "$status" -eq 0 ]
    [[ "$output" == *"Figures from each run's own statistic, not alike: J4205 median, 5700X lower quartile (p25)."* ]]
    out="$BATS_TEST_TMPDIR/merged.md"
    all=("$FIX/fizzbuzz-j4205.json" "$FIX/quick-5700x.json" "$FIX/failed.json" "$FIX/seed004-host.json" "$FIX/placements-host.json")
    run "$FLAGBENCH" merge --out "$out" "${all[@]}"
    [ "$status" -eq 0 ]
    [ -s "$out" ]
    grep -qF -- '- run 20261201T120000Z-smoke-host: suite smoke on ' "$out"
    # a family found in one run has that run's column only
    grep -qF '| fp_mul | gcc/-O2/default/jemalloc | 0.102 usec/op ±8.5% (83.3%) † |' "$out"
    grep -qF '| ec_mul | gcc/-O2/default/tcmalloc | 0.000247x |' "$out"
    # merge is `tables --format md`
    run "$FLAGBENCH" tables --format md "${all[@]}"
    [ "$status" -eq 0 ]
    diff <(printf '%s\n' "$output") "$out"
    run "$FLAGBENCH" merge "$FIX/failed.json" "$BATS_TEST_TMPDIR/nowhere"
    [ "$status" -eq 2 ]
    run "$FLAGBENCH" merge
    [ "$status" -eq 2 ]
}

@test "merge: runs built for their own profile's -march are compared build for build" {
    a="$BATS_TEST_TMPDIR/a.json" b="$BATS_TEST_TMPDIR/b.json"
    cp "$FIX/fizzbuzz-j4205.json" "$a"
    # the same run as if made on a 5700X profile, built with -march=znver3
    jq '.run.cpu_profile = "5700X" | .run.id = "other"
        | .cells |= map(if .compiler != "none" then .march = "znver3" | .config |= sub("x86-64-v2"; "znver3") else . end)' \
        "$FIX/fizzbuzz-j4205.json" > "$b"
    run "$FLAGBENCH" merge "$a" "$b"
    [ "$status" -eq 0 ]
    [[ "$output" == *"| vmsplice | gcc/-O2/(profile march) | 6.65 GiB/s ±8.1% (60%) | 6.65 GiB/s ±8.1% (60%) |"* ]]
    # several marches in a run: configs are matched as they are
    run "$FLAGBENCH" merge "$a" "$FIX/quick-5700x.json"
    [ "$status" -eq 0 ]
    [[ "$output" != *"(profile march)"* ]]
}

# Every row of every table of run $1, in term, md, csv and index.html, is the
# model's (json): the same texts, a ratio's [low, high] with them.
same_numbers() {
    local json
    json=$("$FLAGBENCH" tables --format json "$1")
    # every row of every table, in order, as the model has it: label, (title,) the cells' texts
    jq -r '.families[].tables[].rows[] | [.label, .cells[].text] | @tsv' <<<"$json" >"$BATS_TEST_TMPDIR/want"
    jq -r '.families[].tables[].rows[] | [.label, .title, .cells[].text] | @tsv' <<<"$json" >"$BATS_TEST_TMPDIR/want2"
    jq -r '.families[].tables[] | range(0; .columns | length) as $c | .rows[] | .cells[$c].text' <<<"$json" \
        >"$BATS_TEST_TMPDIR/want-csv"
    [ "$(wc -l <"$BATS_TEST_TMPDIR/want")" -gt 40 ]
    unescape() { sed -e 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&#39;/'"'"'/g; s/&amp;/\&/g'; }
    # terminal: the lines under each "variant" header, columns apart by two spaces or more
    "$FLAGBENCH" tables --width 0 "$1" | awk '/^variant  /{on=1; next} /^$|^(±|†|‡|~|\[low, high\]|A reference)/{on=0} on' |
        sed -E 's/ {2,}/\t/g' >"$BATS_TEST_TMPDIR/term"
    diff "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/term"
    # Markdown: the rows of the tables whose header names a variant
    "$FLAGBENCH" tables --format md "$1" | awk '/^\| variant \|/{on=1; getline; next} !/^\| /{on=0} on' |
        sed -e 's/^| //; s/ |$//; s/ | /\t/g' | unescape >"$BATS_TEST_TMPDIR/md"
    diff "$BATS_TEST_TMPDIR/want2" "$BATS_TEST_TMPDIR/md"
    # CSV: the text of every cell, a line each; its low and high are the json's
    "$FLAGBENCH" tables --format csv "$1" | tail -n +2 >"$BATS_TEST_TMPDIR/csv-all"
    sed -E 's/.*,"([^"]*)"\r$/\1/' "$BATS_TEST_TMPDIR/csv-all" >"$BATS_TEST_TMPDIR/csv"
    diff "$BATS_TEST_TMPDIR/want-csv" "$BATS_TEST_TMPDIR/csv"
    jq -r '.families[].tables[] | range(0; .columns | length) as $c | .rows[] | .cells[$c] | "\(.low // "") \(.high // "")"' \
        <<<"$json" >"$BATS_TEST_TMPDIR/want-ends"
    sed -E 's/.*,"[^"]*",([^,]*),([^,]*),[^,]*,[^,]*,"[^"]*","[^"]*"\r$/\1 \2/' "$BATS_TEST_TMPDIR/csv-all" |
        paste -d ' ' "$BATS_TEST_TMPDIR/want-ends" - |
        awk 'function off(a, b) { return a == "" ? b != "" : (a - b > 1e-8 * a || b - a > 1e-8 * a) }
             NF % 2 || off($1, $3) || off($2, $4) { print "csv ends differ: " $0; bad = 1 } END { exit bad }'
    # the page: the rows of its grids, tags stripped
    grep -E '^<tr( class="ref")?><th>.*<td class="' "$1/index.html" |
        sed -E 's#</th><td>#\t#; s#</td><td[^>]*>#\t#g; s/<[^>]*>//g' | unescape >"$BATS_TEST_TMPDIR/html"
    diff "$BATS_TEST_TMPDIR/want2" "$BATS_TEST_TMPDIR/html"
}

@test "the same run's tables are the same numbers in term, md, csv, json and index.html" {
    same_numbers "$FIZZ"
    # with rounds every ratio has its interval, the same in every format
    same_numbers "$ROUNDS"
    json=$("$FLAGBENCH" tables --format json "$ROUNDS")
    # a ratio's interval: its own field, never a ±; a value's ± alone in pm
    jq -e '[.families[].tables[] | select(.unit == "x") | .rows[].cells[] | select(.state == "ok" and .low != null)]
        | length > 40 and all(.pm == "" and .ci_percent == null and (.interval | test("^\\[[0-9.]+x, [0-9.]+x\\]$"))
                              and .text == ([.figure, .interval, (.marks | select(. != ""))] | join(" ")))' <<<"$json"
    jq -e '[.families[].tables[] | select(.name == "throughput") | .rows[].cells[] | select(.state == "ok")]
        | all(.interval == "" and (.pm | startswith("±")))' <<<"$json"
    refute grep -qE '[0-9]x ±' <(printf '%s\n' "$json") "$ROUNDS"/tables/*.md "$ROUNDS"/tables/*.csv "$ROUNDS/index.html"
    # the page shows a ratio's interval in grey where a value's ± is
    grep -qF '<td class="num ok">0.90x <span class="interval">[0.89x, 0.91x]</span></td>' "$ROUNDS/index.html"
    refute grep -qF '<span class="pm">[' "$ROUNDS/index.html"
}

@test "a ratio whose interval excludes 1.00x prints both ends on one side of it, with the decimals that show it" {
    # clang/-O2 against gcc/-O2 on base: a real lead whose low end is 1.003x, not "1.00x"
    run "$FLAGBENCH" tables --width 0 --family fizzbuzz --table against "$ROUNDS"
    [ "$status" -eq 0 ]
    grep -qE '^base +1\.00x +1\.05x \[0\.98x, 1\.10x\] ~ +0\.976x \[0\.967x, 0\.983x\] +1\.044x \[1\.003x, 1\.074x\] ' <<<"$output"
    grep -qF '[low, high] after a ratio is its interval, from the one comparison' <<<"$output"
    grep -qF 'A lead is real exactly when its interval excludes 1.00x, both ends above it or both below' <<<"$output"
    # every ratio: a real one prints both ends beyond 1.00x on its side, one that is not (~) holds it
    "$FLAGBENCH" tables --format json "$ROUNDS" | jq -e '
        [.families[].tables[] | select(.unit == "x") | .rows[].cells[] | select(.interval != "")
         | (.interval | ltrimstr("[") | rtrimstr("]") | split(", ") | map(rtrimstr("x") | tonumber)) as [$lo, $hi]
         | {verdict, $lo, $hi}] as $c
        | ($c | map(select(.verdict == "faster" or .verdict == "slower")) | length > 20
           and all(.lo > 1 or .hi < 1))
        and ($c | map(select(.verdict == "inconclusive" or .verdict == "same")) | length > 5
             and all(.lo <= 1 and .hi >= 1))'
}

@test "flagbench tables: --against chooses the configuration, --family and --table select, unknown ones exit 2" {
    run "$FLAGBENCH" tables --width 0 --against clang/-O3 --family fizzbuzz --table against "$FIZZ"
    [ "$status" -eq 0 ]
    [[ "$output" == *"FizzBuzz: against clang/-O3, built with the same other flags"* ]]
    grep -qE '^simple +0\.93x +0\.98x +0\.90x +0\.97x +1\.00x +1\.06x$' <<<"$output"
    refute grep -q 'speedup' <<<"$output"
    run "$FLAGBENCH" tables --format tsv --family fizzbuzz --table compilers "$FIZZ"
    [ "$status" -eq 0 ]
    [ "$(head -1 <<<"$output")" = $'#\t1\t3\t6\t1\tFizzBuzz: gcc against clang, built with the same other flags\tgcc / clang' ]
    for args in "--table nope" "--family nope" "--format xml" "--format tsv"; do
        run "$FLAGBENCH" tables $args "$FIZZ"
        [ "$status" -eq 2 ] || { echo "$args: $status"; false; }
    done
}

@test "a terminal table wider than 120 columns comes in blocks of columns, each with the row labels" {
    run "$FLAGBENCH" tables --family fizzbuzz --table throughput "$FIZZ"
    [ "$status" -eq 0 ]
    rows=$(awk '/^variant /{on=1} /^$|^(±|†|‡|§|\(|A reference)/{on=0} on' <<<"$output")
    echo "$rows"
    # no table line past 120 columns, and the six columns in more than one block
    [ "$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' <<<"$rows")" -le 120 ]
    [ "$(grep -c '^variant ' <<<"$rows")" -ge 2 ]
    [ "$(grep -c '^sse ' <<<"$rows")" -eq "$(grep -c '^variant ' <<<"$rows")" ]
    # --width 0: one block
    run "$FLAGBENCH" tables --width 0 --family fizzbuzz --table throughput "$FIZZ"
    [ "$status" -eq 0 ]
    [ "$(grep -c '^variant ' <<<"$output")" -eq 1 ]
}

@test "tables --out-dir: every family's tables from one model, the same bytes as a call each; --family and --table select" {
    d="$BATS_TEST_TMPDIR/each"
    run "$FLAGBENCH" tables --format tsv --out-dir "$d" "$FIX/quick-5700x.json"
    [ "$status" -eq 0 ]
    [ "$(ls "$d" | wc -l)" -eq 12 ]
    for f in "$d"/*.tsv; do
        n=$(basename "$f" .tsv)
        "$FLAGBENCH" tables --format tsv --family "${n%%-*}" --table "${n#*-}" "$FIX/quick-5700x.json" | cmp - "$f"
    done
    run "$FLAGBENCH" tables --format md --out-dir "$d/md" --family yes --table speedup "$FIX/quick-5700x.json"
    [ "$status" -eq 0 ]
    [ "$(ls "$d/md")" = yes-speedup.md ]
    run "$FLAGBENCH" tables --format md --out-dir "$d/x" --table nosuch "$FIX/quick-5700x.json"
    [ "$status" -eq 2 ]
    [[ "$output" == *"no table nosuch in these results"* ]]
    run "$FLAGBENCH" tables --format md --out-dir "$d/x" --out "$d/x.md" "$FIX/quick-5700x.json"
    [ "$status" -eq 2 ]
    [[ "$output" == *"--out and --out-dir: one or the other"* ]]
}
