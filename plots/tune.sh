#!/usr/bin/env bash
# plots/tune.sh: the convergence plot and index.html of one tune folder, from its
# results.json and convergence.tsv alone (flagbench tune writes both, then calls this).
#   plots/tune.sh TUNE_DIR
# Exit status: 0 rendered, or skipped with a warning because jq or gnuplot is missing;
# 1 the plot or the page failed; 2 bad usage or not a tune folder.  JQ and GNUPLOT in
# the environment name other programs.  Paths go to jq and gnuplot as arguments only.
set -u -o pipefail

say() { printf 'flagbench: %s\n' "$*" >&2; }

if [ "$#" -ne 1 ] || [ ! -d "$1" ]; then
	say "usage: plots/tune.sh TUNE_DIR"
	exit 2
fi
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P) || exit 2
dir=$(cd -- "$1" && pwd -P) || exit 2
results="$dir/results.json"
JQ=${JQ:-jq}
GNUPLOT=${GNUPLOT:-gnuplot}
if [ ! -f "$results" ]; then
	say "$1: no results.json in this folder"
	exit 2
fi
if ! command -v "$JQ" >/dev/null 2>&1; then
	say "warning: jq not found (Debian package jq): the tune's page skipped"
	exit 0
fi
if [ "$("$JQ" -r .kind "$results" 2>/dev/null)" != "flagbench-tune" ]; then
	say "$results is not a tune's results.json"
	exit 2
fi
tmp=$(mktemp -d "$dir/.render.XXXXXX") || { say "cannot write in $dir"; exit 2; }
trap 'rm -rf -- "$tmp"' EXIT
svg=0
if command -v "$GNUPLOT" >/dev/null 2>&1 && [ -s "$dir/convergence.tsv" ]; then
	title=$("$JQ" -r '"tune " + .start.id + ": best so far"' "$results")
	ylabel=$("$JQ" -r 'if .metric == "instructions" then "instructions, ratio to the start" else "time, ratio to the start" end' "$results")
	if "$GNUPLOT" -c "$here/tune_convergence.gp" "$dir/convergence.tsv" "$tmp/convergence" "$title" "$ylabel" 2>"$tmp/err"; then
		svg=1
	else
		say "the convergence plot failed: $(head -c 300 "$tmp/err")"
		exit 1
	fi
else
	say "warning: gnuplot not found (Debian package gnuplot-nox): the convergence plot skipped"
fi
if ! "$JQ" -r -L "$here" --argjson svg "$svg" --rawfile css "$here/page.css" -f "$here/tune.jq" "$results" >"$tmp/index.html" 2>"$tmp/err"; then
	say "the tune's page failed: $(head -c 300 "$tmp/err")"
	exit 1
fi
[ "$svg" = 1 ] && mv -f -- "$tmp/convergence.svg" "$dir/convergence.svg"
mv -f -- "$tmp/index.html" "$dir/index.html"
