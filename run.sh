#!/usr/bin/env bash
# flagbench's main job: installs what is missing, builds the harness, runs a
# suite (which renders its tables and plots), and ends with the answers and
# the run folder.
#   ./run.sh [--cpu PROFILE] [--suite SUITE] [--out DIR] [any `flagbench run` option]
# Defaults: --cpu host --suite quick --out results/<time>-<suite>-<cpu>.
set -uo pipefail
here=$PWD # --family-dir is relative to where run.sh was called
cd "$(dirname "$0")" || exit 2

scripts/deps.sh run || exit 2
make -s build/flagbench build/flagbench-meter >&2 || { echo "flagbench: the harness does not build" >&2; exit 2; }

cpu=host suite=quick out="" suite_args=() # no --suite: flagbench picks (quick, or only the --family-dir families)
args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --cpu|--suite|--out|-o|--resume|--family-dir)
            [ $# -ge 2 ] || { echo "flagbench: $1 needs a value" >&2; exit 2; } ;;&
        --cpu) cpu=$2; shift 2 ;;
        --cpu=*) cpu=${1#--cpu=}; shift ;;
        --suite) suite=$2; suite_args=(--suite "$2"); shift 2 ;;
        --suite=*) suite=${1#--suite=}; suite_args=(--suite "$suite"); shift ;;
        --out|-o) out=$2; shift 2 ;;
        --out=*) out=${1#--out=}; shift ;;
        --resume) out=$2; args+=("$1" "$2"); shift 2 ;;
        --family-dir) d=$2; [[ "$d" = /* ]] || d="$here/$d"; args+=("--family-dir" "$d"); shift 2 ;;
        --family-dir=*) d=${1#--family-dir=}; [[ "$d" = /* ]] || d="$here/$d"; args+=("--family-dir" "$d"); shift ;;
        --help|-h) build/flagbench run --help; exit 0 ;;
        *) args+=("$1"); shift ;;
    esac
done
# the projects suite builds Debian source packages: fetched once (scripts/project-sources.sh)
if [ "$(basename "$suite" .json)" = projects ]; then scripts/deps.sh projects || exit 2; fi
if [ -z "$out" ]; then
    out="results/$(date -u +%Y%m%dT%H%M%SZ)-$(basename "$suite" .json)-$(basename "$cpu" .json)"
fi

# flagbench run renders the tables, plots and index.html itself (plots/render.sh).
# Its stdout (the answers) goes to a file, kept as summary.txt, and ends this script.
# flagbench makes the run folder only once the options and configs are good,
# so bad usage leaves no folder behind: the table waits in a temporary file.
summary=$(mktemp) || exit 2
trap 'rm -f "$summary"' EXIT
build/flagbench run --cpu "$cpu" "${suite_args[@]}" --out "$out" "${args[@]}" >"$summary"
rc=$?
[ "$rc" = 2 ] && exit 2
[ -d "$out" ] && cp "$summary" "$out/summary.txt"

# the run's own end: the answers of every family, then where the tables,
# plots and page are (every table first with -v)
cat "$summary"
[ -f "$out/results.json" ] && printf '\nrun folder: %s\n' "$out"
exit "$rc"
