#!/usr/bin/env bash
# plots/render.sh: the tables, plots and index.html of one run, from its results.json alone.
#   plots/render.sh RUN_DIR
# Writes RUN_DIR/tables/<family>{.md,.csv,-speedup.md,-compilers.md},
# RUN_DIR/plots/<family>-{throughput,heatmap,speedup,compilers}.{svg,png} and RUN_DIR/index.html.
# Everything is built in a temporary folder inside RUN_DIR and moved into place at the
# end, so a failed render leaves the previous one; rendering twice gives the same files.
#
# Exit status: 0 rendered, or skipped with a warning because jq or gnuplot is missing
# (results.json is never touched); 1 some table or plot failed; 2 bad usage or not a
# flagbench results file.  JQ and GNUPLOT in the environment name other programs;
# FLAGBENCH_RENDER_QUIET=1 drops the closing "rendered" line.
#
# Paths are always quoted and passed as arguments: to jq with --arg/-f, to gnuplot with
# -c (its ARGs are strings, never parsed as code).  Nothing here uses eval.
set -u -o pipefail

say() { printf 'flagbench: %s\n' "$*" >&2; }

if [ "$#" -ne 1 ] || [ -z "$1" ]; then
	say "usage: plots/render.sh RUN_DIR"
	exit 2
fi
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P) || exit 2
if [ ! -d "$1" ]; then
	say "no such run folder: $1"
	exit 2
fi
# Absolute paths: gnuplot treats a file name starting with '<' or '|' as a command.
dir=$(cd -- "$1" && pwd -P) || exit 2
results="$dir/results.json"
if [ ! -f "$results" ]; then
	say "$1: no results.json in this folder"
	exit 2
fi

JQ=${JQ:-jq}
GNUPLOT=${GNUPLOT:-gnuplot}
if ! command -v "$JQ" >/dev/null 2>&1; then
	say "warning: jq not found (Debian package jq): tables and plots skipped; results kept in $results"
	exit 0
fi
have_gnuplot=1
if ! command -v "$GNUPLOT" >/dev/null 2>&1; then
	say "warning: gnuplot not found (Debian package gnuplot-nox): plots skipped, tables still written"
	have_gnuplot=0
fi

jqf() { "$JQ" -L "$here" "$@"; }

# Is this a flagbench results file?  jq names the line and column of a syntax error.
if ! err=$("$JQ" empty "$results" 2>&1); then
	say "$results: not valid JSON: ${err#parse error: }"
	exit 2
