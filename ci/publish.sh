#!/usr/bin/env bash
# ci/publish.sh ARTIFACTS DATA PUBLIC: the publish job of nightly.yml.
#   ARTIFACTS/nightly-<profile>/   tonight's run folders (ci/nightly.sh), one per machine
#   DATA/                          the nightly-data branch: history/<profile>/<run id>.json
#                                  and baselines/<profile>/nightly/ (flagbench baseline)
#   PUBLIC/                        the site: make publish of tonight's runs, plus
#                                  history/index.html with one plot per machine
# A machine's run becomes its new baseline when its nightly passed or had no
# baseline (RUN/nightly.json), or when ACCEPT=1 (a dispatch that accepts a change).
# Needs jq; the plots need gnuplot (without it the history page lists the data only).
# Exit: 0 published, 1 some part failed (the rest is done), 2 bad usage.
set -u -o pipefail

say() { printf 'flagbench: %s\n' "$*" >&2; }
if [ "$#" -ne 3 ]; then
    say "usage: ci/publish.sh ARTIFACTS DATA PUBLIC"
    exit 2
fi
artifacts=$1 data=$2 public=$3
root=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P) || exit 2
fb=${FLAGBENCH:-$root/build/flagbench}
rc=0

runs=()
for dir in "$artifacts"/nightly-*/; do
    dir=${dir%/}
    [ -f "$dir/results.json" ] || continue
    profile=$(jq -r '.run.cpu_profile' "$dir/results.json") || { rc=1; continue; }
    id=$(jq -r '.run.id' "$dir/results.json") || { rc=1; continue; }
    case "$profile$id" in */* | .*) say "$dir: odd profile or run id '$profile' '$id'"; rc=1; continue ;; esac
    runs+=("$dir")
    mkdir -p "$data/history/$profile"
    cp -- "$dir/results.json" "$data/history/$profile/$id.json"
    status=$(jq -r '.status // "unknown"' "$dir/nightly.json" 2>/dev/null || echo unknown)
    if [ "$status" = passed ] || [ "$status" = no_baseline ] || [ "${ACCEPT:-0}" = 1 ]; then
        "$fb" baseline save "$dir" --dir "$data/baselines" --name nightly >&2 || rc=1
    else
        say "$profile: nightly $status: the baseline stays"
    fi
done
if [ "${#runs[@]}" -eq 0 ]; then
    say "no nightly runs under $artifacts"
    exit 1
fi

RUNS="${runs[*]}" PUBLIC="$public" make -C "$root" --no-print-directory publish >&2 || rc=1
case "$public" in /*) ;; *) public=$PWD/$public ;; esac
mkdir -p "$public/history" || exit 1

# One plot per machine: each cell's time per unit of work, relative to its
# first night, over the nights (a line per cell).  The time is the lower
# quartile of the night's stored runs, for every night alike (nights from
# before run.statistic reported the median; a history must not change
# statistic halfway).
hist=$public/history
{
    echo '<!doctype html><meta charset="utf-8"><title>flagbench nightly history</title>'
    echo '<h1>flagbench nightly: history per machine</h1>'
    echo '<p>Each line is one cell: the lower quartile of its run times per unit of work, relative to its first night (lower is faster).</p>'
} > "$hist/index.html"
for pdir in "$data"/history/*/; do
    pdir=${pdir%/}
    [ -d "$pdir" ] || continue
    profile=$(basename -- "$pdir")
    tsv=$hist/$profile.tsv
    # run start (epoch), cell id, seconds per unit; sorted by time
    jq -r '(.run.started // "" | sub("\\.[0-9]+"; "") | try fromdateiso8601 catch null) as $t
           | select($t != null) | .cells[] | select(.status == "ok" and (.time_s.runs | length) > 0 and .size > 0)
           | (.time_s.runs | sort) as $r | [$t, .id, ($r[(($r | length) * 0.25 | ceil | if . < 1 then 1 else . end) - 1] / .size)] | @tsv' "$pdir"/*.json 2>/dev/null | sort -n > "$tsv"
    printf '<h2>%s</h2>\n' "$profile" >> "$hist/index.html"
    if command -v gnuplot >/dev/null && [ -s "$tsv" ]; then
        gp=$hist/$profile.gp
        {
            echo "set terminal svg size 1000,520 dynamic background rgb 'white'"
            echo "set output '$hist/$profile.svg'"
            echo "set title 'nightly $profile: time per unit relative to the first night' noenhanced"
            echo "set xdata time; set timefmt '%s'; set format x '%m-%d %H:%M'; set xtics rotate by -30"
            echo "set ylabel 'relative time (lower is faster)'; set key outside right noenhanced; set grid"
            printf 'plot '
            sep=''
            while IFS= read -r cell; do
                f=$hist/$profile.$(printf '%s' "$cell" | sha256sum | cut -c1-12).dat
                awk -F '\t' -v c="$cell" '$2 == c { if (!b) b = $3; print $1 "\t" $3 / b }' "$tsv" > "$f"
                printf "%s'%s' using 1:2 with linespoints title '%s'" "$sep" "$f" "${cell//\'/}"
                sep=', '
            done < <(cut -f2 "$tsv" | sort -u)
            echo
        } > "$gp"
        if gnuplot "$gp" 2>"$hist/$profile.err"; then
            printf '<img src="%s.svg" alt="history of %s">\n' "$profile" "$profile" >> "$hist/index.html"
            rm -f -- "$hist/$profile".*.dat "$gp" "$hist/$profile.err"
        else
            say "gnuplot failed for $profile: $(head -3 "$hist/$profile.err")"
            rc=1
        fi
    else
        printf '<p>no plot (gnuplot missing or no data)</p>\n' >> "$hist/index.html"
    fi
    printf '<p><a href="%s.tsv">data</a> (run start, cell, seconds per unit)</p>\n' "$profile" >> "$hist/index.html"
done
# a link from the site's front page
if [ -f "$public/index.html" ] && ! grep -q 'href="history/' "$public/index.html"; then
    sed -i 's|</body>|<p><a href="history/index.html">nightly history per machine</a></p></body>|' "$public/index.html"
    grep -q 'href="history/' "$public/index.html" ||
        echo '<p><a href="history/index.html">nightly history per machine</a></p>' >> "$public/index.html"
fi
exit "$rc"
