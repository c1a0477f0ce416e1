#!/usr/bin/env bash
# ci/slurm/submit.sh: one flagbench run spread over a Slurm cluster's nodes
# of one CPU model: a job array of N shards (ci/slurm/shard.sbatch, one task
# per shard, each on a node of its own, --exclusive), and the join
# (ci/slurm/join.sbatch) as a job that starts when every shard ended well
# (--dependency=afterok).  Prints the join's job id on stdout.
#
# usage: ci/slurm/submit.sh --shards N --constraint FEATURE --out DIR
#            [--suite S] [--cpu PROFILE] [--partition P] [--time T] [--no-render] [-- RUN_OPTION...]
#   --constraint  the node feature of the CPU model (slurm.conf NodeName ... Feature=):
#                 every shard on the same model, or join refuses them
#   --out         a folder every node sees (a shared file system): shard-K/ and joined/
#   after --       more `flagbench run` options for every shard (--dry-run, --runs 5)
# The checkout this script lies in is built first (make build/flagbench;
# FLAGBENCH names another build) and must be on the shared file system too.  Exit 0 submitted, 2 bad usage or
# a refused submission.
set -u -o pipefail

say() { printf 'flagbench: %s\n' "$*" >&2; }
usage() {
    say "usage: ci/slurm/submit.sh --shards N --constraint FEATURE --out DIR [--suite S] [--cpu PROFILE] [--partition P] [--time T] [--no-render] [-- RUN_OPTION...]"
    exit 2
}

root=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P) || exit 2
shards="" constraint="" out="" suite=quick cpu=host partition="" limit="" render=1
while [ "$#" -gt 0 ]; do
    case "$1" in
    --shards) shards=${2:-}; shift 2 || usage ;;
    --constraint) constraint=${2:-}; shift 2 || usage ;;
    --out) out=${2:-}; shift 2 || usage ;;
    --suite) suite=${2:-}; shift 2 || usage ;;
    --cpu) cpu=${2:-}; shift 2 || usage ;;
    --partition) partition=${2:-}; shift 2 || usage ;;
    --time) limit=${2:-}; shift 2 || usage ;;
    --no-render) render=0; shift ;;
    --) shift; break ;;
    *) say "unknown option '$1'"; usage ;;
    esac
done
case "$shards" in '' | *[!0-9]* | 0) say "--shards N: a number of shards, 1 or more"; usage ;; esac
[ -n "$constraint" ] || { say "--constraint FEATURE: the node feature of one CPU model"; usage; }
[ -n "$out" ] || { say "--out DIR: where the shards and the joined run go"; usage; }
command -v sbatch >/dev/null || { say "sbatch not found: Slurm's client (Debian: slurm-client)"; exit 2; }
fb=${FLAGBENCH:-}
if [ -z "$fb" ]; then
    make -C "$root" --no-print-directory build/flagbench >&2 || exit 2
    fb=$root/build/flagbench
fi
mkdir -p -- "$out/logs" || exit 2
out=$(cd -- "$out" && pwd -P) || exit 2

run_args=$(printf '%s\n' "$@")
export FB_BIN="$fb" FB_OUT="$out" FB_SHARDS="$shards" FB_SUITE="$suite" FB_CPU="$cpu" FB_RUN_ARGS="$run_args" FB_RENDER="$render"
common=(--parsable --export=ALL)
[ -n "$partition" ] && common+=(--partition "$partition")
[ -n "$limit" ] && common+=(--time "$limit")
array=$(sbatch "${common[@]}" --array "1-$shards" --exclusive --constraint "$constraint" \
    --output "$out/logs/shard-%a.log" "$root/ci/slurm/shard.sbatch") || { say "the shards were not submitted"; exit 2; }
array=${array%%;*}
joined=$(sbatch "${common[@]}" --dependency "afterok:$array" --kill-on-invalid-dep=yes \
    --output "$out/logs/join.log" "$root/ci/slurm/join.sbatch") || { say "the join was not submitted"; exit 2; }
joined=${joined%%;*}
say "shards: job array $array (1-$shards, --constraint $constraint); join: job $joined once all ended well; results in $out/joined"
echo "$joined"
