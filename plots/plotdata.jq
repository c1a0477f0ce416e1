# plotdata.jq: the data file (TSV) for one plot of one family, or the plot's parameters.
#   jq -r -L plots --argjson fam N --arg plot throughput|speedup|compilers|heatmap --arg part meta|data|both \
#      -f plots/plotdata.jq results.json
#
# part=meta prints one TSV line for plots/render.sh:
#   bars:    has_data  nseries  log(0|1)  ybottom  hline(y or "none")  title  ylabel  lastref(0|1)
#   heatmap: has_data  ncols    nrows     colwidth(pixels)  xrotate(0|1)  title
# part=both prints the meta line, then the data.
# part=data prints the data file that plots/bars.gp or plots/heatmap.gp reads:
#   bars:    one block per series (blocks end with two blank lines), each starting with a
#            header line holding the series name, then rows of
#            x  y  ylow  yhigh  xlow  xhigh  label_y  label_text   (lab: the status of a cell
#            that is not ok, drawn at label_y; label_y is NaN for ok cells); a last block
#            (header line too) of  x  tic-label  rows for the x axis.
#   heatmap: block 0 rows x  y  ratio  text  ok(1|0); block 1 x tic labels; block 2 y tic labels.
include "common";

def num: if . == null then "NaN" else tostring end;

