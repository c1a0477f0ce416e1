#!/usr/bin/env bash
# bench/repeatability.sh [flagbench run options]: runs a suite (default: the
# quick one, as ./run.sh does) twice and says how well the first run predicts
# the second: the cells measured in both, the share whose figures (the run's
# statistic: the lower quartile by default, the median in older runs) agree
# within 5 % and within 2 %, the share of run-1 intervals that hold run 2's
# figure, and the cells that moved most.  The interval is the one the tables
# print (the rerun interval); the narrower interval of the statistic itself
# is counted beside it.  The load average before and after each run is
# printed too: on a shared machine it explains much of what moves.  Then
# what a run says inside itself: the answers' and gaps' verdicts the same
# in both runs (an answer that differs said apart where each run compared
# another two builds: a near-tie among three builds or more), the ratios within 3 % (and among the ratios whose interval
# is narrower than ±3 %), the verdicts that flipped by how far their
# intervals missed 1.00x, and the chance each real verdict gave of
# repeating (repeat_chance) against the share that did, and whether the
# ratios moved between the runs more than their intervals admit.  Earlier
# runs of the same binaries left in REPEAT_OUT (e0/, e1/: a user's
# results/ holds them) are read by each run's tables and widen the ratios
# that moved between them (results/ratio_drift.h); the last line says how
# many each run read.
#   FLAGBENCH=path (default build/flagbench)  REPEAT_OUT=dir (default a new /tmp folder)
#   REPEAT_ANALYZE=1 (compare REPEAT_OUT/run1 and run2 already there)
#   bench/repeatability.sh --precision 2
# A cell that shares its binary with another (same_binary_as) is counted once.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
fb=${FLAGBENCH:-build/flagbench}
if [ ! -x "$fb" ]; then
    make -s build/flagbench >&2 || { echo "flagbench: the harness does not build" >&2; exit 2; }
fi
command -v jq >/dev/null || { echo "flagbench: repeatability.sh needs jq" >&2; exit 2; }
out=${REPEAT_OUT:-$(mktemp -d /tmp/flagbench-repeat.XXXXXX)}
mkdir -p "$out" || exit 2

# REPEAT_ANALYZE=1: only the comparison, of REPEAT_OUT's run1 and run2 kept
# from earlier (e.g. two runs interleaved with another build's)
for i in 1 2; do
    [ "${REPEAT_ANALYZE:-0}" = 1 ] && break
    load0=$(cut -d' ' -f1 /proc/loadavg)
    t0=$(date +%s)
    "$fb" run --no-render --out "$out/run$i" "$@" >"$out/run$i.txt" 2>"$out/run$i.log"
    rc=$?
    if [ "$rc" = 2 ] || [ ! -f "$out/run$i/results.json" ]; then
        tail -5 "$out/run$i.log" >&2
        exit 2
    fi
    echo "run $i: $(( $(date +%s) - t0 ))s, exit $rc, load average $load0 before, $(cut -d' ' -f1 /proc/loadavg) after"
done

