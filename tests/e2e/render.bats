#!/usr/bin/env bats
# Tables and plots from results.json alone: plots/render.sh, plots/publish.sh,
# make plots/publish, index.html in headless Chromium, `flagbench report` and
# `flagbench merge`.  The fixtures are tests/fixtures/results/*.json.

load helpers

FIX="$REPO/tests/fixtures/results"

# `! cmd` never fails a bats test (errexit ignores it): say it this way.
refute() {
    if "$@"; then
        echo "unexpected success: $*"
        return 1
    fi
}

# A run folder holding only a copy of a fixture.
stage() { # fixture dir
    mkdir -p -- "$2"
    cp -- "$FIX/$1" "$2/results.json"
}

setup_file() {
    # A folder name that would break anything that evals or splits paths.
    export FIZZ="$BATS_FILE_TMPDIR/run dir \$(touch pwned) 'q' <x>"
    export FAILED="$BATS_FILE_TMPDIR/failed"
    stage fizzbuzz-j4205.json "$FIZZ"
    stage failed.json "$FAILED"
    (cd "$BATS_FILE_TMPDIR" && "$REPO/plots/render.sh" "$FIZZ" && "$REPO/plots/render.sh" "$FAILED") \
        >"$BATS_FILE_TMPDIR/setup.log" 2>&1 || { cat "$BATS_FILE_TMPDIR/setup.log" >&2; return 1; }
}

@test "render: every family gets its tables, plots and the index" {
    [ ! -e "$BATS_FILE_TMPDIR/pwned" ]
    for fam in fizzbuzz yes chacha20; do
        for t in "$fam.md" "$fam.csv" "$fam-speedup.md" "$fam-compilers.md"; do
            [ -s "$FIZZ/tables/$t" ] || { echo "missing tables/$t"; false; }
        done
        for p in throughput heatmap speedup compilers; do
            [ -s "$FIZZ/plots/$fam-$p.svg" ] && [ -s "$FIZZ/plots/$fam-$p.png" ] || { echo "missing $fam-$p"; false; }
        done
    done
    [ -s "$FIZZ/index.html" ]
    # nothing left behind by the renderer
    [ -z "$(find "$FIZZ" -name '.*' -mindepth 1)" ]
}

@test "render: SVGs parse as XML, PNGs carry the PNG signature" {
    for d in "$FIZZ" "$FAILED"; do
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
    grep -qF '| simple | if/% and printf() per line | 70.0 MiB/s | 73.3 MiB/s | 67.3 MiB/s | 73.1 MiB/s | 75.1 MiB/s | 79.6 MiB/s |' "$t/fizzbuzz.md"
    grep -qF '| sse | offset 0xf6 with SSE4.1 | 6.94 GiB/s | 7.25 GiB/s | 6.52 GiB/s | 7.10 GiB/s | 7.48 GiB/s | 7.82 GiB/s |' "$t/fizzbuzz.md"
    grep -qF '| gnu-yes (reference) | GNU yes (coreutils 9.1) | 2.23 GiB/s | 2.23 GiB/s |' "$t/yes.md"
    grep -qF '| base | reference rounds | 1.77 Mblocks/s |' "$t/chacha20.md"
    grep -qF '| sse | offset 0xf6 with SSE4.1 | 101.53x |' "$t/fizzbuzz-speedup.md"
    grep -qF '| variant | title | -O2/x86-64-v2 | -O3/x86-64-v2 | -Os/x86-64-v2 |' "$t/fizzbuzz-compilers.md"
    grep -qF '| f6 | digits offset by 0xf6 | 1.11 | 1.13 | 0.96 |' "$t/fizzbuzz-compilers.md"
    grep -qF '"gnu-yes (reference)","GNU yes (coreutils 9.1)",2.23,2.23' "$t/yes.csv"
    head -1 "$t/fizzbuzz.csv" | grep -qF '"gcc/-O2/x86-64-v2 (GiB/s)"'
}

