#!/usr/bin/env bash
# ci/nightly.sh PROFILE: one machine's nightly benchmark, as each job of
# .github/workflows/nightly.yml runs it (and as tests/e2e/nightly.bats runs
# it here in dry mode).
#
#   1. flagbench run --cpu PROFILE --suite nightly   (the run folder keeps its binaries)
#   2. flagbench compare --baseline nightly: the run against the stored
#      baseline of PROFILE.  GitHub-hosted runners (profile host) gate on
#      instruction counts, which do not swing with the neighbours the way
#      time does (10-20 % there); self-hosted machines gate on time, and
#      every suspect cell is measured again beside the baseline's binaries
#      (--confirm) before it may fail the job, at the level that keeps the
#      chance of a false alarm per night at NIGHTLY_ALARM_RATE (--alarm-rate).
#   3. the Markdown table appended to $GITHUB_STEP_SUMMARY (when set), the
#      comparison in RUN/compare.json and the outcome in RUN/nightly.json
#      (which the publish job reads to decide whether the run becomes the
#      new baseline).
#
# Settings (environment):
#   FLAGBENCH           the harness (default: build/flagbench, built with make)
#   NIGHTLY_SUITE       suite (default nightly)
#   NIGHTLY_OUT         run folder (default results/nightly-PROFILE; replaced)
#   NIGHTLY_BASELINES   baselines folder (default baselines)
#   NIGHTLY_BASELINE    baseline name (default nightly)
#   NIGHTLY_METRIC      time | instructions (default: instructions for host, time otherwise)
#   NIGHTLY_THRESHOLD   percent (default 0.5 for instructions, 3 for time)
#   NIGHTLY_CONFIRM     rounds of confirmation for the time metric (default 10)
#   NIGHTLY_ALARM_RATE  percent: the chance that the confirmation fails a night of
#                       identical builds (compare --alarm-rate; default 1)
#   NIGHTLY_DRY=1       dry mode: flagbench run --dry-run --no-render (mock executor, no compiler),
#                       time metric, no confirmation: the plumbing end to end
#   NIGHTLY_SAVE=1      also store the run as the baseline when it passed or had none
#                       (in CI the publish job does this, for every machine at once)
# Exit: 0 passed (or no baseline yet), 1 a cell slower or failed, 2 bad usage or input.
set -u -o pipefail

say() { printf 'flagbench: %s\n' "$*" >&2; }

if [ "$#" -ne 1 ] || [ -z "$1" ] || [ "${1#-}" != "$1" ]; then
    say "usage: ci/nightly.sh PROFILE"
    exit 2
fi
profile=$1
root=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P) || exit 2
suite=${NIGHTLY_SUITE:-nightly}
out=${NIGHTLY_OUT:-$root/results/nightly-$profile}
baselines=${NIGHTLY_BASELINES:-$root/baselines}
name=${NIGHTLY_BASELINE:-nightly}
dry=${NIGHTLY_DRY:-0}
if [ -n "${NIGHTLY_METRIC:-}" ]; then
    metric=$NIGHTLY_METRIC
elif [ "$profile" = host ] && [ "$dry" != 1 ]; then
    metric=instructions
else
    metric="time"
fi
case "$metric" in
instructions) threshold=${NIGHTLY_THRESHOLD:-0.5} ;;
time) threshold=${NIGHTLY_THRESHOLD:-3} ;;
*) say "NIGHTLY_METRIC must be time or instructions, not '$metric'"; exit 2 ;;
esac
confirm=${NIGHTLY_CONFIRM:-10}
alarm_rate=${NIGHTLY_ALARM_RATE:-1}

fb=${FLAGBENCH:-}
if [ -z "$fb" ]; then
    make -C "$root" --no-print-directory build/flagbench >&2 || exit 2
    fb=$root/build/flagbench
fi

summary() {
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat >> "$GITHUB_STEP_SUMMARY"; else cat; fi
}

# 1. the run
rm -rf -- "$out"
run_args=(run --cpu "$profile" --suite "$suite" --out "$out")
[ "$dry" = 1 ] && run_args+=(--dry-run --no-render)
"$fb" "${run_args[@]}" >&2
run_rc=$?
if [ "$run_rc" -ne 0 ] && [ "$run_rc" -ne 1 ] || [ ! -f "$out/results.json" ]; then
    say "the nightly run failed (exit $run_rc)"
    printf '### nightly %s: the run failed (exit %s)\n' "$profile" "$run_rc" | summary
    exit 2
fi

# 2. the comparison with this profile's baseline
cmp_rc=0
status=passed
if [ -f "$baselines/$profile/$name/results.json" ]; then
    cmp_args=(compare --baseline "$name" --baselines-dir "$baselines" "$out"
              --metric "$metric" --threshold "$threshold" --alarm-rate "$alarm_rate"
              --format md --json-out "$out/compare.json")
    [ "$metric" = time ] && [ "$dry" != 1 ] && [ "$confirm" -gt 0 ] && cmp_args+=(--confirm "$confirm")
    {
        printf '## nightly %s (%s gate)\n\n' "$profile" "$metric"
        "$fb" "${cmp_args[@]}"
        echo $? > "$out/.compare-rc"
    } | summary
    cmp_rc=$(cat "$out/.compare-rc" 2>/dev/null || echo 2)
    rm -f -- "$out/.compare-rc"
    case "$cmp_rc" in
    0) ;;
    1) status=slower ;;
    *) status=error ;;
    esac
else
    status=no_baseline
    printf '## nightly %s\n\nno baseline %s for cpu profile %s yet: this run becomes it\n' \
        "$profile" "$name" "$profile" | summary
fi
[ "$run_rc" -eq 1 ] && [ "$status" = passed ] && status=cells_failed

# 3. the outcome, for the publish job
jq -n --arg profile "$profile" --arg metric "$metric" --arg status "$status" \
    --argjson run_exit "$run_rc" --argjson compare_exit "$cmp_rc" --argjson threshold "$threshold" \
    '{profile: $profile, metric: $metric, threshold_percent: $threshold, status: $status,
      run_exit: $run_exit, compare_exit: $compare_exit}' > "$out/nightly.json"

if [ "${NIGHTLY_SAVE:-0}" = 1 ] && { [ "$status" = passed ] || [ "$status" = no_baseline ]; }; then
    "$fb" baseline save "$out" --dir "$baselines" --name "$name" >&2 || exit 2
fi
say "nightly $profile: $status"
case "$status" in
passed | no_baseline) exit 0 ;;
error) exit 2 ;;
*) exit 1 ;;
esac