jq -n -r --slurpfile a "$out/run1/results.json" --slurpfile b "$out/run2/results.json" '
  # the figure: the statistic the run reports, the median in older files
  def fig: .time_s | (.value // .median);
  def measured: [.cells[] | select(.status == "ok" and .same_binary_as == null and fig != null)];
  # the printed interval: the rerun interval widened by the drift of run 1, or
  # (older files) the interval of the median
  (1 + ($a[0].run.drift.widen_percent // 0) / 100) as $w
  | def interval: .time_s | (.rerun // .ci // .ci95) | if . != null and .[0] != null then [.[0] / $w, .[1] * $w] else . end;
  def median_interval: .time_s | (.ci // .ci95);
  def pct: . * 1000 | round / 10;
  ($b[0] | measured | map({key: .id, value: .}) | from_entries) as $two
  | [$a[0] | measured[] | select($two[.id] != null)
     | . as $c | ($two[.id] | fig) as $m2 | (interval) as $iv | (median_interval) as $mi
     | {id, m1: fig, m2: $m2, runs1: (.time_s.runs | length),
        level: (.time_s.rerun_level // .time_s.ci_level),
        change: ($m2 / fig - 1),
        held: ($iv != null and $iv[0] != null and $iv[0] <= $m2 and $m2 <= $iv[1]),
        median_held: ($mi != null and $mi[0] != null and $mi[0] <= $m2 and $m2 <= $mi[1]),
        half: (if $iv != null and $iv[0] != null then ($iv[1] - $iv[0]) / 2 / fig else null end)}] as $p
  | ($p | length) as $n
  | if $n == 0 then "no cell was measured in both runs" else
    "statistic: \($a[0].run.statistic // "median") in run 1, \($b[0].run.statistic // "median") in run 2",
    "drift of the machine over run 1: \($a[0].run.drift.sd_percent // "none" | if type == "number" then "\(. * 100 | round / 100) % (intervals widened by \($a[0].run.drift.widen_percent * 100 | round / 100) %)" else . end), run 2: \($b[0].run.drift.sd_percent // "none" | if type == "number" then "\(. * 100 | round / 100) %" else . end)",
    "cells measured in both runs: \($n)",
    "within 5 %: \([$p[] | select((.change | fabs) <= 0.05)] | length) (\([$p[] | select((.change | fabs) <= 0.05)] | length / $n | pct) %)",
    "within 2 %: \([$p[] | select((.change | fabs) <= 0.02)] | length) (\([$p[] | select((.change | fabs) <= 0.02)] | length / $n | pct) %)",
    "run-1 intervals holding run 2 figure: \([$p[] | select(.held)] | length) (\([$p[] | select(.held)] | length / $n | pct) %)",
    "  (the narrower interval of the statistic alone: \([$p[] | select(.median_held)] | length) (\([$p[] | select(.median_held)] | length / $n | pct) %))",
    # a shift every cell shares belongs to the machine (other guests, the host),
    # not to a cell: the median log change, and the changes of the cells around it
    ([$p[].change | . + 1 | log] | sort) as $l
    | ($l[($n / 2) | floor]) as $shift
    | "shared shift of the machine (median change of all cells): \($shift | exp - 1 | pct) %; the cells around it: middle half within \($l[($n / 4) | floor] - $shift | exp - 1 | pct) % .. +\($l[(3 * $n / 4) | floor] - $shift | exp - 1 | pct) %",
    "  within 5 % once that shift is taken out: \([$p[] | select((.change + 1 | log) - $shift | exp - 1 | fabs <= 0.05)] | length / $n | pct) %",
    "runs per cell in run 1: median \([$p[].runs1] | sort | .[length / 2 | floor]), min \([$p[].runs1] | min), max \([$p[].runs1] | max)",
    "worst cells (run 2 against run 1):",
    ($p | sort_by(-(.change | fabs)) | .[:8][]
     | "  \(.change | pct | if . > 0 then "+\(.)" else "\(.)" end) %  \(.id)  (\(.runs1) runs, interval \(if .half then "±\(.half | pct) %" else "none" end)\(if .level then " at \(.level | pct) %" else "" end), \(if .held then "held" else "missed" end))")
    end'

# Where the host had the stream cells' two CPUs: each run's mix of states
# (the host decides it; a pair with one run mostly far is the hard case).
for i in 1 2; do
    jq -r --arg i "$i" '[.cells[] | .details.handoff // empty | .readings[]?] as $r | ($r | length) as $n
        | if $n == 0 then "run \($i): no stream batch probed"
          else "run \($i): stream batches \($n), by state: \([$r[] | .state] | group_by(.) | map("\(.[0]) \(length * 1000 / $n | round / 10) %") | join(", ")) (1 the nearest of the run'"'"'s levels: \([.cells[] | .details.handoff.levels_ns // empty][0] // [] | map(round) | join(", ")) ns)" end' \
        "$out/run$i/results.json"
done
# A stream cell's figure of one state against its figure of the same state
# in the other run (levels within 1.5 times are one state, as compare has it).
jq -n -r --slurpfile a "$out/run1/results.json" --slurpfile b "$out/run2/results.json" '
  def states: [.cells[] | select(.details.handoff.states != null) | .id as $id | .details.handoff as $h
               | $h.states[] | {id: $id, ns: $h.levels_ns[.state - 1], point, runs}];
  ($b[0] | states) as $two
  | [$a[0] | states[] | . as $x | ($two[] | select(.id == $x.id and .ns < 1.5 * $x.ns and $x.ns < 1.5 * .ns)) as $y
     | select($x.runs >= 3 and $y.runs >= 3) | ($y.point / $x.point - 1 | fabs)] as $d
  | "stream figures of one state in both runs (3 runs or more each): \($d | length); within 5 %: \([$d[] | select(. <= 0.05)] | length), within 2 %: \([$d[] | select(. <= 0.02)] | length)"'

# The answers, the gaps and the ratios, which a run measures inside itself:
# the same verdict for each variant's answer and each gap in both runs, and
# each ratio of the against, compilers and speedup tables within 3 % of the
# other run's.
# run 2's tables must not read run 1 beside it (results/ratio_drift.h): its
# intervals would then hold the very move between the two runs measured
# here.  A folder whose name starts with a dot is not read.
"$fb" tables "$out/run1" --format json >"$out/run1.tables.json" 2>/dev/null
mv "$out/run1" "$out/.run1" || exit 2
"$fb" tables "$out/run2" --format json >"$out/run2.tables.json" 2>/dev/null
mv "$out/.run1" "$out/run1" || exit 2
levels() { jq -c '[.cells[] | .details.handoff.levels_ns // empty][0] // []' "$1/results.json" 2>/dev/null || echo '[]'; }
jq -n -r --slurpfile a "$out/run1.tables.json" --slurpfile b "$out/run2.tables.json" \
    --argjson la "$(levels "$out/run1")" --argjson lb "$(levels "$out/run2")" '
  # the verdict of the lead of each variant, from the answers as data (the
  # sentence also names the twins of the leader, so it is not parsed)
  def verdict: if .verdict == "faster" or .verdict == "slower" then "real"
               elif .verdict == "same binary" or (.runner_up == null and .twins != null) then "same binary"
               elif .verdict == "n/a" then "none" else "not real" end;
  def answers: [.families[] | .name as $f | (.answers // [])[] | {key: "\($f)/\(.variant)", value: verdict}] | from_entries;
  # the two builds each answer compared: a flip between two other pairs is
  # a near-tie among three builds or more, not one lead that moved
  def pairs: [.families[] | .name as $f | (.answers // [])[] | {key: "\($f)/\(.variant)", value: "\(.leader) over \(.runner_up)"}] | from_entries;
  def ratios: [.families[] | .name as $f | .tables[] | select(.name == "against" or .name == "compilers" or .name == "speedup")
               | .name as $t | .columns as $c | .rows[] | .label as $r | .cells | to_entries[]
               | select(.value.state == "ok" and .value.value != 1)
               | {key: "\($f)/\($t)/\($r)/\($c[.key])", value: .value.value}] | from_entries;
  # the state of the host'"'"'s two CPUs each ratio was compared within, as
  # its level in ns ($lv: the run'"'"'s levels): a stream ratio of a run that
  # saw one state is unmarked and of that level; "compute": no state
  def cpus($lv): [.families[] | .name as $f | .kind as $k | .tables[] | select(.name == "against" or .name == "compilers" or .name == "speedup")
             | .name as $t | .columns as $c | .rows[] | .label as $r | .cells | to_entries[]
             | select(.value.state == "ok" and .value.value != 1)
             | {key: "\($f)/\($t)/\($r)/\($c[.key])",
                value: (if $k != "stream" then "compute"
                        elif .value.cpus == "near" then $lv[0] elif .value.cpus == "far" then $lv[-1]
                        elif .value.cpus == null and ($lv | length) == 1 then $lv[0]
                        else (.value.cpus // "none") end)}] | from_entries;
  # levels within 1.5 times are one state, as compare has it
  def alike($x; $y): if ($x | type) == "number" and ($y | type) == "number" then $x < 1.5 * $y and $y < 1.5 * $x else $x == $y end;
  def gaps: [.families[] | .name as $f | (.gaps // [])[] | "\($f): \(.b) against \(.a) (\(.context))" as $g
              | .entries[] | {key: "\($g) \(.variant)", value: (if .verdict == "faster" or .verdict == "slower" then "real" else "not real" end)}]
              | from_entries;
  ($a[0] | answers) as $x | ($b[0] | answers) as $y
  | ($a[0] | gaps) as $gx | ($b[0] | gaps) as $gy
  | ([$gx | keys[] | select($gy[.] != null)]) as $kg
  | ([$x | keys[] | select($y[.] != null)]) as $ka
  | ($a[0] | ratios) as $r | ($b[0] | ratios) as $s
  | ([$r | keys[] | select($s[.] != null)]) as $kr
  | ([$kr[] | ($s[.] / $r[.] - 1) | fabs] | sort) as $d
  | ($a[0] | pairs) as $px | ($b[0] | pairs) as $py
  | "answers in both runs: \($ka | length); the same verdict: \([$ka[] | select($x[.] == $y[.])] | length) (\(if ($ka | length) > 0 then ([$ka[] | select($x[.] == $y[.])] | length) / ($ka | length) * 1000 | round / 10 else 0 end) %); of those that differ, \([$ka[] | select($x[.] != $y[.] and $px[.] != $py[.])] | length) compared another two builds in each run",
    "gaps in both runs (per variant: one part of the configuration changed): \($kg | length); the same verdict: \([$kg[] | select($gx[.] == $gy[.])] | length) (\(if ($kg | length) > 0 then ([$kg[] | select($gx[.] == $gy[.])] | length) / ($kg | length) * 1000 | round / 10 else 0 end) %), real in run 1: \([$kg[] | select($gx[.] == "real")] | length), real in both: \([$kg[] | select($gx[.] == "real" and $gy[.] == "real")] | length)",
    # a ratio compared within near in one run and far in the other is not like with like
    (($a[0] | cpus($la)) as $cx | ($b[0] | cpus($lb)) as $cy | [$kr[] | select(alike($cx[.]; $cy[.]))] as $same
     | "ratios compared within the same state of the host'"'"'s two CPUs in both runs (a level within 1.5 times): \($same | length) of \($kr | length) (states in run 1: \([$kr[] | $cx[.] | if type == "number" then "\(round) ns" else . end] | group_by(.) | map("\(.[0]) \(length)") | join(", ")); compute: no state); within 3 % among them: \([$same[] | select((($s[.] / $r[.]) - 1 | fabs) <= 0.03)] | length)"),
    "ratios in both runs (against, compilers, speedup): \($kr | length); within 3 %: \([$d[] | select(. <= 0.03)] | length) (\(if ($kr | length) > 0 then ([$d[] | select(. <= 0.03)] | length) / ($kr | length) * 1000 | round / 10 else 0 end) %), median difference \(if ($d | length) > 0 then $d[($d | length) / 2 | floor] * 1000 | round / 10 else "-" end) %",
    # per family and table: where the ratios that moved are
    "  within 3 % by family and table: \([$kr[] | {g: (split("/")[0:2] | join(" ")), ok: (($s[.] / $r[.] - 1) | fabs <= 0.03)}]
        | group_by(.g) | map("\(.[0].g) \([.[] | select(.ok)] | length)/\(length)") | join(", "))"'

# The verdicts that flipped, by how far their intervals missed, and whether
# the chance each real verdict gave of repeating (repeat_chance) was what
# happened: of the verdicts real in one run, the mean chance claimed against
# the share real again, in the same direction, in the other (both ways).
# And the verdicts a run gave without saying they may not repeat, against
# those it said may not (the answers' "a second run calls it real about
# N % of the time"): the first must hold, the second need not.
# Ratios whose interval is narrower than ±3 % are counted apart: the goal
# of 3 % can only be met by the ratios measured that finely.
jq -n -r --slurpfile a "$out/run1.tables.json" --slurpfile b "$out/run2.tables.json" '
  def pct: . * 1000 | round / 10;
  def dir: if .verdict == "faster" or .verdict == "slower" then .verdict else "not real" end;
  # how far the interval [low, high] of a ratio clears 1.00x (> 0) or reaches past it (< 0), in percent of the ratio
  def clear: if .low == null or .high == null then null
             elif .low > 1 then (.low - 1) * 100 elif .high < 1 then (1 - .high) * 100
             else -([1 - .low, .high - 1] | min) * 100 end;
  def items: [.families[] | .name as $f
              | ((.answers // [])[] | select(.verdict != "n/a" and .verdict != "same binary" and .runner_up != null)
                 | {key: "answer \($f)/\(.variant) \(.leader) over \(.runner_up)", value: {dir: dir, clear: clear, chance: .repeat_chance}}),
                ((.gaps // [])[] | "\($f): \(.b) against \(.a) (\(.context))" as $g | .entries[]
                 | select(.verdict != "same binary")
                 | {key: "gap \($g) \(.variant)", value: {dir: dir, clear: clear, chance: .repeat_chance}})]
             | from_entries;
  def ratios: [.families[] | .name as $f | .tables[] | select(.name == "against" or .name == "compilers" or .name == "speedup")
               | .name as $t | .columns as $c | .rows[] | .label as $r | .cells | to_entries[]
               | select(.value.state == "ok" and .value.value != 1 and .value.low != null)
               | {key: "\($f)/\($t)/\($r)/\($c[.key])", value: .value}] | from_entries;
  def bucket: if . == null then "no interval" elif . > -1 then "within 1 %" elif . > -3 then "1-3 %" else "over 3 %" end;
  ($a[0] | items) as $x | ($b[0] | items) as $y
  | [$x | keys[] | select($y[.] != null)] as $k
  | [$k[] | select($x[.].dir != $y[.].dir)] as $flips
  | [$flips[] | select($x[.].dir != "not real" and $y[.].dir != "not real")] as $turned
  # each flip seen from the run that did not call it real: how far its interval reached past 1.00x
  | [$flips[] | select(($x[.].dir == "not real") != ($y[.].dir == "not real"))
     | if $x[.].dir == "not real" then {miss: $x[.].clear, held: $y[.].clear} else {miss: $y[.].clear, held: $x[.].clear} end] as $one
  | ([$k[] | select($x[.].dir != "not real" and $x[.].chance != null) | {chance: $x[.].chance, again: ($y[.].dir == $x[.].dir)}]
     + [$k[] | select($y[.].dir != "not real" and $y[.].chance != null) | {chance: $y[.].chance, again: ($x[.].dir == $y[.].dir)}]) as $cal
  # a verdict the run says may not repeat (comparison_may_flip): a real
  # lead below 90 % to repeat, or not real with 20 % or more to turn real
  | def flagged: if .dir == "not real" then (.chance != null and .chance >= 0.2) else (.chance == null or .chance < 0.9) end;
  ([$k[] | {flag: ($x[.] | flagged), same: ($x[.].dir == $y[.].dir)}]
   + [$k[] | {flag: ($y[.] | flagged), same: ($x[.].dir == $y[.].dir)}]) as $said
  | ($a[0] | ratios) as $r | ($b[0] | ratios) as $s
  | [$r | keys[] | select($s[.] != null) | {d: (($s[.].value / $r[.].value - 1) | fabs), narrow: ((($r[.].high - $r[.].low) / 2 / $r[.].value) <= 0.03)}] as $rs
  | "verdicts (answers and gaps) in both runs: \($k | length); flipped: \($flips | length), of which real both times in opposite directions: \($turned | length)",
    "  real in one run only (\($one | length)): the other run'"'"'s interval reached past 1.00x by: \([$one[] | .miss | bucket] | group_by(.) | map("\(.[0]) \(length)") | join(", "))",
    "  and the real run'"'"'s interval cleared 1.00x by: \([$one[] | .held | if . == null then "no interval" elif . < 1 then "under 1 %" elif . < 3 then "1-3 %" else "over 3 %" end] | group_by(.) | map("\(.[0]) \(length)") | join(", "))",
    "verdicts a run gave without saying they may not repeat (both ways): \([$said[] | select(.flag | not)] | length) of \($said | length); the same in the other run: \([$said[] | select((.flag | not) and .same)] | length) (\(if ([$said[] | select(.flag | not)] | length) > 0 then ([$said[] | select((.flag | not) and .same)] | length) / ([$said[] | select(.flag | not)] | length) | pct else "-" end) %); those it said may not: \([$said[] | select(.flag and .same)] | length)/\([$said[] | select(.flag)] | length) the same",
    "repeat chance of the real verdicts (both ways, \($cal | length)): claimed \(if ($cal | length) > 0 then ([$cal[].chance] | add / length | pct) else "-" end) %, real again \(if ($cal | length) > 0 then ([$cal[] | select(.again)] | length / ($cal | length) | pct) else "-" end) %",
    "  by the chance claimed: \($cal | group_by(if .chance < 0.7 then "under 70 %" elif .chance < 0.9 then "70-90 %" else "90 % and over" end)
        | map("\(if .[0].chance < 0.7 then "under 70 %" elif .[0].chance < 0.9 then "70-90 %" else "90 % and over" end): \([.[] | select(.again)] | length)/\(length) again (claimed \([.[].chance] | add / length | pct) %)") | join("; "))",
    "ratios with a run-1 interval narrower than ±3 %: \([$rs[] | select(.narrow)] | length) of \($rs | length); of those within 3 % in run 2: \([$rs[] | select(.narrow and .d <= 0.03)] | length)",
    # does a ratio move between runs more than its intervals admit?  each
    # run'"'"'s interval holding the other'"'"'s ratio, and the difference of the
    # log ratios over both errors (each read off its interval and level:
    # Abramowitz and Stegun 26.2.23 for the normal quantile): its median
    # |z| is 0.67 when the intervals are right, more when they are too narrow
    ( def zq: ((1 - .) / 2) as $q | (-2 * ($q | log) | sqrt) as $t
              | $t - (2.515517 + 0.802853 * $t + 0.010328 * $t * $t) / (1 + 1.432788 * $t + 0.189269 * $t * $t + 0.001308 * $t * $t * $t);
      def se: if .low > 0 and .high > .low and .ci_level != null then ((.high / .low | log) / 2 / (.ci_level | zq)) else null end;
      [$r | keys[] | select($s[.] != null) | $r[.] as $u | $s[.] as $w
       | {held1: ($w.value >= $u.low and $w.value <= $u.high), held2: ($u.value >= $w.low and $u.value <= $w.high),
          z: (if ($u | se) != null and ($w | se) != null then (($u.value / $w.value | log) / (($u | se) * ($u | se) + ($w | se) * ($w | se) | sqrt) | fabs) else null end)}] as $h
      | [$h[].z | select(. != null)] | sort as $z
      | "ratios'"'"' intervals across the runs: run 1'"'"'s holding run 2'"'"'s ratio \([$h[] | select(.held1)] | length) of \($h | length), run 2'"'"'s holding run 1'"'"'s \([$h[] | select(.held2)] | length); the median |difference| over both errors \(if ($z | length) > 0 then $z[($z | length) / 2 | floor] * 100 | round / 100 else "-" end) (0.67 where the intervals are right, more where a ratio moves between runs beyond them)"),
    "earlier runs of this machine each run'"'"'s tables read beside it (their ratios'"'"' moves widen the intervals): run 1 \($a[0].runs[0].between_runs.runs // [] | length), run 2 \($b[0].runs[0].between_runs.runs // [] | length)"'
