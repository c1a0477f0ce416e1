# tables.jq: one table of one family as Markdown or CSV.
#   jq -r -L plots --argjson fam N --arg table throughput|speedup|compilers --arg format md|csv \
#      -f plots/tables.jq results.json        (-j for md: the text ends with its own newline)
# N is the family's position in `families.jq` output.
include "common";

. as $run
| model_at($fam) as $m
| table_of($m; $table) as $t
| family_scale($m) as $scale
| if $format == "csv" then
    # Numbers in one unit per table (named in the header); status words where there is no number.
    ([ "variant", "title" ] + ($t.columns | map(
        if $table == "throughput" then . + " (" + $scale.lab + ")"
        elif $table == "speedup" then . + " (speedup)"
        else . + " (gcc/clang)" end)) | @csv),
    ($t.rows[] | [ .lab, .title ] + (.cells | map(
        if .value == null then .text
        elif $table == "throughput" then (.value / $scale.div | fixed(3) | tonumber)
        else (.value | fixed(3) | tonumber) end)) | @csv)
  else
    (if $table == "throughput" then
       "# " + ($m.title | md) + ": throughput\n\n"
       + (if $m.kind == "compute"
          then "Work per second (" + ($m.unit | md) + "), median of the timed runs."
          else "Output bytes per second (1024-based: MiB/s, GiB/s), median of the timed runs." end)
       + " Cells that are not ok show their status."
     elif $table == "speedup" then
       "# " + ($m.title | md) + ": speedup\n\n"
       + "Speedup against the baseline variant "
       + (if $m.baseline then "`" + ($m.baseline | md) + "`" else "(none named)" end)
       + " built with the same configuration."
     else
       "# " + ($m.title | md) + ": gcc against clang\n\n"
       + "Throughput of the gcc build divided by the clang build with the same other flags: "
       + "above 1.00 gcc is faster."
     end)
    + "\n\nRun " + ($run.run.id // "?" | tostring | md) + ", suite " + ($run.run.suite // "?" | tostring | md)
    + ", cpu profile " + ($run.run.cpu_profile // "?" | tostring | md) + ".\n\n"
    + (if ($t.columns | length) == 0 then
         (if $table == "compilers" then "No cells in this family differ only by compiler (gcc against clang).\n"
          else "No build configurations in this family.\n" end)
       else markdown_table($t) end)
    + (if any($t.rows[]; .ref) and ($t.columns | length) > 1 and $table == "throughput"
       then "\nA reference row is one measurement, shown in every column.\n" else "" end)
    + (problem_cells($m) as $p
       | if ($p | length) == 0 or $table != "throughput" then ""
         else "\nCells that are not ok:\n\n"
              + ($p | map("- " + (.id | md) + ": " + (.status | md)
                          + (if .reason then ": " + (.reason | md) else "" end) + "\n") | join(""))
         end)
  end
