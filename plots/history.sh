#!/usr/bin/env bash
# plots/history.sh DB OUT: the nightly history's page (ci/publish.sh runs it).
# Per machine (cpu profile and host): first the list of change points,
# newest first, each with its size, interval and what changed, and the
# step the nights may not show for 3 nights (step_seen_percent); then every
# cell's timeline (gnuplot SVG: each night's median time per unit relative
# to its first night), its change points marked and labelled with what
# changed.  Reads the history through `flagbench history` alone.
# Needs jq and gnuplot (without gnuplot the lists and the data stay, and
# the page says the plots are missing).
# Exit: 0, 1 when a plot failed (the rest is done), 2 bad usage or history.
set -u -o pipefail
say() { printf 'flagbench: %s\n' "$*" >&2; }
if [ "$#" -ne 2 ]; then
    say "usage: plots/history.sh DB OUT"
    exit 2
fi
db=$1 out=$2
root=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P) || exit 2
fb=${FLAGBENCH:-$root/build/flagbench}
esc() { jq -Rr @html <<<"$1"; }
mkdir -p "$out" || exit 2
list=$("$fb" history list --db "$db" --format json) || exit 2
rc=0
page=$out/index.html
{
    echo '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>flagbench nightly history</title>'
    echo "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src 'self'; style-src 'unsafe-inline'\">"
    echo '<style>body{font:14px sans-serif;max-width:1100px;margin:1em auto}img{max-width:100%}li{margin:.2em 0}.slower{color:#b00}.faster{color:#070}</style></head><body>'
    echo '<h1>flagbench nightly: change points per machine</h1>'
    echo '<p>A change point is a night from which a cell runs at another level, found over all its nights at a stated false-alarm rate (docs/history.md); what changed is what the runs recorded between the night before and that night.</p>'
} > "$page"
machines=$(jq -r '[.runs[] | "\(.profile)\t\(.host)"] | unique[]' <<<"$list")
while IFS=$'\t' read -r profile host; do
    [ -n "$profile" ] || continue
    dir=$(printf '%s-%s' "$profile" "$host" | tr -c 'A-Za-z0-9._-' '_')
    mkdir -p "$out/$dir"
    "$fb" history changes --db "$db" --profile "$profile" --format json > "$out/$dir/changes.json"
    [ "$?" -le 1 ] || { rc=1; continue; }
    "$fb" history show '*' --db "$db" --profile "$profile" --format tsv > "$out/$dir/nights.tsv" || { rc=1; continue; }
    nights=$(jq --arg p "$profile" --arg h "$host" '[.runs[] | select(.profile == $p and .host == $h)] | length' <<<"$list")
    {
        printf '<h2 id="%s">%s on %s: %s nights</h2>\n' "$(esc "$dir")" "$(esc "$profile")" "$(esc "$host")" "$nights"
        n=$(jq --arg m "$profile/$host" '[.changes[] | select("\(.profile)/\(.host)" == $m)] | length' "$out/$dir/changes.json")
        printf '<h3>change points (%s, newest first)</h3>\n' "$n"
        [ "$n" -gt 0 ] || echo '<p class="none">no change point</p>'
        jq -r --arg m "$profile/$host" '
            [.changes[] | select("\(.profile)/\(.host)" == $m)] | if length > 0 then
            "<ul class=\"changes\">" + (map("<li class=\"\(.direction)\">\(.started | @html) <b>\(.cell | @html)</b>: "
              + "\(.ratio * 1000 | round / 1000)x [\(.ci95[0] * 1000 | round / 1000)x, \(.ci95[1] * 1000 | round / 1000)x] \(.direction)"
              + " from run \(.night | @html)\(if .alarm then " <b class=\"alarm\">[alarm: fails tonight'"'"'s nightly]</b>" else "" end); what changed: \(.cause.text | @html)</li>") | join("\n")) + "</ul>" else empty end' "$out/$dir/changes.json"
        # what no change point means here: the step the nights let through
        jq -r 'select(.seen_text != null) | "<p class=\"seen\">No change point is not no step: \(.seen_text | @html).</p>"' \
            "$out/$dir/changes.json"
        echo '<h3>every cell, night by night</h3>'
    } >> "$page"
    if ! command -v gnuplot >/dev/null; then
        echo '<p>no plots: gnuplot is not installed</p>' >> "$page"
        continue
    fi
    gp=$out/$dir/plots.gp
    echo "set terminal svg size 900,320 dynamic background rgb 'white'" > "$gp"
    i=0
    while IFS= read -r cell; do
        i=$((i + 1))
        dat=$out/$dir/$i.dat
        awk -F '\t' -v c="$cell" '$2 == c' "$out/$dir/nights.tsv" > "$dat"
        {
            echo "set output '$out/$dir/$i.svg'"
            echo "reset; set title '$(printf '%s' "$cell" | tr -d "'")' noenhanced"
            echo "set xlabel 'night'; set ylabel 'time relative to the first night'; set grid; unset key"
            # a label right of its mark in the first half, left of it in the second
            awk -F '\t' -v last="$(wc -l < "$dat")" '$9 != "" { gsub(/["\x27\\]/, "", $9)
                side = $3 * 2 < last ? "left offset 0.5,0" : "right offset -0.5,0"
                printf "set arrow from %d, graph 0 to %d, graph 1 nohead dt 2 lc rgb \"red\"\n", $3, $3
                printf "set label \"%s\" at %d, graph 0.92 %s tc rgb \"red\" noenhanced\n", $9, $3, side }' "$dat"
            echo "plot '$dat' using 3:7 with linespoints pt 7 ps 0.5 lc rgb '#1f5fa8'"
        } >> "$gp"
        printf '<figure><img src="%s/%d.svg" alt="%s: nights and change points"></figure>\n' "$dir" "$i" "$(esc "$cell")" >> "$page"
    done < <(cut -f2 "$out/$dir/nights.tsv" | awk '!seen[$0]++')
    if ! gnuplot "$gp" 2> "$out/$dir/gnuplot.err"; then
        say "gnuplot failed for $profile/$host: $(head -3 "$out/$dir/gnuplot.err")"
        rc=1
    fi
    rm -f -- "$out/$dir"/*.dat "$gp" "$out/$dir/gnuplot.err"
done <<<"$machines"
echo '</body></html>' >> "$page"
exit "$rc"