fi
schema=$("$JQ" -r 'if type == "object" and (.schema | type) == "string" then .schema else "(none)" end' "$results")
case "$schema" in
flagbench-results/1) ;;
flagbench-results/*) say "warning: $results: schema $schema, this renderer knows flagbench-results/1: rendering what matches" ;;
*)
	say "$results: not a flagbench results file (schema \"$schema\", expected \"flagbench-results/1\")"
	exit 2
	;;
esac
if ! "$JQ" -e '(.cells | type) == "array"' "$results" >/dev/null 2>&1; then
	say "$results: no cells array"
	exit 2
fi

tmp=$(mktemp -d "$dir/.render.XXXXXX") || { say "cannot write in $dir"; exit 2; }
trap 'rm -rf -- "$tmp"' EXIT
mkdir -p -- "$tmp/plots" "$tmp/tables" "$tmp/data"
# emulated cells become families of their own (plots/emulated.jq)
if ! "$JQ" -f "$here/emulated.jq" "$results" >"$tmp/results.json" 2>"$tmp/err"; then
	say "$results: $(cat "$tmp/err")"
	exit 2
fi
results="$tmp/results.json"
rc=0
: >"$tmp/produced"

# One bar or heat plot: jq writes its parameters (first line) and data, gnuplot draws
# OUT.svg and OUT.png.  Gnuplot's chatter is kept and shown only when it fails.
plot_one() { # family-index slug kind
	local fam=$1 slug=$2 kind=$3 out data has a b c d e f g st
	data="$tmp/data/$slug-$kind.tsv"
	out="$tmp/plots/$slug-$kind"
	if ! jqf -r --argjson fam "$fam" --arg plot "$kind" --arg part both -f "$here/plotdata.jq" \
		"$results" >"$data.all" 2>"$tmp/err"; then
		say "$slug: $kind data failed: $(cat -- "$tmp/err")"
		return 1
	fi
	tail -n +2 -- "$data.all" >"$data"
	if [ "$kind" = heatmap ]; then
		IFS=$'\t' read -r has a b c d e <"$data.all"
		[ "$has" = 1 ] || return 0
		"$GNUPLOT" -c "$here/heatmap.gp" "$data" "$out" "$a" "$b" "$c" "$d" "$e" >"$tmp/err" 2>&1
		st=$?
	else
		IFS=$'\t' read -r has a b c d e f g <"$data.all"
		[ "$has" = 1 ] || return 0
		"$GNUPLOT" -c "$here/bars.gp" "$data" "$out" "$a" "$b" "$c" "$d" "$e" "$f" "$g" >"$tmp/err" 2>&1
		st=$?
	fi
	if [ "$st" -ne 0 ] || [ ! -s "$out.svg" ] || [ ! -s "$out.png" ]; then
		say "$slug: $kind plot failed:"
		sed 's/^/  /' -- "$tmp/err" >&2
		rm -f -- "$out.svg" "$out.png"
		return 1
	fi
	printf 'plots/%s-%s.svg\nplots/%s-%s.png\n' "$slug" "$kind" "$slug" "$kind" >>"$tmp/produced"
}

table_one() { # family-index table format file
	local mode=-r
	[ "$3" = md ] && mode=-j # the Markdown text ends with its own newline
	if ! jqf "$mode" --argjson fam "$1" --arg table "$2" --arg format "$3" -f "$here/tables.jq" \
		"$results" >"$tmp/tables/$4" 2>"$tmp/err"; then
		say "$4: table failed: $(cat -- "$tmp/err")"
		return 1
	fi
}

if ! jqf -r -f "$here/families.jq" "$results" >"$tmp/families" 2>"$tmp/err"; then
	say "$results: $(cat -- "$tmp/err")"
	exit 2
fi
while IFS=$'\t' read -r fam slug; do
	table_one "$fam" throughput md "$slug.md" || rc=1
	table_one "$fam" throughput csv "$slug.csv" || rc=1
	table_one "$fam" speedup md "$slug-speedup.md" || rc=1
	table_one "$fam" compilers md "$slug-compilers.md" || rc=1
	if [ "$have_gnuplot" = 1 ]; then
		for kind in throughput heatmap speedup compilers; do
			plot_one "$fam" "$slug" "$kind" || rc=1
		done
	fi
done <"$tmp/families"

note=""
[ "$have_gnuplot" = 1 ] || note="Plots were not drawn: gnuplot is not installed (Debian package gnuplot-nox)."
[ "$rc" = 0 ] || note="${note:+$note }Some plots or tables failed to render; see the messages of plots/render.sh."
if ! jqf -r --rawfile produced "$tmp/produced" --arg note "$note" -f "$here/index.jq" \
	"$results" >"$tmp/index.html" 2>"$tmp/err"; then
	say "index.html failed: $(cat -- "$tmp/err")"
	exit 1
fi

# Into place: each folder is replaced whole, so nothing stale survives a re-render.
for d in tables plots; do
	rm -rf -- "$dir/.$d.old"
	if [ -e "$dir/$d" ]; then mv -- "$dir/$d" "$dir/.$d.old" || exit 1; fi
	mv -- "$tmp/$d" "$dir/$d" || exit 1
	rm -rf -- "$dir/.$d.old"
done
mv -- "$tmp/index.html" "$dir/index.html" || exit 1
[ "$rc" = 0 ] && [ -z "${FLAGBENCH_RENDER_QUIET:-}" ] && say "rendered $dir/index.html"
exit "$rc"