@test "render: cells that are not ok show their status word, never 0 or blank" {
    t="$FAILED/tables"
    grep -qF '| simple | SIMPLE | 71.0 MiB/s | timeout | 71.0 MiB/s |' "$t/fizzbuzz.md"
    for st in build_failed unsupported wrong_output crashed timeout skipped; do
        grep -qE "^\| [^|]+ \| [^|]+ \| $st \| $st \| absent \|$" "$t/fizzbuzz.md" || { echo "no $st row"; false; }
    done
    grep -qF '| simple | SIMPLE | 1.00x | timeout | 1.00x |' "$t/fizzbuzz-speedup.md"
    grep -qF '| simple | SIMPLE | clang: timeout |' "$t/fizzbuzz-compilers.md"
    grep -qF '| x | X | build_failed | absent |' "$t/dead.md"
    # no empty cell and no zero in any table
    refute grep -qE '\|  \||\| 0(\.0+)? ' "$t"/*.md
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
    grep -c '<img src="plots/' "$FIZZ/index.html" | grep -qx 12
}

@test "results.json alone renders the same files; rendering twice changes nothing" {
    copy="$BATS_TEST_TMPDIR/copy"
    stage fizzbuzz-j4205.json "$copy"
    run "$REPO/plots/render.sh" "$copy"
    [ "$status" -eq 0 ]
    diff -r "$FIZZ" "$copy"
    cp -r "$copy" "$BATS_TEST_TMPDIR/before"
    run "$REPO/plots/render.sh" "$copy"
    [ "$status" -eq 0 ]
    diff -r "$BATS_TEST_TMPDIR/before" "$copy"
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
    [[ "$output" == *"not valid JSON"*"line 3"* ]]
    mkdir -p "$BATS_TEST_TMPDIR/other"
    echo '{"schema": "other/1", "cells": []}' >"$BATS_TEST_TMPDIR/other/results.json"
    run "$REPO/plots/render.sh" "$BATS_TEST_TMPDIR/other"
    [ "$status" -eq 2 ]
    [[ "$output" == *"not a flagbench results file"* ]]
    run "$REPO/plots/render.sh"
    [ "$status" -eq 2 ]
    [[ "$output" == *"usage"* ]]
}

@test "make plots RUN=DIR renders one run" {
    d="$BATS_TEST_TMPDIR/make run"
    stage failed.json "$d"
    run make --no-print-directory -C "$REPO" plots RUN="$d"
    [ "$status" -eq 0 ]
    [ -s "$d/index.html" ]
    [ -s "$d/tables/fizzbuzz.md" ]
}

@test "publish: two machines merged side by side, a site with an index of runs" {
    a="$BATS_TEST_TMPDIR/a" b="$BATS_TEST_TMPDIR/b" pub="$BATS_TEST_TMPDIR/public"
    stage fizzbuzz-j4205.json "$a"
    stage quick-5700x.json "$b"
    run make --no-print-directory -C "$REPO" publish RUNS="$a $b" PUBLIC="$pub"
    [ "$status" -eq 0 ]
    m="$pub/merged.md"
    grep -qF '| variant | config | J4205 | J4205 speedup | 5700X | 5700X speedup |' "$m"
    grep -qF '| simple | gcc/-O2/x86-64-v2 | 70.0 MiB/s | 1.00x | 296.4 MiB/s | 1.00x |' "$m"
    grep -qF '| gnu-yes | reference | 2.23 GiB/s | n/a | 4.61 GiB/s | n/a |' "$m"
    # cells of one machine only are listed, not dropped
    grep -qF '| J4205 | fizzbuzz | simple | gcc/-Os/x86-64-v2 | 67.3 MiB/s | 1.00x |' "$m"
    grep -qF '| 5700X | fizzbuzz | sse | clang/-O3/x86-64-v3 | 32.18 GiB/s | 98.82x |' "$m"
    [ "$(wc -l <"$pub/merged.csv")" -eq $((55 + 67 + 1)) ]
    for id in 20261129T184421Z-fizzbuzz-J4205 20261130T091500Z-quick-5700X; do
        grep -qF "href=\"runs/$id/index.html\"" "$pub/index.html"
        [ -s "$pub/runs/$id/index.html" ]
        [ -s "$pub/runs/$id/plots/fizzbuzz-throughput.svg" ]
    done
    # publishing again replaces the site; a foreign folder is refused
    run "$REPO/plots/publish.sh" "$pub" "$a"
    [ "$status" -eq 0 ]
    [ ! -d "$pub/runs/20261130T091500Z-quick-5700X" ]
    mkdir -p "$BATS_TEST_TMPDIR/mine" && touch "$BATS_TEST_TMPDIR/mine/keep"
    run "$REPO/plots/publish.sh" "$BATS_TEST_TMPDIR/mine" "$a"
    [ "$status" -eq 2 ]
    [ -e "$BATS_TEST_TMPDIR/mine/keep" ]
}

@test "headless Chromium shows index.html without console errors" {
    browser=$(command -v chromium || command -v chromium-browser || true)
    if [ -z "$browser" ]; then
        skip "chromium is not installed (scripts/deps.sh test installs it)"
    fi
    shot="$BATS_TEST_TMPDIR/index.png"
    url="file://$(printf '%s' "$FAILED/index.html" | jq -sRr @uri | sed 's/%2F/\//g')"
    run timeout 60 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --user-data-dir="$BATS_TEST_TMPDIR/profile" --enable-logging=stderr --v=0 \
        --screenshot="$shot" --window-size=1280,2000 "$url"
    [ "$status" -eq 0 ]
    [ -s "$shot" ]
    [ "$(stat -c %s "$shot")" -gt 20000 ]
    # console messages (a blocked script or resource, a JS error) are logged as CONSOLE
    if grep -q 'CONSOLE' <<<"$output"; then
        grep 'CONSOLE' <<<"$output"
        false
    fi
}

@test "flagbench report: headline tables, status words, bad input exits 2" {
    run "$FLAGBENCH" report "$FIZZ"
    [ "$status" -eq 0 ]
    [[ "$output" == *"FizzBuzz (fizzbuzz): throughput, median"* ]]
    grep -qE '^sse +6\.94 GiB/s +7\.25 GiB/s +6\.52 GiB/s +7\.10 GiB/s +7\.48 GiB/s +7\.82 GiB/s$' <<<"$output"
    grep -qE '^gnu-yes \(reference\) +2\.23 GiB/s +2\.23 GiB/s$' <<<"$output"
    grep -qE '^sse +101\.53x' <<<"$output"
    grep -qE '^simd +4\.79 Mblocks/s' <<<"$output"
    run "$FLAGBENCH" report "$FIX/failed.json"
    [ "$status" -eq 0 ]
    grep -qE '^simple +71\.0 MiB/s +timeout +71\.0 MiB/s$' <<<"$output"
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

@test "flagbench merge: both machines side by side, the same Markdown as publish" {
    run "$FLAGBENCH" merge "$FIX/fizzbuzz-j4205.json" "$FIX/quick-5700x.json"
    [ "$status" -eq 0 ]
    [[ "$output" == *"| variant | config | J4205 | J4205 speedup | 5700X | 5700X speedup |"* ]]
    [[ "$output" == *"| vmsplice | gcc/-O2/x86-64-v2 | 6.65 GiB/s | 150.21x | 31.49 GiB/s | 162.72x |"* ]]
    [[ "$output" == *"## Cells found in one run only"* ]]
    out="$BATS_TEST_TMPDIR/merged.md"
    run "$FLAGBENCH" merge --out "$out" "$FIX/fizzbuzz-j4205.json" "$FIX/quick-5700x.json" "$FIX/failed.json"
    [ "$status" -eq 0 ]
    [ -s "$out" ]
    grep -qF '| 20261201T120000Z-smoke-host |' "$out"
    # plots/merge.jq (what publish writes) and the C merge agree to the byte
    jq -j -s -L "$REPO/plots" --arg format md -f "$REPO/plots/merge.jq" \
        "$FIX/fizzbuzz-j4205.json" "$FIX/quick-5700x.json" "$FIX/failed.json" >"$BATS_TEST_TMPDIR/jq.md"
    diff "$BATS_TEST_TMPDIR/jq.md" "$out"
    run "$FLAGBENCH" merge "$FIX/failed.json" "$BATS_TEST_TMPDIR/nowhere"
    [ "$status" -eq 2 ]
    run "$FLAGBENCH" merge
    [ "$status" -eq 2 ]
}