# {series: [{name, rows: [{x, y, ylow, yhigh, xlow, xhigh, status}]}], tics: [{x, label}], values: [...]}
def bars($m; $plot):
  table_of($m; $plot) as $t
  | family_scale($m) as $scale
  | (if $plot == "throughput" then $scale else {div: 1} end) as $sc
  | (if $plot == "compilers" then [$t.rows[] | select(.ref | not)] else $t.rows end) as $rows
  | ($t.columns | length) as $nc
  # In the throughput plot a reference is one bar of its own series (the same
  # measurement stands in every column); in the speedup plot it is compared
  # with each configuration's baseline, so it has a bar per column.
  | ($plot == "throughput" and any($rows[]; .ref) and (ref_per_column($m) | not)) as $refseries
  | (if $nc > 0 then 0.8 / $nc else 0.8 end) as $w
  | [range(0; $rows | length) as $i | $rows[$i] as $r
     | if $refseries and $r.ref then
         {series: $nc, x: $i, w: $w, cell: $r.cells[0], cfg: null}
       else
         range(0; $nc) as $j
         | {series: $j, x: ($i + ($j - ($nc - 1) / 2) * $w), w: $w, cell: $r.cells[$j], cfg: $t.columns[$j]}
       end
     | . as $b
     | ($rows[$i].lab) as $rl
     | ($m.variants | map(select(variant_label == $rl)) | first) as $v
     | (if $plot == "throughput" and $b.cell.value != null
        then (cell_at($m; $v.name; $b.cfg // ($m.configs[0] // "")) | measured($m) | (.throughput_Bps // .rate // {})) as $s
             # the 95 % interval of the median where the run has one, else min..max
             | (if ($s.ci95 | type) == "object" and ($s.ci95.low | type) == "number" and ($s.ci95.high | type) == "number"
                then [$s.ci95.low, $s.ci95.high] else [$s.min, $s.max] end) as $span
             | [$span[] | if type == "number" then scaled($sc) else null end] as $ends
             | if any($ends[]; . == null) then {lo: null, hi: null} else {lo: ($ends | min), hi: ($ends | max)} end
        else {lo: null, hi: null} end) as $err
     | {series: $b.series, x: $b.x, xlow: ($b.x - $b.w / 2), xhigh: ($b.x + $b.w / 2),
        y: ($b.cell.value | scaled($sc)),
        ylow: $err.lo, yhigh: $err.hi,
        status: (if $b.cell.value == null then $b.cell.text else null end)}]
  | . as $bars
  | {refseries: $refseries,
     names: ($t.columns + (if $refseries then ["reference"] else [] end)),
     bars: $bars,
     tics: [range(0; $rows | length) as $i | {x: $i, lab: $rows[$i].lab}],
     values: [$bars[] | .y, .ylow, .yhigh | select(. != null and . > 0)],
     ylabel: (if $plot == "throughput" then $scale.lab + (if $scale.inv then " (lower is faster)" else "" end)
              elif $plot == "speedup" then "speedup against " + ($m.baseline // "baseline" | tostring)
              else "gcc / clang" end),
     title: ($m.title + (if $plot == "throughput" then (if $scale.inv then ": time per operation" else ": throughput" end)
                         elif $plot == "speedup" then ": speedup"
                         else ": gcc / clang, by flags" end)),
     hline: (if $plot == "throughput" then "none" else "1" end)};

def bars_layout($b):
  ($b.values | min) as $min | ($b.values | max) as $max
  | (($b.values | length) > 0) as $has
  | ($has and $min > 0 and $max / $min > 10) as $log
  | {has: $has, log: $log,
     ybot: (if $log then pow(10; ($min | log10) - 0.05 | floor) else 0 end)};

def heatmap($m):
  throughput_table($m) as $t
  | ($t.rows | length) as $nr
  | {ncols: ($t.columns | length), nrows: $nr,
     cells: [range(0; $nr) as $i | $t.rows[$i] as $r
             | ([$r.cells[] | .value | select(. != null)] | max) as $best
             | range(0; $t.columns | length) as $j | $r.cells[$j] as $c
             | {x: $j, y: ($nr - 1 - $i),
                ratio: (if $c.value != null and $best != null and $best > 0 then $c.value / $best else null end),
                text: $c.text, ok: (if $c.value != null then 1 else 0 end)}],
     # a column wide enough for its longest label (about 7.5 pixels a character), the
     # configuration names rotated when they are wider than that
     colw: ([150, ([$t.rows[].cells[].text | length] | max // 0) * 7.5 + 24] | max | ceil),
     xrot: (if (([$t.columns[] | length] | max // 0) * 7.5) > ([150, ([$t.rows[].cells[].text | length] | max // 0) * 7.5 + 24] | max)
            then 1 else 0 end),
     xtics: [range(0; $t.columns | length) as $j | {x: $j, lab: $t.columns[$j]}],
     ytics: [range(0; $nr) as $i | {y: ($nr - 1 - $i), lab: $t.rows[$i].lab}],
     title: ($m.title + (if $m.unit | is_per_op then ": time per operation" else ": throughput" end)
             + ", colour = share of the row's best"
             + ([$t.rows[].cells[].marks] | join("") as $mk
                | (if $mk | test("†") then "; † throttled" else "" end)
                  + (if $mk | test("‡") then "; ‡ warnings" else "" end)))};

model_at($fam) as $m
| if $plot == "heatmap" then
    heatmap($m) as $h
    | (if $part != "data" then
        [(if $h.ncols > 0 and $h.nrows > 0 then 1 else 0 end), $h.ncols, $h.nrows, $h.colw, $h.xrot,
         ($h.title | gpstr | nonempty)] | map(tostring) | @tsv
      else empty end),
      (if $part != "meta" then
        ($h.cells[] | [.x, .y, (.ratio | num), (.text | gpstr), .ok] | map(tostring) | @tsv),
        "", "",
        ($h.xtics[] | [.x, (.lab | gpstr)] | map(tostring) | @tsv),
        "", "",
        ($h.ytics[] | [.y, (.lab | gpstr)] | map(tostring) | @tsv)
      else empty end)
  else
    bars($m; $plot) as $b
    | bars_layout($b) as $l
    | (if $part != "data" then
        [(if $l.has then 1 else 0 end), ($b.names | length), (if $l.log then 1 else 0 end), $l.ybot,
         $b.hline, ($b.title | gpstr | nonempty), ($b.ylabel | gpstr | nonempty), (if $b.refseries then 1 else 0 end)]
        | map(tostring) | @tsv
      else empty end),
      (if $part != "meta" then
        (range(0; $b.names | length) as $s
         | ($b.names[$s] | gpstr),
           ($b.bars[] | select(.series == $s)
            | [.x, (.y | num), (.ylow | num), (.yhigh | num), .xlow, .xhigh,
               (if .status then (if $l.log then $l.ybot * 1.15 else 0 end) else null end | num),
               (.status // "-" | gpstr)] | map(tostring) | @tsv),
           "", ""),
        "variants",
        ($b.tics[] | [.x, (.lab | gpstr)] | map(tostring) | @tsv)
      else empty end)
  end
