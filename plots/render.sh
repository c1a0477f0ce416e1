#!/usr/bin/env bash
# plots/render.sh: the tables, plots and index.html of one run, from its results.json alone.
#   plots/render.sh RUN_DIR
# The model (`flagbench tables`) makes every table and number; this script lays them out:
# RUN_DIR/tables/<family>.md (throughput), <family>-<table>.md (speedup, against,
# compilers, ...), <family>.csv; RUN_DIR/plots/<family>-<table>.{svg,png} and
# <family>-heatmap.{svg,png} drawn by gnuplot from `--format tsv`; RUN_DIR/index.html
# laid out by plots/index.jq from `--format json`.
# Everything is built in a temporary folder inside RUN_DIR and moved into place at the
# end, so a failed render leaves the previous one; rendering twice gives the same files.
#
# Exit status: 0 rendered, or skipped with a warning because jq or gnuplot is missing
# (results.json is never touched); 1 some table or plot failed; 2 bad usage or not a
# flagbench results file.  FLAGBENCH, JQ and GNUPLOT in the environment name other
# programs (default: build/flagbench of this tree); FLAGBENCH_RENDER_QUIET=1 drops the
# closing "rendered" line.
#
# Paths are always quoted and passed as arguments: to flagbench and jq as arguments, to
# gnuplot with -c (its ARGs are strings, never parsed as code).  Nothing here uses eval.
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

FLAGBENCH=${FLAGBENCH:-$here/../build/flagbench}
JQ=${JQ:-jq}
GNUPLOT=${GNUPLOT:-gnuplot}
if ! command -v "$JQ" >/dev/null 2>&1; then
	say "warning: jq not found (Debian package jq): tables and plots skipped; results kept in $results"
	exit 0
fi
if [ ! -x "$FLAGBENCH" ]; then
	say "$FLAGBENCH not found: build it with make"
	exit 2
fi
have_gnuplot=1
if ! command -v "$GNUPLOT" >/dev/null 2>&1; then
	say "warning: gnuplot not found (Debian package gnuplot-nox): plots skipped, tables still written"
	have_gnuplot=0
fi

tmp=$(mktemp -d "$dir/.render.XXXXXX") || { say "cannot write in $dir"; exit 2; }
trap 'rm -rf -- "$tmp"' EXIT
mkdir -p -- "$tmp/plots" "$tmp/tables" "$tmp/data"
# The model: flagbench checks the file (bad JSON with line and column, the schema).
"$FLAGBENCH" tables --format json -- "$results" >"$tmp/model.json" || exit 2
rc=0
: >"$tmp/produced"

# Every table's data and Markdown from one model each (tables --out-dir): a
# flagbench per table built the model 30 times for the quick fixture (now 6).
data_ok=1 md_ok=1
if [ "$have_gnuplot" = 1 ] && ! "$FLAGBENCH" tables --format tsv --out-dir "$tmp/data" -- "$results" 2>"$tmp/err"; then
	say "plot data failed: $(cat -- "$tmp/err")"
	data_ok=0 rc=1
fi
if ! "$FLAGBENCH" tables --format md --out-dir "$tmp/md" -- "$results" 2>"$tmp/err"; then
	say "tables failed: $(cat -- "$tmp/err")"
	md_ok=0 rc=1
fi

# One plot of one table: flagbench wrote its data and parameters (first line), gnuplot
# draws OUT.svg and OUT.png.  Gnuplot's chatter is kept and shown only when it fails.
plot_one() { # slug table script out
	local data="$tmp/data/$1-$2.tsv" out="$tmp/plots/$4" hash has nc nr hl ti yl st
	[ "$data_ok" = 1 ] || return 1
	if [ ! -s "$data" ]; then
		say "$1: $2 data failed: no $data"
		return 1
	fi
	IFS=$'\t' read -r hash has nc nr hl ti yl <"$data"
	[ "$has" = 1 ] || return 0 # nothing measured: no plot
	if [ "$3" = heatmap ]; then
		"$GNUPLOT" -c "$here/heatmap.gp" "$data" "$out" "$nc" "$nr" "$ti" >"$tmp/err" 2>&1
	else
		"$GNUPLOT" -c "$here/bars.gp" "$data" "$out" "$nc" "$nr" "$hl" "$ti" "$yl" >"$tmp/err" 2>&1
	fi
	st=$?
	if [ "$st" -ne 0 ] || [ ! -s "$out.svg" ] || [ ! -s "$out.png" ]; then
		say "$4: plot failed:"
		sed 's/^/  /' -- "$tmp/err" >&2
		rm -f -- "$out.svg" "$out.png"
		return 1
	fi
	printf 'plots/%s.svg\nplots/%s.png\n' "$4" "$4" >>"$tmp/produced"
}

table_one() { # slug table format file
	if [ "$3" = md ] && [ -n "$2" ]; then
		[ "$md_ok" = 1 ] && mv -- "$tmp/md/$1-$2.md" "$tmp/tables/$4" && return 0
		say "$4: table failed"
		return 1
	fi
	if ! "$FLAGBENCH" tables --format "$3" --family "$1" ${2:+--table "$2"} --out "$tmp/tables/$4" -- "$results" 2>"$tmp/err"; then
		say "$4: table failed: $(cat -- "$tmp/err")"
		return 1
	fi
}

if ! "$JQ" -r '.families[] | .slug as $s | .tables[] | [$s, .name] | @tsv' "$tmp/model.json" >"$tmp/tables.tsv" 2>"$tmp/err"; then
	say "$results: $(cat -- "$tmp/err")"
	exit 2
fi
while IFS=$'\t' read -r slug table; do
	file=$slug-$table
	[ "$table" = throughput ] && file=$slug && { table_one "$slug" "" csv "$slug.csv" || rc=1; }
	table_one "$slug" "$table" md "$file.md" || rc=1
	if [ "$have_gnuplot" = 1 ]; then
		plot_one "$slug" "$table" bars "$slug-$table" || rc=1
		[ "$table" = throughput ] && { plot_one "$slug" "$table" heatmap "$slug-heatmap" || rc=1; }
	fi
done <"$tmp/tables.tsv"

note=""
[ "$have_gnuplot" = 1 ] || note="Plots were not drawn: gnuplot is not installed (Debian package gnuplot-nox)."
[ "$rc" = 0 ] || note="${note:+$note }Some plots or tables failed to render; see the messages of plots/render.sh."
if ! "$JQ" -r -L "$here" --slurpfile model "$tmp/model.json" --rawfile produced "$tmp/produced" --arg note "$note" \
	--rawfile css "$here/page.css" -f "$here/index.jq" "$results" >"$tmp/index.html" 2>"$tmp/err"; then
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
