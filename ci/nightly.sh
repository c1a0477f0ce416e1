#!/usr/bin/env bash
# ci/nightly.sh PROFILE: one machine's nightly benchmark, as each job of
# .github/workflows/nightly.yml runs it (and as tests/e2e/nightly.bats runs
# it here in dry mode).
#
#   1. flagbench run --cpu PROFILE --suite nightly   (the run folder keeps its binaries)
#   2. flagbench compare --baseline nightly: the run against the stored
#      baseline of PROFILE (ci/gate.jq: a same binary slower with nothing
#      recorded changed is left to the history).  GitHub-hosted runners
#      (profile host) gate on instruction counts, which do not swing with
#      the neighbours the way time does (10-20 % there); self-hosted
#      machines gate on time, and every suspect cell is measured again
#      beside the baseline's binaries (--confirm) before it may fail the
#      job, at the level that keeps the chance of a false alarm per night
#      at NIGHTLY_ALARM_RATE (--alarm-rate); so is every cell whose binary
#      changed and whose verdict is not same, faster ones too, wherever both
#      runs kept their binaries.  Between the two runs the machine's move
#      is measured by the cells whose program did not change and taken out
#      of every ratio (docs/comparison.md).
#   3. the history (docs/history.md): the run imported into NIGHTLY_HISTORY,
#      `flagbench history changes` over every night of the profile; a
#      slowdown that starts on tonight's night is confirmed before it fails
#      the job: a new binary by measuring the previous night's kept binaries
#      (stored baseline NIGHTLY_PREVIOUS) beside tonight's (compare
#      --confirm), a new library by running the same binary on the
#      previous night's kept libraries beside tonight's, a same binary
#      with no library changed (kernel, microcode) as it stands, since side
#      by side both would run on tonight's system.  Before that, every cell
#      whose binary or libraries changed since the previous night is
#      measured beside the previous night's (compare --confirm-changed
#      --record, RUN/beside.json): the history
#      takes that measurement as the step at tonight's night, already
#      confirmed.  RUN/changes.json keeps the change points.
#   4. the Markdown table appended to $GITHUB_STEP_SUMMARY (when set), the
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
#   NIGHTLY_BESIDE_ROUNDS  rounds of a new binary beside the previous night's (default 20,
#                       up to 3 times that while the answer is open: on the 2-vCPU VM here 10
#                       rounds told a 5 % step apart in one fp_mul cell and 30 in the other)
#   NIGHTLY_ALARM_RATE  percent: the chance that the confirmation fails a night of
#                       identical builds (compare --alarm-rate; default 1)
#   NIGHTLY_SHARD=K/N   one shard of a fleet (README.md, "A run over several machines"): step 1
#                       only, flagbench run --shard K/N into NIGHTLY_OUT; exit 0 when the shard ran
#   NIGHTLY_SHARDS_FROM  a folder of the N shards' run folders (the fleet's artifacts): step 1 is
#                       flagbench join of them into NIGHTLY_OUT, then the gate, history and outcome
#   NIGHTLY_DRY=1       dry mode: flagbench run --dry-run --no-render (mock executor, no compiler),
#                       time metric, the gate's confirmation through the mock (compare --dry-run),
#                       no history confirmation: the plumbing end to end
#   NIGHTLY_SAVE=1      also store the run as the baseline when it passed or had none,
#                       and as the previous night always
#                       (in CI the publish job does this, for every machine at once)
#   NIGHTLY_HISTORY     the history file (default results/history.db)
#   NIGHTLY_NIGHTS      the kept nights of PROFILE, results.json copies (default: history/PROFILE
#                       beside NIGHTLY_HISTORY, where ci/publish.sh keeps them): read as this
#                       host's earlier runs (run --earlier-runs), when the folder exists
#   NIGHTLY_EARLIER_OF  host | cpu: whose kept nights count as this machine's (run --earlier-runs-of;
#                       default cpu on a GitHub-hosted runner, RUNNER_ENVIRONMENT=github-hosted, else host)
#   NIGHTLY_PREVIOUS    the baseline name of the previous night (default previous)
#   NIGHTLY_HISTORY_RATE  percent: the history's false-alarm rate (history --alarm-rate; default 1)
# Exit: 0 passed (or no baseline yet), 1 a cell slower or failed or a confirmed step
# on tonight's night (status step), 2 bad usage or input.
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
beside_rounds=${NIGHTLY_BESIDE_ROUNDS:-20}
alarm_rate=${NIGHTLY_ALARM_RATE:-1}

