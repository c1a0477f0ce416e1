# common.jq: the table model every renderer shares (include "common"; with jq -L plots).
#
# A run (results.json, schema flagbench-results/1) becomes, per family, a grid:
# variants down (references last), build configurations across (in the order
# the cells appear), one cell per (variant, config).  Every cell has a text
# (a formatted number, or the status word when the cell is not ok, or
# "absent" when the run has no such cell) and a number (null unless ok).
# A formatted number carries its ± (time_s.ci95_percent, the half-width of the
# 95 % interval of the median, in percent; none for old files or fewer than 3
# runs) and its marks: † measured while the CPU throttled, ‡ warnings.
# Families counted in operations ("ops/s") print microseconds per operation.
# harness/tables/render.c implements the same rules; keep the two in step.

# First occurrence wins, order kept.
def uniq_ordered:
  reduce .[] as $x ({seen: {}, out: []};
    ($x | tojson) as $k
    | if .seen[$k] then . else .seen[$k] = true | .out += [$x] end)
  | .out;

# A name that is safe as a file name: [A-Za-z0-9._-], no leading dot.
def slug:
  tostring | gsub("[^A-Za-z0-9._-]"; "_")
  | if startswith(".") then "_" + .[1:] else . end
  | if . == "" then "_" else . end;

# "%.Nf" exactly as C's printf prints it (glibc: the exact binary value, ties to even),
# so these tables and `flagbench report`/`merge` (format_rate) show the same digits.
# The product x * 10^N is computed exactly as hi + err (Dekker's two-product with a
# Veltkamp split), which decides on which side of the half the true value lies.
def fixed($d):
  . as $x
  | (if $x < 0 then -$x else $x end) as $a
  | pow(10; $d) as $p
  | ($a * $p) as $hi
  | (134217729 * $a) as $t | ($t - ($t - $a)) as $ah | ($a - $ah) as $al
  | ((($ah * $p) - $hi) + ($al * $p)) as $err
  | ($hi | floor) as $fl
  | (($hi - $fl) - 0.5) as $dd
  | (if $dd > 0 or ($dd == 0 and $err > 0) then $fl + 1
     elif $dd < 0 or ($dd == 0 and $err < 0) then $fl
     elif ($fl - 2 * (($fl / 2) | floor)) == 0 then $fl
     else $fl + 1 end) as $n
  | (($n / $p) | floor) as $i
  | ($n - $i * $p | tostring) as $f
  | (if $x < 0 and $n > 0 then "-" else "" end)
    + ($i | tostring)
    + (if $d > 0
       then "." + (if ($d - ($f | length)) > 0 then "0" * ($d - ($f | length)) else "" end) + $f
       else "" end);

# Bytes per second, 1024-based, like format_rate() in harness/core/util.c.
def fmt_rate:
  if . >= 1073741824 then (. / 1073741824 | fixed(2)) + " GiB/s"
  elif . >= 1048576 then (. / 1048576 | fixed(1)) + " MiB/s"
  elif . >= 1024 then (. / 1024 | fixed(1)) + " KiB/s"
  else fixed(0) + " B/s" end;

def is_bytes_unit: . == null or . == "bytes/s" or . == "B/s";

# Work per second in a unit such as "blocks/s": SI prefixes.
def fmt_count($unit):
  if . >= 1e9 then (. / 1e9 | fixed(2)) + " G" + $unit
  elif . >= 1e6 then (. / 1e6 | fixed(2)) + " M" + $unit
  elif . >= 1e3 then (. / 1e3 | fixed(2)) + " k" + $unit
  else fixed(2) + " " + $unit end;

# Families counted in operations ("ops/s") print the time of one operation, as the
# seeds do: microseconds, 3 decimals (3 significant digits below 0.01), like
# render_format_value() in harness/tables/render.c.
def is_per_op: . == "ops/s" or . == "op/s";

def fmt_usec:
  (if . >= 0.01 then 3
   else (2 - (log10 | floor)) | if . > 9 then 9 else . end end) as $d
  | fixed($d) + " usec/op";

def fmt_value($unit):
  if ($unit | is_bytes_unit) then fmt_rate
  elif ($unit | is_per_op) and . > 0 then (1e6 / . | fmt_usec)
  else fmt_count($unit) end;

# The half-width of a 95 % interval in percent: "±1.2%".
def fmt_pm: "±" + fixed(1) + "%";

