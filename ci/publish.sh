#!/usr/bin/env bash
# ci/publish.sh ARTIFACTS DATA PUBLIC: the publish job of nightly.yml.
#   ARTIFACTS/nightly-<profile>/   tonight's run folders (ci/nightly.sh), one per machine
#   DATA/                          the nightly-data branch: history/<profile>/<run id>.json,
#                                  history.db (flagbench history, rebuilt from those when
#                                  unreadable), baselines/<profile>/nightly/ (the last
#                                  accepted night) and baselines/<profile>/previous/ (the last night)
#   PUBLIC/                        the site: make publish of tonight's runs, plus
#                                  history/index.html (plots/history.sh): per machine the
#                                  change points and every cell's timeline
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
    # the previous night, whatever it found: what tomorrow's steps are measured beside
    "$fb" baseline save "$dir" --dir "$data/baselines" --name previous >&2 || rc=1
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

# The history (docs/history.md): every kept night imported into
# DATA/history.db (by run id: the nights already there add nothing); a
# history that cannot be read is rebuilt from the kept nights.  Then the
# page: per machine the change points and every cell's timeline.
hist_db=$data/history.db
nights=("$data"/history/*/*.json)
if [ -e "${nights[0]}" ]; then
    if ! "$fb" history import --db "$hist_db" "${nights[@]}" >&2; then
        say "the history $hist_db cannot be read: rebuilding it from the kept nights"
        "$fb" history import --rebuild --db "$hist_db" "${nights[@]}" >&2 || rc=1
    fi
fi
if [ -f "$hist_db" ]; then
    "$root/plots/history.sh" "$hist_db" "$public/history" || rc=1
fi
# a link from the site's front page
if [ -f "$public/index.html" ] && ! grep -q 'href="history/' "$public/index.html"; then
    sed -i 's|</body>|<p><a href="history/index.html">nightly history per machine: change points</a></p></body>|' "$public/index.html"
    grep -q 'href="history/' "$public/index.html" ||
        echo '<p><a href="history/index.html">nightly history per machine</a></p>' >> "$public/index.html"
fi
exit "$rc"
