#!/usr/bin/env bash
# plots/publish.sh: a static site of several runs, with their results merged across machines.
#   plots/publish.sh OUTDIR RUN_DIR...
# Writes OUTDIR/index.html (the runs, the merged tables), OUTDIR/merged.md and
# OUTDIR/merged.csv, and OUTDIR/runs/<run id>/ for each run: a copy of its results.json
# rendered by plots/render.sh (tables, plots, index.html), so the site needs nothing else.
# OUTDIR is replaced whole; a folder that exists and was not made by this script is refused.
#
# Exit status: 0 published; 1 some run failed to render (the rest is published);
# 2 bad usage or a RUN_DIR without a flagbench results.json.  Needs jq (Debian package jq);
# without gnuplot (gnuplot-nox) the site has tables but no plots.
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
	if ! err=$("$JQ" -e '(.schema | type == "string" and startswith("flagbench-results/")) and (.cells | type == "array")' \
		"$f" 2>&1 >/dev/null); then
		say "$f: not a flagbench results file${err:+: $err}"
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

mapfile -t dirs < <("$JQ" -r -s -L "$here" --arg format dirs -f "$here/merge.jq" "${results[@]}")
if [ "${#dirs[@]}" -ne "${#results[@]}" ]; then
	say "cannot name the run folders"
	exit 1
fi

rc=0
mkdir -p -- "$tmp/runs"
for i in "${!results[@]}"; do
	d="$tmp/runs/${dirs[$i]}"
	mkdir -p -- "$d" && cp -- "${results[$i]}" "$d/results.json" || exit 1
	FLAGBENCH_RENDER_QUIET=1 "$here/render.sh" "$d" || rc=1
done

for f in md csv html; do
	name=merged.$f
	[ "$f" = html ] && name=index.html
	mode=-r
	[ "$f" = md ] && mode=-j # the Markdown text ends with its own newline
	if ! "$JQ" "$mode" -s -L "$here" --arg format "$f" -f "$here/merge.jq" "${results[@]}" >"$tmp/$name"; then
		say "$name failed"
		exit 1
	fi
done
printf 'made by plots/publish.sh; the whole folder is replaced on the next publish\n' >"$tmp/$marker"
chmod 755 "$tmp"

rm -rf -- "$out.old"
if [ -e "$out" ]; then mv -- "$out" "$out.old" || exit 1; fi
mv -- "$tmp" "$out" || exit 1
rm -rf -- "$out.old"
say "published ${#results[@]} runs in $out/index.html"
exit "$rc"