# A speedup: 2 decimals, 3 significant digits below 0.01 (e.g. 0.000221x: two variants
# that are different computations), like render_format_ratio() in harness/tables/render.c.
def fmt_ratio:
  (if . >= 0.01 or . <= 0 then 2
   else (2 - (log10 | floor)) | if . > 9 then 9 else . end end) as $d
  | fixed($d) + "x";

def is_ref: .config == "reference" or .compiler == "none";

# The measured median of a cell (bytes/s or work/s), or null.
def own_value: (.throughput_Bps // .rate // {}) | .median | if type == "number" then . else null end;

# Markdown text: entities for & < >, escaped pipes, one line.
def md: tostring | gsub("&"; "&amp;") | gsub("<"; "&lt;") | gsub(">"; "&gt;")
  | gsub("\\|"; "\\|") | gsub("[\r\n\t]"; " ");

# Text for gnuplot data files: one field, no double quotes (gnuplot parses them).
def gpstr: tostring | gsub("\""; "'") | gsub("[\r\n\t]"; " ");

# A field for a TSV line that bash reads with IFS=tab (which would merge empty fields).
def nonempty: if . == "" or . == null then "-" else . end;

# ---------------------------------------------------------------------------
# The run model.

def run_families:
  [.cells[]? | .family | select(type == "string")] | uniq_ordered;

# Slugs made unique in family order: a second "a_b" becomes "a_b-2".
def family_slugs:
  reduce (run_families[]) as $f ({used: {}, out: []};
    ($f | slug) as $s
    | (if .used[$s] then $s + "-" + ((.used[$s] + 1) | tostring) else $s end) as $u
    | .used[$s] = ((.used[$s] // 0) + 1)
    | .out += [$u])
  | .out;

def run_label:
  if (.run.cpu_profile // "host") != "host" then .run.cpu_profile
  else (.host.cpu_model // .run.id // "unknown") end | tostring;

# The placement and consumer of a cell (null when the run has no such dimension).
def dims: [(.placement | if type == "string" then . else null end),
           (.consumer | if type == "string" then . else null end)];

# The model of family $f of the run at `.`:
# {name, slug, title, kind, unit, baseline, configs[], variants[{name,title,ref}],
#  idx: {variant: {config: cell}}, cdims: {config: [placement, consumer]}, byid: {id: cell}}
def family_model($f; $slug):
  . as $run
  | [$run.cells[] | select(.family == $f)] as $cells
  | ($run.families[$f] // {}) as $meta
  | ($meta.kind // ($cells | map(.kind) | map(select(. != null)) | first) // "stream") as $kind
  | {
      name: $f,
      slug: $slug,
      title: ($meta.title // $f),
      kind: $kind,
      unit: (if $kind == "compute"
             then ([$cells[] | .rate.unit? | select(type == "string")] | first)
                  // ($meta.rate_unit | if type == "string" then . else null end)
                  // (($meta.unit // "ops") + "/s")
             else "bytes/s" end),
      baseline: ($meta.baseline // null),
      configs: ([$cells[] | select(is_ref | not) | .config | tostring] | uniq_ordered),
      variants: (
        def vlist($ref):
          [$cells[] | select(is_ref == $ref)] as $sel
          | [$sel[] | .variant | tostring] | uniq_ordered
          | map(. as $n | {name: $n, ref: $ref,
                           title: ([$sel[] | select((.variant | tostring) == $n) | .title // .variant] | first | tostring)});
        vlist(false) + vlist(true)),
      idx: (reduce $cells[] as $c ({};
              ($c.variant | tostring) as $v | ($c.config | tostring) as $k
              | if .[$v][$k] then . else .[$v][$k] = $c end)),
      cdims: (reduce ($cells[] | select(is_ref | not)) as $c ({};
              ($c.config | tostring) as $k | if .[$k] then . else .[$k] = ($c | dims) end)),
      cells: $cells,
      byid: (reduce $run.cells[] as $c ({}; if .[$c.id | tostring] then . else .[$c.id | tostring] = $c end))
    };

def models:
  . as $run | family_slugs as $slugs
  | [run_families | to_entries[] | . as $e | $run | family_model($e.value; $slugs[$e.key])];

def model_at($i):
  . as $run | family_slugs as $slugs
  | run_families[$i] as $f
  | if $f == null then error("no family number \($i)") else family_model($f; $slugs[$i]) end;

# The cell of variant $v in column $config.  A reference stands in every column: the
# reference cell measured with the column's placement and consumer, else its only cell
# (several cells and none with these dimensions: absent).
def cell_at($m; $v; $config):
  ($m.variants[] | select(.name == $v) | .ref) as $ref
  | if $ref then
      [$m.idx[$v] // {} | to_entries[] | .value] as $rc
      | ($m.cdims[$config] // [null, null]) as $d
      | ([$rc[] | select(dims == $d)] | first)
        // (if ($rc | length) == 1 then $rc[0] else null end)
    else $m.idx[$v][$config] end;

# Several reference cells of one variant: its row differs from column to column.
def ref_per_column($m):
  any($m.variants[] | select(.ref) | .name; ($m.idx[.] // {} | length) > 1);

# The cell whose measurement a cell shows: itself, or the cell it shares its binary with.
def measured($m):
  if own_value == null and (.same_binary_as | type) == "string" and $m.byid[.same_binary_as]
  then $m.byid[.same_binary_as] else . end;

# The value of a cell, following same_binary_as when the cell shares a binary.
def cell_value($m):
  if . == null or .status != "ok" then null
  else (own_value // (if .same_binary_as then ($m.byid[.same_binary_as] // {} | own_value) else null end))
  end;

# The half-width of the 95 % interval of the median time, in percent of the median
# (time_s.ci95_percent), or null: old files lack it, and fewer than 3 runs have none.
def own_ci:
  (.time_s | if type == "object" then . else {} end) as $t
  | if ($t.ci95_percent | type) != "number" or $t.ci95_percent < 0 then null
    elif ($t.runs | type) == "array" and ($t.runs | length) < 3 then null
    else $t.ci95_percent end;

def cell_ci($m):
  if . == null or .status != "ok" or cell_value($m) == null then null else measured($m) | own_ci end;

# Measured while the CPU throttled (throttled: "yes"; "unknown" is not flagged).
def cell_throttled($m):
  . != null and .status == "ok" and (.throttled == "yes" or (measured($m) | .throttled) == "yes");

# Warnings other than the throttle note that † already says.
def cell_warnings($m):
  cell_throttled($m) as $t
  | [.warnings // [] | if type == "array" then .[] else . end | tostring
     | select(($t and startswith("throttled")) | not)];

def cell_warned($m): . != null and .status == "ok" and (cell_warnings($m) | length) > 0;

# A figure with its interval and marks: "7.36 GiB/s ±1.2% †".
def with_extras($ci; $marks):
  . + (if $ci == null then "" else " " + ($ci | fmt_pm) end) + (if $marks == "" then "" else " " + $marks end);

# $warn: also mark a cell with warnings (‡), where the table lists them.
def value_text_w($m; $warn):
  if . == null then "absent"
  elif .status != "ok" then (.status | tostring)
  else cell_value($m) as $v
    | if $v == null then "no data"
      else cell_ci($m) as $ci
        | ((if cell_throttled($m) then "†" else "" end)
           + (if $warn and cell_warned($m) then "‡" else "" end)) as $marks
        | $v | fmt_value($m.unit) | with_extras($ci; $marks)
      end
  end;

def value_text($m): value_text_w($m; false);

# Speedup against the family baseline built with the same configuration.
def cell_speedup($m; $config):
  if . == null or .status != "ok" then null
  elif (is_ref | not) and (.speedup | type) == "number" then .speedup
  else
    cell_value($m) as $v
    | ($m.idx[$m.baseline // ""][$config] // null) as $b
    | ($b | cell_value($m)) as $bv
    | if $v != null and $bv != null and $bv > 0 then $v / $bv else null end
  end;

# Two independent figures' intervals combined for their ratio (root sum of squares).
def ratio_ci($a; $b): if $a == null or $b == null then null else (($a * $a + $b * $b) | sqrt) end;

# The speedup's interval: the cell's and the baseline's combined; none for the
# baseline itself (exactly 1.00x) or when either has none.
def speedup_ci($m; $config):
  ($m.idx[$m.baseline // ""][$config] // null) as $b
  | if . == null or $b == null or .status != "ok" or $b.status != "ok" then null
    elif (measured($m) | .id) == ($b | measured($m) | .id) then null
    else ratio_ci(cell_ci($m); $b | cell_ci($m)) end;

# † on a speedup: the cell or its baseline throttled (not on the baseline's own 1.00x).
def speedup_throttled($m; $config):
  ($m.idx[$m.baseline // ""][$config] // null) as $b
  | if $b != null and (measured($m) | .id) == ($b | measured($m) | .id) then false
    else cell_throttled($m) or ($b | cell_throttled($m)) end;

def speedup_text($m; $config):
  if . == null then "absent"
  elif .status != "ok" then (.status | tostring)
  else . as $c
    | cell_speedup($m; $config)
    | if . == null then "n/a"
      else fmt_ratio
           | with_extras($c | speedup_ci($m; $config);
                         if $c | speedup_throttled($m; $config) then "†" else "" end)
      end
  end;

# Unit for plots and CSV: one per family, chosen from the largest value.  A value v is
# shown as v / div, or as div / v where inv (time per operation: usec/op).
def family_scale($m):
  [$m.variants[] as $v | $m.configs[] as $c | cell_at($m; $v.name; $c) | cell_value($m) | select(. != null)]
  | (max // 0) as $max
  | if ($m.unit | is_bytes_unit) then
      (if $max >= 1073741824 then {div: 1073741824, lab: "GiB/s"} else {div: 1048576, lab: "MiB/s"} end)
    elif ($m.unit | is_per_op) then {div: 1e6, lab: "usec/op", inv: true}
    elif $max >= 1e9 then {div: 1e9, lab: ("G" + $m.unit)}
    elif $max >= 1e6 then {div: 1e6, lab: ("M" + $m.unit)}
    elif $max >= 1e3 then {div: 1e3, lab: ("k" + $m.unit)}
    else {div: 1, lab: $m.unit} end;

def scaled($s):
  if . == null then null
  elif $s.inv then (if . > 0 then $s.div / . else null end)
  else . / $s.div end;

# Compiler pairs: cells whose configuration differs only by compiler, gcc-like against clang-like.
def is_gcc: test("gcc") and (test("clang") | not);
def is_clang: test("clang");
def config_rest: tostring | sub("^[^/]*/"; "");

# [{gcc, clang, rest, label}] in configuration order.
def compiler_pairs($m):
  [$m.idx[][] | select(is_ref | not) | {compiler: (.compiler | tostring), rest: (.config | config_rest), config: (.config | tostring)}] as $all
  | [$m.configs[] as $c | $all[] | select(.config == $c)] | uniq_ordered as $cs
  | [$cs[] | .rest] | uniq_ordered as $rests
  | [$rests[] as $r
     | ([$cs[] | select(.rest == $r and (.compiler | is_gcc))]) as $g
     | ([$cs[] | select(.rest == $r and (.compiler | is_clang))]) as $k
     | $g[] as $gg | $k[] as $kk
     | {gcc: $gg.compiler, clang: $kk.compiler, rest: $r, gcfg: $gg.config, ccfg: $kk.config}]
  | ([.[] | [.gcc, .clang]] | uniq_ordered | length) as $npairs
  | map(.lab = (if $npairs == 1 then .rest else .gcc + " vs " + .clang + ", " + .rest end));

def pair_ratio($m; $v; $p):
  ($m.idx[$v][$p.gcfg] | cell_value($m)) as $g
  | ($m.idx[$v][$p.ccfg] | cell_value($m)) as $c
  | if $g != null and $c != null and $c > 0 then $g / $c else null end;

def pair_text($m; $v; $p):
  ($m.variants[] | select(.name == $v) | .ref) as $ref
  | if $ref then "n/a (reference)"
    else
      $m.idx[$v][$p.gcfg] as $g | $m.idx[$v][$p.ccfg] as $c
      | if $g == null or $c == null then "absent"
        elif $g.status != "ok" and $c.status != "ok" and $g.status == $c.status then $g.status
        elif $g.status != "ok" or $c.status != "ok" then
          [([$g, $p.gcc], [$c, $p.clang]) | select(.[0].status != "ok") | .[1] + ": " + .[0].status] | join(", ")
        else
          (pair_ratio($m; $v; $p)
           | if . == null then "n/a"
             else fixed(2)
                  | with_extras(ratio_ci($g | cell_ci($m); $c | cell_ci($m));
                                if ($g | cell_throttled($m)) or ($c | cell_throttled($m)) then "†" else "" end)
             end)
        end
    end;

# The three tables as {columns[], rows[{lab, title, ref, cells[{text, value, status, id, base, ci, marks}]}]}:
# text is what a cell shows: base (the figure, null without a value), then " ±" ci (percent,
# null when there is no interval), then " " marks ("†", "‡", "†‡" or "").
def variant_label: if .ref then .name + " (reference)" else .name end;

def throughput_table($m):
  {columns: $m.configs,
   rows: [$m.variants[] as $v
          | {lab: ($v | variant_label), title: $v.title, ref: $v.ref,
             cells: [$m.configs[] as $c | cell_at($m; $v.name; $c) as $cell
                     | ($cell | cell_value($m)) as $val
                     | {text: ($cell | value_text_w($m; true)), value: $val,
                        status: ($cell.status // "absent"),
                        id: ($cell.id // null),
                        base: (if $val == null then null else $val | fmt_value($m.unit) end),
                        ci: (if $val == null then null else $cell | cell_ci($m) end),
                        marks: (if $val == null then ""
                                else (if $cell | cell_throttled($m) then "†" else "" end)
                                     + (if $cell | cell_warned($m) then "‡" else "" end) end)}]}]};

def speedup_table($m):
  {columns: $m.configs,
   rows: [$m.variants[] as $v
          | {lab: ($v | variant_label), title: $v.title, ref: $v.ref,
             cells: [$m.configs[] as $c | cell_at($m; $v.name; $c) as $cell
                     | ($cell | cell_speedup($m; $c)) as $val
                     | {text: ($cell | speedup_text($m; $c)), value: $val,
                        status: ($cell.status // "absent"),
                        id: ($cell.id // null),
                        base: (if $val == null then null else $val | fmt_ratio end),
                        ci: (if $val == null then null else $cell | speedup_ci($m; $c) end),
                        marks: (if $val != null and ($cell | speedup_throttled($m; $c)) then "†" else "" end)}]}]};

def compilers_table($m):
  compiler_pairs($m) as $pairs
  | {columns: [$pairs[] | .lab],
     pairs: $pairs,
     rows: [$m.variants[] as $v
            | {lab: ($v | variant_label), title: $v.title, ref: $v.ref,
               cells: [$pairs[] as $p
                       | (if $v.ref then null else pair_ratio($m; $v.name; $p) end) as $val
                       | $m.idx[$v.name][$p.gcfg] as $g | $m.idx[$v.name][$p.ccfg] as $k
                       | {text: pair_text($m; $v.name; $p), value: $val, status: "ok", id: null,
                          base: (if $val == null then null else $val | fixed(2) end),
                          ci: (if $val == null then null else ratio_ci($g | cell_ci($m); $k | cell_ci($m)) end),
                          marks: (if $val != null and (($g | cell_throttled($m)) or ($k | cell_throttled($m)))
                                  then "†" else "" end)}]}]};

def table_of($m; $which):
  if $which == "throughput" then throughput_table($m)
  elif $which == "speedup" then speedup_table($m)
  else compilers_table($m) end;

# Cells that are not ok, for the lists under the tables.
def problem_cells($m):
  [$m.cells[] | select(.status != "ok")];

# Cells with warnings, for the lists under the tables: [{id, warnings[]}].
def warned_cells($m):
  [$m.cells[] | . as $c | (cell_warnings($m)) as $w | select(($w | length) > 0) | {id: ($c.id // "" | tostring), warnings: $w}];

# What the ±, † and ‡ of table $t mean, as lines of text (empty when the table has none).
def legend($t; $which):
  [$t.rows[].cells[]] as $cells
  | (if any($cells[]; .ci != null) then
       [if $which == "throughput" then
          "± is the half-width of the 95 % confidence interval of the median, in percent of the median; "
          + "a figure without ± has no interval (fewer than 3 runs, or an older results file)."
        else
          "± combines the 95 % intervals of the two medians compared (root sum of squares of their half-widths, in percent)."
        end]
     else [] end)
  + (if any($cells[]; .marks | test("†")) then
       [if $which == "throughput" then
          "† the CPU throttled while this cell was measured (throttled: yes): its figure may be too low."
        else
          "† one of the two cells compared was measured while the CPU throttled (throttled: yes)."
        end]
     else [] end)
  + (if any($cells[]; .marks | test("‡")) then ["‡ the cell has warnings, listed below the table."] else [] end);

def markdown_table($t):
  "| variant | title | " + ($t.columns | map(md) | join(" | ")) + " |\n"
  + "| --- | --- |" + ($t.columns | map(" ---: |") | join("")) + "\n"
  + ($t.rows | map("| " + (.lab | md) + " | " + (.title | md) + " | "
                   + (.cells | map(.text | md) | join(" | ")) + " |\n") | join(""));
