#!/bin/bash
# check-layers.sh [ROOT]: the harness's includes point down its layers.
#
# harness/<layer>/ folders, lowest first (the Makefile's LAYERS); every
# include of a harness header names its folder ("pipeline/plan.h"); a file
# includes only headers of its own layer or of the layers below it, and no
# two modules (a .c/.h pair) include each other through any chain.  Prints
# each violation as FILE:LINE: reason and exits 1; 0 when there is none.
set -u
ROOT="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
H="$ROOT/harness"
LAYERS=(core system checks config pipeline results analysis driver report cmd)
declare -A RANK
for i in "${!LAYERS[@]}"; do RANK[${LAYERS[$i]}]=$i; done
TOP=${#LAYERS[@]} # harness/main.c and meter_main.c

[ -d "$H" ] || { echo "flagbench: check-layers: no harness/ under $ROOT" >&2; exit 2; }
bad=0
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT

# the layer's rank of a path under harness/ into VAR (empty: not a layer);
# no subshell: the check runs in make test's fast tier and in layers.bats
rank_into() { # VAR PATH
    case "$2" in
    */*) printf -v "$1" '%s' "${RANK[${2%%/*}]:-}" ;;
    *) printf -v "$1" '%s' "$TOP" ;;
    esac
}

files=$(find "$H" -name '*.[ch]' | sort)
while IFS= read -r file; do
    rel="${file#"$H"/}"
    rank_into from "$rel"
    if [ -z "$from" ]; then
        echo "harness/$rel: folder ${rel%%/*} is not a layer (${LAYERS[*]})"
        bad=1
    fi
done <<<"$files"

# every quoted include of every file, by one grep: FILE:LINE:TEXT
while IFS= read -r hit; do
    file="${hit%%:*}"
    rest="${hit#*:}"
    line="${rest%%:*}"
    inc="${rest#*\"}"
    inc="${inc%%\"*}"
    rel="${file#"$H"/}"
    rank_into from "$rel"
    [ -n "$from" ] || continue
    mod="${rel%.*}"
    if [ ! -f "$H/$inc" ]; then
        # a header beside the file but named bare: not by path
        if [ -f "${file%/*}/$inc" ]; then
            dir=.
            [[ "$rel" == */* ]] && dir="${rel%/*}"
            echo "harness/$rel:$line: \"$inc\" must be included by path from harness/ (\"$dir/$inc\")"
            bad=1
        fi
        continue
    fi
    rank_into to "$inc"
    if [ "$to" -gt "$from" ]; then
        echo "harness/$rel:$line: includes $inc, a layer above (${inc%%/*} over ${rel%%/*})"
        bad=1
    fi
    [ "${inc%.h}" = "$mod" ] || echo "${inc%.h} $mod" >>"$edges"
done < <(xargs -d '\n' grep -n -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' <<<"$files")

# every module with itself too, so tsort knows it; a loop is a cycle
loops=$( { cat "$edges"; find "$H" -name '*.[ch]' | sed -E "s|^$H/||; s/\.[ch]$//" | awk '{print $1, $1}'; } |
    tsort 2>&1 >/dev/null | grep -v 'input contains a loop' | sed 's/^tsort: //')
if [ -n "$loops" ]; then
    echo "include cycle between modules: $(echo "$loops" | tr '\n' ' ')"
    bad=1
fi
if [ "$bad" = 0 ]; then
    echo "layers: $(find "$H" -name '*.[ch]' | wc -l) files, includes point down (${LAYERS[*]}), no cycle"
fi
exit "$bad"
