# merge.jq: several runs (other machines, other suites) side by side.
#   jq -r -s -L plots --arg format md|csv|html|dirs -f plots/merge.jq A/results.json B/results.json ...
# (-j for md: the text ends with its own newline)
# Cells are matched by family, variant and build configuration ("config"; when every run was
# built for a single -march, it is replaced by "(profile march)", see unify_march); a cell found in
# at least two runs is a row of the merged table, with throughput and speedup of every run
# ("absent" where a run lacks it); a cell found in one run only is listed below the table.
# `flagbench merge` (harness/tables/render.c) prints the same Markdown; keep the two in step.
#   md    the merged tables (what `flagbench merge` prints)
#   csv   every cell of every run, one line each
#   html  public/index.html: the runs, with links to runs/<dir>/index.html, and the merged tables
#   dirs  the folder name of each run under runs/, one a line (unique slugs of the run ids)
include "common";

def machine_labels:
  [.[] | run_label] as $l
  | [range(0; $l | length) as $i
     | $l[$i] as $x
     | if ([$l[] | select(. == $x)] | length) > 1
       then $x + " (" + (.[$i].run.id // ("run " + ($i + 1 | tostring)) | tostring) + ")"
       else $x end];

def run_dirs:
  reduce (.[] | (.run.id // "run") | slug) as $s ({used: {}, out: []};
    (if .used[$s] then $s + "-" + ((.used[$s] + 1) | tostring) else $s end) as $u
    | .used[$s] = ((.used[$s] // 0) + 1)
    | .out += [$u])
  | .out;

# Every cell of run `.` as {family, variant, config, ref, text, speedup, value, unit, status, id}.
def entries:
  models[] as $m
  | $m.variants[] as $v
  | ($m.idx[$v.name] | to_entries[]) as $e
  | {family: $m.name, variant: $v.name, config: $e.key, ref: $v.ref, id: ($e.value.id // "" | tostring),
     status: ($e.value.status // "" | tostring),
     text: ($e.value | value_text($m)), speedup: ($e.value | speedup_text($m; $e.key)),
     value: ($e.value | cell_value($m)), unit: $m.unit,
     ratio: ($e.value | cell_speedup($m; $e.key)),
     ci: ($e.value | cell_ci($m)),
     throttled: ($e.value.throttled | if type == "string" then . else null end)};

def key: [.family, .variant, .config];

# When every run was built for one -march (its profile's: native here,
# goldmont on the J4205), runs are compared build for build: that march
# becomes "(profile march)" in their configs, so gcc/-O2/native on one
# machine meets gcc/-O2/goldmont on another.  When any run has several
# marches, configs are matched as they are.  harness/tables/render.c does the same.
def native_cell: (.compiler // "none") != "none" and (.emulated | not) and (.config | type) == "string";
def single_march: ([.cells[]? | select(native_cell) | .march] | unique) as $m
  | ($m | length) == 1 and $m[0] != null;
def unify_march:
  .cells |= map(if native_cell then .config |= (split("/") | .[2] = "(profile march)" | join("/")) else . end);

def merged:
  . as $runs
  | machine_labels as $labels
  | [$runs[] | [entries]] as $per
  | ($runs | length) as $n
  | ([$runs[] | run_families[]] | uniq_ordered) as $fams
  | [$fams[] as $f
     | ([$per[][] | select(.family == $f and (.ref | not)) | .variant] | uniq_ordered
        + ([$per[][] | select(.family == $f and .ref) | .variant] | uniq_ordered)) as $vars
     | ([$per[][] | select(.family == $f) | .config] | uniq_ordered) as $cfgs
     | {family: $f,
        rows: [$vars[] as $v | $cfgs[] as $c
               | [range(0; $n) as $k | ($per[$k] | map(select(key == [$f, $v, $c])) | first)] as $cells
               | select(any($cells[]; . != null))
               | {variant: $v, config: $c, cells: $cells,
                  count: ([$cells[] | select(. != null)] | length)}]}]
  | {labels: $labels, n: $n, families: .};

def md_merged:
  . as $runs
  | merged as $mg
  | "# flagbench: results across machines\n\n"
    + "| machine | run | suite | cpu model | schema | cells |\n| --- | --- | --- | --- | --- | ---: |\n"
    + ([range(0; $mg.n) as $k | $runs[$k] as $r
        | "| " + ($mg.labels[$k] | md) + " | " + ($r.run.id // "?" | md) + " | " + ($r.run.suite // "?" | md)
          + " | " + ($r.host.cpu_model // "?" | md) + " | " + ($r.schema // "?" | md)
          + " | " + ($r.cells | length | tostring) + " |\n"] | join(""))
    + "\nCells are matched by family, variant and build configuration. Throughput is the median "
    + "(1024-based MiB/s, GiB/s; usec/op for families counted in operations); speedup is against the family "
    + "baseline built the same way on the same machine. ± is the half-width of the 95 % interval of the median "
    + "(for a speedup, both intervals combined), in percent, where the run has one; "
    + "† marks a cell measured while the CPU throttled.\n"
    + ([$mg.families[] | . as $f
        | [$f.rows[] | select($mg.n == 1 or .count >= 2)] as $rows
        | select(($rows | length) > 0)
        | "\n## " + ($f.family | md) + "\n\n"
          + "| variant | config |" + ([$mg.labels[] | " " + md + " | " + md + " speedup |"] | join("")) + "\n"
          + "| --- | --- |" + ([$mg.labels[] | " ---: | ---: |"] | join("")) + "\n"
          + ([$rows[] | "| " + (.variant | md) + " | " + (.config | md) + " |"
              + ([.cells[] | if . == null then " absent | absent |"
                             else " " + (.text | md) + " | " + (.speedup | md) + " |" end] | join("")) + "\n"]
             | join(""))] | join(""))
    + (if $mg.n < 2 then ""
       else
         [$mg.families[] | .family as $fam | .rows[] | select(.count == 1) | . as $row
          | range(0; $mg.n) as $k | select($row.cells[$k] != null)
          | {k: $k, fam: $fam, row: $row, c: $row.cells[$k]}] as $only
         | "\n## Cells found in one run only\n\n"
           + (if ($only | length) == 0 then "None: every cell matched.\n"
              else "| machine | family | variant | config | throughput | speedup |\n"
                   + "| --- | --- | --- | --- | ---: | ---: |\n"
                   + ([$only | sort_by(.k)[]
                       | "| " + ($mg.labels[.k] | md) + " | " + (.fam | md) + " | " + (.row.variant | md)
                         + " | " + (.row.config | md) + " | " + (.c.text | md) + " | " + (.c.speedup | md) + " |\n"]
                      | join(""))
              end)
       end);

def csv_merged:
  . as $runs
  | machine_labels as $labels
  | (["machine", "run", "family", "variant", "config", "status", "value", "unit", "speedup",
      "ci95_percent", "throttled"] | @csv),
    (range(0; $runs | length) as $k
     | $runs[$k] | entries
     | [$labels[$k], ($runs[$k].run.id // ""), .family, .variant, .config, .status,
        .value, .unit, .ratio, .ci, .throttled] | @csv);

def h: tostring | @html;

def html_merged:
  . as $runs
  | merged as $mg
  | run_dirs as $dirs
  | [
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src 'self'; style-src 'unsafe-inline'\">\n",
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
    "<title>flagbench: results across machines</title>\n<style>\n",
    "body{font-family:sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1em;color:#222;background:#fff}\n",
    "h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}\n",
    "table{border-collapse:collapse;font-size:.9em;margin:.5em 0}th,td{border:1px solid #ddd;padding:.25em .5em;text-align:left}td{white-space:nowrap}\n",
    "thead th{background:#f3f3f3}td.num{text-align:right;white-space:nowrap}td.bad{background:#fbe3e3;color:#900}td.absent{color:#888}\n",
    ".scroll{overflow-x:auto}\n</style>\n</head>\n<body>\n",
    "<h1>flagbench: results across machines</h1>\n<h2>Runs</h2>\n",
    "<table><thead><tr><th>machine</th><th>run</th><th>suite</th><th>cpu model</th><th>started</th><th>cells</th><th>ok</th></tr></thead><tbody>\n",
    ([range(0; $mg.n) as $k | $runs[$k] as $r
      | @html "<tr><td>\($mg.labels[$k])</td><td><a href=\"runs/\($dirs[$k])/index.html\">\($r.run.id // "?")</a></td><td>\($r.run.suite // "?")</td><td>\($r.host.cpu_model // "?")</td><td>\($r.run.started // "?")</td><td class=\"num\">\($r.cells | length)</td><td class=\"num\">\([$r.cells[] | select(.status == "ok")] | length)</td></tr>\n"]
     | join("")),
    "</tbody></table>\n",
    "<p>Merged tables: <a href=\"merged.md\">Markdown</a>, <a href=\"merged.csv\">CSV</a> (every cell of every run). ",
    "Cells are matched by family, variant and build configuration; speedup is against the family baseline built the same way on the same machine. ",
    "± is the half-width of the 95 % interval of the median (for a speedup, both intervals combined), in percent, where the run has one; ",
    "† marks a cell measured while the CPU throttled.</p>\n",
    ([$mg.families[] | . as $f
      | [$f.rows[] | select($mg.n == 1 or .count >= 2)] as $rows
      | select(($rows | length) > 0)
      | @html "<h2>\($f.family)</h2>\n<div class=\"scroll\"><table><thead><tr><th>variant</th><th>config</th>"
        + ([$mg.labels[] | @html "<th>\(.)</th><th>\(.) speedup</th>"] | join("")) + "</tr></thead><tbody>\n"
        + ([$rows[] | @html "<tr><td>\(.variant)</td><td>\(.config)</td>"
            + ([.cells[] | if . == null then "<td class=\"absent\">absent</td><td class=\"absent\">absent</td>"
                           else "<td class=\"" + (if .value != null then "num" else "bad" end) + "\">" + (.text | h)
                                + "</td><td class=\"num\">" + (.speedup | h) + "</td>" end] | join(""))
            + "</tr>\n"] | join(""))
        + "</tbody></table></div>\n"] | join("")),
    (if $mg.n < 2 then ""
     else
       [$mg.families[] | .family as $fam | .rows[] | select(.count == 1) | . as $row
        | range(0; $mg.n) as $k | select($row.cells[$k] != null)
        | {k: $k, fam: $fam, row: $row, c: $row.cells[$k]}] as $only
       | "<h2>Cells found in one run only</h2>\n"
         + (if ($only | length) == 0 then "<p>None: every cell matched.</p>\n"
            else "<div class=\"scroll\"><table><thead><tr><th>machine</th><th>family</th><th>variant</th><th>config</th><th>throughput</th><th>speedup</th></tr></thead><tbody>\n"
                 + ([$only | sort_by(.k)[]
                     | @html "<tr><td>\($mg.labels[.k])</td><td>\(.fam)</td><td>\(.row.variant)</td><td>\(.row.config)</td><td class=\"num\">\(.c.text)</td><td class=\"num\">\(.c.speedup)</td></tr>\n"]
                    | join(""))
                 + "</tbody></table></div>\n" end)
     end),
    "<p>Rendered by flagbench from results.json files alone.</p>\n</body>\n</html>"
    ] | join("");

(if length > 1 and all(.[]; single_march) then map(unify_march) else . end)
| if $format == "md" then md_merged
elif $format == "csv" then csv_merged
elif $format == "html" then html_merged
elif $format == "dirs" then run_dirs[]
else error("merge.jq: unknown format " + $format) end
