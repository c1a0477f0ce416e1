#!/usr/bin/env bash
# plots/publish.sh: a static site of several runs, with their results merged across machines.
#   plots/publish.sh OUTDIR RUN_DIR...
# Writes OUTDIR/index.html (the runs, the merged tables), OUTDIR/merged.md and
# OUTDIR/merged.csv, and OUTDIR/runs/<run id>/ for each run: a copy of its results.json
# rendered by plots/render.sh (tables, plots, index.html), so the site needs nothing else.
# OUTDIR is replaced whole; a folder that exists and was not made by this script is refused.
#
# Exit status: 0 published; 1 some run failed to render (the rest is published);
# 2 bad usage or a RUN_DIR without a flagbench results.json.  Needs build/flagbench (or
# FLAGBENCH) and jq (Debian package jq); without gnuplot (gnuplot-nox) the site has tables
# but no plots.  The tables are `flagbench tables` of all the runs together.
set -u -o pipefail

say() { printf 'flagbench: %s\n' "$*" >&2; }
marker=.flagbench-public

if [ "$#" -lt 2 ] || [ -z "$1" ]; then
	say "usage: plots/publish.sh OUTDIR RUN_DIR..."
	exit 2
fi
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P) || exit 2
out=$1
shift
JQ=${JQ:-jq}
FLAGBENCH=${FLAGBENCH:-$here/../build/flagbench}
if ! command -v "$JQ" >/dev/null 2>&1; then
	say "warning: jq not found (Debian package jq): nothing published"
	exit 0
fi

results=()
for run in "$@"; do
	f="$run/results.json"
	[ -d "$run" ] || f=$run
	if [ ! -f "$f" ]; then
		say "$run: no results.json there"
		exit 2
	fi
	results+=("$f")
done

case "$out" in
/*) ;;
*) out="$PWD/$out" ;;
esac
out=${out%/}
if [ -e "$out" ] && [ ! -e "$out/$marker" ] && [ -n "$(ls -A -- "$out" 2>/dev/null)" ]; then
	say "$out exists and was not made by plots/publish.sh: refusing to replace it"
	exit 2
fi
parent=$(dirname -- "$out")
mkdir -p -- "$parent" || exit 2
tmp=$(mktemp -d "$parent/.publish.XXXXXX") || { say "cannot write in $parent"; exit 2; }
trap 'rm -rf -- "$tmp"' EXIT

"$FLAGBENCH" tables --format json -- "${results[@]}" >"$tmp/model.json" || exit 2
mapfile -t dirs < <("$JQ" -r '.runs[].slug' "$tmp/model.json")
if [ "${#dirs[@]}" -ne "${#results[@]}" ]; then
	say "cannot name the run folders"
	exit 1
fi

rc=0
mkdir -p -- "$tmp/runs"
for i in "${!results[@]}"; do
	d="$tmp/runs/${dirs[$i]}"
	mkdir -p -- "$d" && cp -- "${results[$i]}" "$d/results.json" || exit 1
	FLAGBENCH_RENDER_QUIET=1 FLAGBENCH=$FLAGBENCH "$here/render.sh" "$d" || rc=1
done

for f in md csv; do
	"$FLAGBENCH" tables --format "$f" --out "$tmp/merged.$f" -- "${results[@]}" || exit 1
done
if ! "$JQ" -r -L "$here" --rawfile css "$here/page.css" -f "$here/site.jq" "$tmp/model.json" >"$tmp/index.html"; then
	say "index.html failed"
	exit 1
fi
rm -f -- "$tmp/model.json"
printf 'made by plots/publish.sh; the whole folder is replaced on the next publish\n' >"$tmp/$marker"
chmod 755 "$tmp"

rm -rf -- "$out.old"
if [ -e "$out" ]; then mv -- "$out" "$out.old" || exit 1; fi
mv -- "$tmp" "$out" || exit 1
rm -rf -- "$out.old"
say "published ${#results[@]} runs in $out/index.html"
exit "$rc"
