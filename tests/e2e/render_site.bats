#!/usr/bin/env bats
# The published site of rendered runs: make plots, plots/publish.sh, and
# index.html in headless Chromium (console errors, page width).  Split from
# render.bats so the browser's start-up runs beside the tables' tests.

load helpers

FIX="$REPO/tests/fixtures/results"

setup_file() {
    # A folder name that would break anything that evals or splits paths.
    export FIZZ="$BATS_FILE_TMPDIR/run dir \$(touch pwned) 'q' <x>"
    export FAILED="$BATS_FILE_TMPDIR/failed"
    stage fizzbuzz-j4205.json "$FIZZ"
    stage failed.json "$FAILED"
    (cd "$BATS_FILE_TMPDIR" && "$REPO/plots/render.sh" "$FIZZ" && "$REPO/plots/render.sh" "$FAILED") \
        >"$BATS_FILE_TMPDIR/setup.log" 2>&1 || { cat "$BATS_FILE_TMPDIR/setup.log" >&2; return 1; }
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
    grep -qF '| variant | config | J4205 | 5700X |' "$m"
    grep -qF '| simple | gcc/-O2/x86-64-v2 | 70.0 MiB/s ±3.7% (60%) | 296.4 MiB/s ±5.0% (60%) |' "$m"
    grep -qF '| simple | gcc/-O2/x86-64-v2 | 1.00x | 1.00x |' "$m"
    grep -qF '| gnu-yes | reference | 2.23 GiB/s ±6.6% (60%) | 4.61 GiB/s ±7.8% (60%) |' "$m"
    grep -qF '| gnu-yes | reference | n/a | n/a |' "$m"
    grep -qF '† the CPU throttled while this cell was measured' "$m"
    # cells of one machine only are listed after the others, not dropped
    grep -qF '| simple | gcc/-Os/x86-64-v2 | 67.3 MiB/s ±1.0% (60%) | absent |' "$m"
    grep -qF '| sse | clang/-Os/x86-64-v2 | 100.56x † | absent |' "$m"
    grep -qF '| sse | clang/-O3/x86-64-v3 | absent | 32.18 GiB/s ±8.7% (60%) |' "$m"
    # the CSV: a line per cell of each merged table, the column naming the machine
    head -1 "$pub/merged.csv" | grep -qF 'family,table,variant,title,column,status,value,unit,low,high,ci_percent,ci_level,marks,text'
    grep -qF '"fizzbuzz","throughput","simple","gcc/-O2/x86-64-v2","J4205","ok",73420564.4,"bytes/s",70258913.02,75691303.19,3.699501783,0.6,"","70.0 MiB/s ±3.7% (60%)"' "$pub/merged.csv"
    grep -qF '"fizzbuzz","speedup","sse","clang/-Os/x86-64-v2","J4205","ok",100.558' "$pub/merged.csv"
    grep -qF '<td class="num ok">98.82x</td>' "$pub/index.html"
    for id in 20261129T184421Z-fizzbuzz-J4205 20261130T091500Z-quick-5700X; do
        grep -qF "href=\"runs/$id/index.html\"" "$pub/index.html"
        [ -s "$pub/runs/$id/index.html" ]
        [ -s "$pub/runs/$id/plots/fizzbuzz-throughput.svg" ]
    done
    # publishing again replaces the site (with a small run: one render, not
    # the fizzbuzz fixture's again); a foreign folder is refused
    c="$BATS_TEST_TMPDIR/c"
    stage failed.json "$c"
    run "$REPO/plots/publish.sh" "$pub" "$c"
    [ "$status" -eq 0 ]
    [ -s "$pub/runs/20261201T120000Z-smoke-host/index.html" ]
    [ ! -d "$pub/runs/20261130T091500Z-quick-5700X" ]
    [ ! -d "$pub/runs/20261129T184421Z-fizzbuzz-J4205" ]
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

@test "headless Chromium at 1,400 px: the page never scrolls sideways, wide tables scroll inside themselves" {
    browser=$(command -v chromium || command -v chromium-browser || true)
    if [ -z "$browser" ]; then
        skip "chromium is not installed (scripts/deps.sh test installs it)"
    fi
    # a copy whose one script reports the widths into the DOM (the page's own policy allows no script)
    page="$(dirname "$FIZZ/index.html")/measure-widths.html"
    sed -e '/Content-Security-Policy/d' \
        -e 's|</body>|<script>var d = document.documentElement, w = 0, bad = 0; document.querySelectorAll("table").forEach(function (t) { var e = t.parentElement, o = getComputedStyle(e).overflowX; if (e.scrollWidth > e.clientWidth) { w = Math.max(w, e.scrollWidth - e.clientWidth); if (o !== "auto" \&\& o !== "scroll") bad++; } }); document.body.setAttribute("data-widths", d.scrollWidth + " " + d.clientWidth + " " + w + " " + bad);</script></body>|' \
        "$FIZZ/index.html" > "$page"
    url="file://$(printf '%s' "$page" | jq -sRr @uri | sed 's/%2F/\//g')"
    run timeout 60 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$BATS_TEST_TMPDIR/profile" \
        --window-size=1400,900 --dump-dom "$url"
    rm -f "$page"
    [ "$status" -eq 0 ]
    read -r page_w view_w inner bad <<<"$(grep -oE 'data-widths="[0-9]+ [0-9]+ [0-9]+ [0-9]+"' <<<"$output" | grep -oE '[0-9]+ [0-9]+ [0-9]+ [0-9]+')"
    echo "page $page_w, view $view_w, the widest table overflows its box by $inner, $bad boxes that do not scroll"
    [ -n "$page_w" ]
    [ "$page_w" -le "$view_w" ]
    # the fixture's widest tables are wider than their box: each box scrolls on its own
    [ "$inner" -gt 0 ]
    [ "$bad" -eq 0 ]
}
