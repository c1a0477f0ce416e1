# common.jq: the table model every renderer shares (include "common"; with jq -L plots).
#
# A run (results.json, schema flagbench-results/1) becomes, per family, a grid:
# variants down (references last), build configurations across (in the order
# the cells appear), one cell per (variant, config).  Every cell has a text
# (a formatted number, or the status word when the cell is not ok, or
# "absent" when the run has no such cell) and a number (null unless ok).
# harness/render.c implements the same rules; keep the two in step.

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

# Bytes per second, 1024-based, like format_rate() in harness/util.c.
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

def fmt_value($unit): if ($unit | is_bytes_unit) then fmt_rate else fmt_count($unit) end;

def fmt_ratio: fixed(2) + "x";

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

# The model of family $f of the run at `.`:
# {name, slug, title, kind, unit, baseline, configs[], variants[{name,title,ref}],
#  idx: {variant: {config: cell}}, byid: {id: cell}}
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

# The cell of variant $v in column $config (references have one cell for every column).
def cell_at($m; $v; $config):
  ($m.variants[] | select(.name == $v) | .ref) as $ref
  | if $ref then ($m.idx[$v] // {} | to_entries | first | .value)
    else $m.idx[$v][$config] end;

# The value of a cell, following same_binary_as when the cell shares a binary.
def cell_value($m):
  if . == null or .status != "ok" then null
  else (own_value // (if .same_binary_as then ($m.byid[.same_binary_as] // {} | own_value) else null end))
  end;

def value_text($m):
  if . == null then "absent"
  elif .status != "ok" then (.status | tostring)
  else (cell_value($m) | if . == null then "no data" else fmt_value($m.unit) end) end;

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

def speedup_text($m; $config):
  if . == null then "absent"
  elif .status != "ok" then (.status | tostring)
  else (cell_speedup($m; $config) | if . == null then "n/a" else fmt_ratio end) end;

# Unit for plots and CSV: one per family, chosen from the largest value.
def family_scale($m):
  [$m.variants[] as $v | $m.configs[] as $c | cell_at($m; $v.name; $c) | cell_value($m) | select(. != null)]
  | (max // 0) as $max
  | if ($m.unit | is_bytes_unit) then
      (if $max >= 1073741824 then {div: 1073741824, lab: "GiB/s"} else {div: 1048576, lab: "MiB/s"} end)
    elif $max >= 1e9 then {div: 1e9, lab: ("G" + $m.unit)}
    elif $max >= 1e6 then {div: 1e6, lab: ("M" + $m.unit)}
    elif $max >= 1e3 then {div: 1e3, lab: ("k" + $m.unit)}
    else {div: 1, lab: $m.unit} end;

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
        else (pair_ratio($m; $v; $p) | if . == null then "n/a" else fixed(2) end) end
    end;

# The three tables as {title, note, columns[], rows[{label, title, ref, cells[{text, value}]}]}.
def variant_label: if .ref then .name + " (reference)" else .name end;

def throughput_table($m):
  {columns: $m.configs,
   rows: [$m.variants[] as $v
          | {lab: ($v | variant_label), title: $v.title, ref: $v.ref,
             cells: [$m.configs[] as $c | cell_at($m; $v.name; $c) as $cell
                     | {text: ($cell | value_text($m)), value: ($cell | cell_value($m)),
                        status: ($cell.status // "absent")}]}]};

def speedup_table($m):
  {columns: $m.configs,
   rows: [$m.variants[] as $v
          | {lab: ($v | variant_label), title: $v.title, ref: $v.ref,
             cells: [$m.configs[] as $c | cell_at($m; $v.name; $c) as $cell
                     | {text: ($cell | speedup_text($m; $c)), value: ($cell | cell_speedup($m; $c)),
                        status: ($cell.status // "absent")}]}]};

def compilers_table($m):
  compiler_pairs($m) as $pairs
  | {columns: [$pairs[] | .lab],
     pairs: $pairs,
     rows: [$m.variants[] as $v
            | {lab: ($v | variant_label), title: $v.title, ref: $v.ref,
               cells: [$pairs[] as $p
                       | {text: pair_text($m; $v.name; $p),
                          value: (if $v.ref then null else pair_ratio($m; $v.name; $p) end),
                          status: "ok"}]}]};

def table_of($m; $which):
  if $which == "throughput" then throughput_table($m)
  elif $which == "speedup" then speedup_table($m)
  else compilers_table($m) end;

# Cells that are not ok, for the lists under the tables.
def problem_cells($m):
  [$m.cells[] | select(.status != "ok")];

def markdown_table($t):
  "| variant | title | " + ($t.columns | map(md) | join(" | ")) + " |\n"
  + "| --- | --- |" + ($t.columns | map(" ---: |") | join("")) + "\n"
  + ($t.rows | map("| " + (.lab | md) + " | " + (.title | md) + " | "
                   + (.cells | map(.text | md) | join(" | ")) + " |\n") | join(""));