fb=${FLAGBENCH:-}
if [ -z "$fb" ]; then
    make -C "$root" --no-print-directory build/flagbench >&2 || exit 2
    fb=$root/build/flagbench
fi

summary() {
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat >> "$GITHUB_STEP_SUMMARY"; else cat; fi
}

history=${NIGHTLY_HISTORY:-$root/results/history.db}
# the nights the publish job keeps (ci/publish.sh): this machine's earlier
# nights, whose ratios' moves widen tonight's intervals (--earlier-runs;
# the run folder is replaced every night, so none lies beside it)
nights=${NIGHTLY_NIGHTS:-$(dirname -- "$history")/history/$profile}
# a GitHub-hosted runner is a new VM every night under a new hostname: the
# nights of any host with this CPU model count as this machine's
# (--earlier-runs-of cpu), so the intervals carry the moves from VM to VM
if [ "${RUNNER_ENVIRONMENT:-}" = github-hosted ]; then earlier_of_default=cpu; else earlier_of_default=host; fi
earlier_of=${NIGHTLY_EARLIER_OF:-$earlier_of_default}

# 1. the run: whole, one shard of it, or the shards joined
rm -rf -- "$out"
if [ -n "${NIGHTLY_SHARDS_FROM:-}" ]; then
    shards=()
    for dir in "$NIGHTLY_SHARDS_FROM"/*/; do
        [ -f "$dir/results.json" ] && shards+=("${dir%/}")
    done
    if [ "${#shards[@]}" -eq 0 ]; then
        say "no shard run folders under $NIGHTLY_SHARDS_FROM"
        exit 2
    fi
    join_args=(join "${shards[@]}" --out "$out")
    [ "$dry" = 1 ] && join_args+=(--no-render)
    "$fb" "${join_args[@]}" >&2 || { say "the shards do not join (above)"; exit 2; }
    # a shard's failed cells fail the night as a whole run's would
    run_rc=$(jq '[.cells[] | select(.status | IN("build_failed", "wrong_output", "crashed", "timeout", "failed"))]
                 | if length > 0 then 1 else 0 end' "$out/results.json") || exit 2
else
    run_args=(run --cpu "$profile" --suite "$suite" --out "$out")
    [ -d "$nights" ] && run_args+=(--earlier-runs "$nights" --earlier-runs-of "$earlier_of")
    [ "$dry" = 1 ] && run_args+=(--dry-run --no-render)
    [ -n "${NIGHTLY_SHARD:-}" ] && run_args+=(--shard "$NIGHTLY_SHARD")
    "$fb" "${run_args[@]}" >&2
    run_rc=$?
fi
if [ "$run_rc" -ne 0 ] && [ "$run_rc" -ne 1 ] || [ ! -f "$out/results.json" ]; then
    say "the nightly run failed (exit $run_rc)"
    printf '### nightly %s: the run failed (exit %s)\n' "$profile" "$run_rc" | summary
    exit 2
fi

if [ -n "${NIGHTLY_SHARD:-}" ]; then
    say "nightly $profile: shard $NIGHTLY_SHARD in $out (exit $run_rc); the join gates the night"
    exit 0
fi

# 2. the comparison with this profile's baseline
cmp_rc=0
status=passed
if [ -f "$baselines/$profile/$name/results.json" ]; then
    cmp_args=(compare --baseline "$name" --baselines-dir "$baselines" "$out"
              --metric "$metric" --threshold "$threshold" --alarm-rate "$alarm_rate"
              --format md --json-out "$out/compare.json")
    # every cell whose binary changed and is not the same is measured
    # again beside the baseline's kept binary (--confirm: faster ones too,
    # since a machine that moved between the runs can make a slowdown look
    # faster), wherever both runs kept their binaries (RUN/bin); dry mode
    # through the mock executor
    if [ "$metric" = time ] && [ "$confirm" -gt 0 ]; then
        if [ -d "$out/bin" ] && [ -d "$baselines/$profile/$name/bin" ]; then
            cmp_args+=(--confirm "$confirm")
            [ "$dry" = 1 ] && cmp_args+=(--dry-run)
        else
            say "not confirming: $([ -d "$out/bin" ] && echo "the baseline" || echo "tonight's run") kept no binaries"
        fi
    fi
    {
        printf '## nightly %s (%s gate)\n\n' "$profile" "$metric"
        "$fb" "${cmp_args[@]}"
        echo $? > "$out/.compare-rc"
    } | summary
    cmp_rc=$(cat "$out/.compare-rc" 2>/dev/null || echo 2)
    rm -f -- "$out/.compare-rc"
    case "$cmp_rc" in
    0) ;;
    1)
        # the same binary slower with nothing recorded changed is the
        # machine's until the history says it holds (ci/gate.jq)
        gate=$(jq -c -f "$root/ci/gate.jq" "$out/compare.json" 2>/dev/null) || gate='{"fails": ["?"], "machine": []}'
        if [ "$(jq '(.fails | length) == 0 and (.machine | length) > 0' <<<"$gate")" = true ]; then
            printf '\nslower with the same binary and nothing recorded changed between the runs: %s; not failing the night: two runs cannot tell the machine'"'"'s state from a step, the history judges it (below)\n' \
                "$(jq -r '.machine | join(", ")' <<<"$gate")" | summary
        else
            status=slower
        fi
        ;;
    *) status=error ;;
    esac
else
    status=no_baseline
    printf '## nightly %s\n\nno baseline %s for cpu profile %s yet: this run becomes it\n' \
        "$profile" "$name" "$profile" | summary
fi
[ "$run_rc" -eq 1 ] && [ "$status" = passed ] && status=cells_failed

# 3. the history: change points over every night; tonight's slowdowns confirmed
previous=${NIGHTLY_PREVIOUS:-previous}
steps=0 confirmed=0
# every cell whose binary (or, the same binary, whose libraries) changed
# since the previous night is measured beside that night's binary (or kept
# libraries), in interleaved rounds, and the measurement
# recorded in tonight's results.json (compare --confirm-changed --record):
# the history takes it as the step's size at tonight's night, which the
# nights' noise cannot move (docs/history.md, measured steps)
if [ -f "$baselines/$profile/$previous/results.json" ] && [ "$dry" != 1 ] && [ "$metric" = time ] && [ "$confirm" -gt 0 ]; then
    "$fb" compare --baseline "$previous" --baselines-dir "$baselines" "$out" --metric time \
        --threshold "$threshold" --alarm-rate "$alarm_rate" --confirm "$beside_rounds" --confirm-changed --record \
        --format json > "$out/beside.json"
    [ "$?" -le 1 ] || say "the new binaries could not be measured beside the previous night's: the history has the nights alone"
fi
if "$fb" history import --db "$history" "$out" >&2; then
    "$fb" history changes --db "$history" --profile "$profile" --metric "$metric" \
        --alarm-rate "${NIGHTLY_HISTORY_RATE:-1}" --format json > "$out/changes.json"
    hist_rc=$?
    [ "$hist_rc" -le 1 ] || status=error
    run_id=$(jq -r '.run.id' "$out/results.json")
    # tonight's slowdowns: the change points that alarm tonight (a recorded
    # cause on this night; the machine's once held a second night:
    # driver/history.h history_alarm)
    tonight=$(jq -c '[.changes[] | select(.alarm and .direction == "slower")]' "$out/changes.json" 2>/dev/null || echo '[]')
    steps=$(jq length <<<"$tonight")
    if [ "$steps" -gt 0 ]; then
        {
            printf '\n### change points that alarm tonight (history, %s)\n\n' "$metric"
            jq -r '.[] | "- `\(.cell)`: \(.ratio * 1000 | round / 1000)x [\(.ci95[0] * 1000 | round / 1000)x, \(.ci95[1] * 1000 | round / 1000)x]; what changed: \(.cause.text)\(if .cause.kind == "machine" then " (held a second night)" else "" end)"' <<<"$tonight"
        } | summary
        # a step measured beside the previous night's binary is confirmed by that measurement
        binary_cells=$(jq -r '.[] | select(.cause.kind == "binary" and .measured == null) | .cell' <<<"$tonight")
        # a system step cannot be measured side by side: it stands
        confirmed=$(jq '[.[] | select(.cause.kind != "binary" or .measured != null)] | length' <<<"$tonight")
        if [ -n "$binary_cells" ]; then
            if [ -f "$baselines/$profile/$previous/results.json" ] && [ "$dry" != 1 ] && [ "$metric" = time ] && [ "$confirm" -gt 0 ]; then
                "$fb" compare --baseline "$previous" --baselines-dir "$baselines" "$out" --metric time \
                    --threshold "$threshold" --alarm-rate "$alarm_rate" --confirm "$confirm" \
                    --format json > "$out/confirm-previous.json"
                [ "$?" -le 1 ] || status=error
                while IFS= read -r cell; do
                    v=$(jq -r --arg c "$cell" '.cells[] | select(.id == $c) | .verdict' "$out/confirm-previous.json" 2>/dev/null)
                    say "history step in $cell: measured beside the previous night's binary: ${v:-not measured}"
                    [ "$v" = slower ] && confirmed=$((confirmed + 1))
                done <<<"$binary_cells"
            else
                # nothing to measure beside (no previous night kept, dry run, counts): the step stands
                confirmed=$((confirmed + $(grep -c . <<<"$binary_cells")))
            fi
        fi
        [ "$confirmed" -gt 0 ] && { [ "$status" = passed ] || [ "$status" = no_baseline ]; } && status=step
    fi
    # a step of the machine on tonight's night waits for a second night
    watched=$(jq -r --arg id "$run_id" '.changes[] | select(.night == $id and .direction == "slower" and (.alarm | not)) | .cell' \
        "$out/changes.json" 2>/dev/null)
    if [ -n "$watched" ]; then
        printf '\nwatched: a slower step on tonight'"'"'s night with nothing recorded changed (the machine): %s; it fails the night if it holds tomorrow\n' \
            "$(paste -sd, <<<"$watched" | sed 's/,/, /g')" | summary
    fi
    # what the history cannot see yet: a quiet night is not a proof
    seen=$(jq -r 'select(.seen_text != null) | "\nthe history ('"$metric"'): \(.seen_text)"' "$out/changes.json" 2>/dev/null)
    [ -z "$seen" ] || printf '%s\n' "$seen" | summary
else
    say "cannot import the run into the history $history"
    status=error
fi

# 4. the outcome, for the publish job
jq -n --arg profile "$profile" --arg metric "$metric" --arg status "$status" \
    --argjson run_exit "$run_rc" --argjson compare_exit "$cmp_rc" --argjson threshold "$threshold" \
    --argjson steps "$steps" --argjson confirmed "$confirmed" \
    '{profile: $profile, metric: $metric, threshold_percent: $threshold, status: $status,
      run_exit: $run_exit, compare_exit: $compare_exit, history_steps: $steps, history_confirmed: $confirmed}' > "$out/nightly.json"

if [ "${NIGHTLY_SAVE:-0}" = 1 ] && { [ "$status" = passed ] || [ "$status" = no_baseline ]; }; then
    "$fb" baseline save "$out" --dir "$baselines" --name "$name" >&2 || exit 2
fi
if [ "${NIGHTLY_SAVE:-0}" = 1 ] && [ "$status" != error ]; then
    "$fb" baseline save "$out" --dir "$baselines" --name "$previous" >&2 || exit 2
fi
say "nightly $profile: $status"
case "$status" in
passed | no_baseline) exit 0 ;;
error) exit 2 ;;
*) exit 1 ;;
esac
