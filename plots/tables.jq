# tables.jq: one table of one family as Markdown or CSV.
#   jq -r -L plots --argjson fam N --arg table throughput|speedup|compilers --arg format md|csv \
#      -f plots/tables.jq results.json        (-j for md: the text ends with its own newline)
# N is the family's position in `families.jq` output.
#
# Markdown cells read "7.36 GiB/s ±1.2% †": ± is the half-width of the 95 % interval of
# the median (time_s.ci95_percent), † a cell measured while the CPU throttled, ‡ a cell
# with warnings (listed under the throughput table); a legend under each table says so.
# CSV: per configuration a number column in the table's unit, a "±%" column (empty when
# the cell has no interval) and a "throttled" column (the cell's field: yes, no, unknown).
include "common";

. as $run
| model_at($fam) as $m
| table_of($m; $table) as $t
| family_scale($m) as $scale
| ($m.unit | is_per_op) as $perop
| if $format == "csv" then
    # Numbers in one unit per table (named in the header); status words where there is no number.
    ([ "variant", "title" ] + ($t.columns | map(
        if $table == "throughput" then . + " (" + $scale.lab + ")", . + " ±%", . + " throttled"
        elif $table == "speedup" then . + " (speedup)", . + " ±%"
        else . + " (gcc/clang)", . + " ±%" end)) | @csv),
    ($t.rows[] | [ .lab, .title ] + (.cells | map(
        (if .value == null then .text
         elif $table == "throughput" then (.value | scaled($scale) | fixed(if $scale.inv then 6 else 3 end) | tonumber)
         else (.value | fixed(3) | tonumber) end),
        (if .ci == null then "" else (.ci | fixed(2) | tonumber) end),
        (if $table == "throughput" then
           (if .id != null then ($m.byid[.id].throttled | if type == "string" then . else "" end) else "" end)
         else empty end))) | @csv)
  else
    (if $table == "throughput" then
       "# " + ($m.title | md) + (if $perop then ": time per operation\n\n" else ": throughput\n\n" end)
       + (if $perop
          then "Microseconds per operation (usec/op: 10^6 divided by the median " + ($m.unit | md) + "), lower is faster."
          elif $m.kind == "compute"
          then "Work per second (" + ($m.unit | md) + "), median of the timed runs."
          else "Output bytes per second (1024-based: MiB/s, GiB/s), median of the timed runs." end)
       + " Cells that are not ok show their status."
     elif $table == "speedup" then
       "# " + ($m.title | md) + ": speedup\n\n"
       + "Speedup against the baseline variant "
       + (if $m.baseline then "`" + ($m.baseline | md) + "`" else "(none named)" end)
       + " built with the same configuration"
       + (if $perop then " (its time per operation divided by the variant's)." else "." end)
     else
       "# " + ($m.title | md) + ": gcc against clang\n\n"
       + (if $perop then "Operations per second" else "Throughput" end)
       + " of the gcc build divided by the clang build with the same other flags: "
       + "above 1.00 gcc is faster."
     end)
    + "\n\nRun " + ($run.run.id // "?" | tostring | md) + ", suite " + ($run.run.suite // "?" | tostring | md)
    + ", cpu profile " + ($run.run.cpu_profile // "?" | tostring | md) + ".\n\n"
    + (if ($t.columns | length) == 0 then
         (if $table == "compilers" then "No cells in this family differ only by compiler (gcc against clang).\n"
          else "No build configurations in this family.\n" end)
       else markdown_table($t) end)
    + (legend($t; $table) | if length == 0 then "" else "\n" + (map(md) | join("\n\n")) + "\n" end)
    + (if any($t.rows[]; .ref) and ($t.columns | length) > 1 and $table == "throughput" then
         if ref_per_column($m)
         then "\nA reference row shows in each column the reference measured with that column's placement and consumer.\n"
         else "\nA reference row is one measurement, shown in every column.\n" end
       else "" end)
    + (problem_cells($m) as $p
       | if ($p | length) == 0 or $table != "throughput" then ""
         else "\nCells that are not ok:\n\n"
              + ($p | map("- " + (.id | md) + ": " + (.status | md)
                          + (if .reason then ": " + (.reason | md) else "" end) + "\n") | join(""))
         end)
    + (warned_cells($m) as $w
       | if ($w | length) == 0 or $table != "throughput" then ""
         else "\nCell warnings:\n\n"
              + ($w | map(.id as $id | .warnings[] | "- " + ($id | md) + ": " + md + "\n") | join(""))
         end)
  end
