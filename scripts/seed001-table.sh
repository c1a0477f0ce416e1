#!/usr/bin/env bash
# The seed001 table: instructions per byte of every chacha20 cell of a run
# (native cells: callgrind or perf; RISC-V cells: qemu's trace, see
# harness/system/qemucount.h), the ratio to the baseline built the same way,
# and seed 001's cycle counts beside the rows that match its steps
# (docs/seed001-figures.json).  Ranked by instructions, never by emulated time.
#   scripts/seed001-table.sh RUN_DIR|results.json [figures.json]
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
res="${1:?usage: scripts/seed001-table.sh RUN_DIR|results.json [figures.json]}"
[ -d "$res" ] && res="$res/results.json"
figs="${2:-$here/../docs/seed001-figures.json}"
for f in "$res" "$figs"; do
    [ -r "$f" ] || { echo "flagbench: cannot read $f" >&2; exit 2; }
done
command -v jq >/dev/null || { echo "flagbench: jq is missing (Debian package jq)" >&2; exit 2; }

jq -r --slurpfile seed "$figs" '
  def fmt(d): if . == null then "-" else (. * pow(10; d) | round / pow(10; d) | tostring) end;
  ($seed[0]) as $s
  | ($s.figures | map(select(.variant == "ref")) | .[0]) as $sb
  | def ratio($a; $b): if $a != null and $b != null then ($a / $b | fmt(3)) else "-" end;
  [.cells[] | select(.family == "chacha20" and .variant != null)] as $all
  | [$all[] | select(.status != "skipped")] as $cells
  # the baseline of a group: ref built by the same compiler at the group first -march
  | ($cells | group_by(.compiler)) as $groups
  | "# seed001: ChaCha20 instructions per byte",
    "",
    "instructions/byte: (count(n) - count(0)) / n, counted by \(
       [$cells[] | .counters.source? // empty] | unique | join(", ")).",
    "x base: instructions / those of ref at the group first -march, built by the same compiler (lower is better).",
    "seed 001: cycles for \($s.bytes) bytes on a RISC-V core, and its cycles and simulator instructions (whole run) / its baseline.",
    (($all | length) - ($cells | length)) as $left
    | if $left > 0 then "\($left) cells skipped in this run (--only) are left out." else empty end,
    "",
    ( $groups[]
      | . as $g
      | ([$g[] | select(.variant == "ref" and .march == ($g[0].march))][0].counters.instructions_per_unit?) as $base
      | "## \($g[0].compiler)\(if $g[0].emulated then " (emulated under qemu: ranked by instructions)" else "" end)",
        "",
        "| variant | -march | instructions/byte | x base | seed 001 cycles | seed cycles x base | seed instr x base |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
        ( $g | map(select(.counters.instructions_per_unit? != null))
          | sort_by([.counters.instructions_per_unit, .march, .variant])[]
          | . as $c
          | ([$s.figures[] | select(.variant == $c.variant and .march == $c.march)][0]) as $f
          | "| \($c.variant) | \($c.march) | \($c.counters.instructions_per_unit | fmt(2))"
            + " | \(ratio($c.counters.instructions_per_unit; $base)) | \($f.cycles // "-")"
            + " | \(ratio($f.cycles; $sb.cycles)) | \(ratio($f.sim_instructions; $sb.sim_instructions)) |"
        ),
        "",
        # the rest, one line per variant and status: why it has no count
        ( $g | map(select(.counters.instructions_per_unit? == null))
          | group_by([.variant, .status])[]
          | "- \(.[0].variant) (\(map(.march) | join(", "))): \(.[0].status)"
            + (if .[0].status != "ok" then ": " + (.[0].reason // "") else
               ", not counted: " + (.[0].counters.skipped? // "no counter") end)
        ),
        ""
    )
' "$res"
