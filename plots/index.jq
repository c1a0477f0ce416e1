# index.jq: the static index.html of one run: metadata, every table, every plot.
#   jq -r -L plots --rawfile produced LIST --arg note TEXT -f plots/index.jq results.json
# LIST: the plot files that exist, one relative path a line (plots/<slug>-<kind>.svg);
# TEXT: a note shown at the top (e.g. why plots are missing), or "".
# Everything from results.json goes through @html; the page loads nothing from the network.
include "common";

def h: tostring | @html;

# A value of host/tools/profile as text.
def as_text: if type == "string" then . elif . == null then "null" else tojson end;

def status_class: if . == "ok" then "ok" elif . == "absent" then "absent" else "bad" end;

def kv_table($obj):
  if ($obj | type) != "object" or ($obj | length) == 0 then "<p class=\"none\">none recorded</p>\n"
  else "<table class=\"kv\">\n"
       + ($obj | to_entries | map(@html "<tr><th>\(.key)</th><td>\(.value | as_text)</td></tr>\n") | join(""))
       + "</table>\n" end;

def mark_title:
  [(if test("†") then "measured while the CPU throttled" else empty end),
   (if test("‡") then "has warnings (listed below)" else empty end)] | join("; ");

# A cell: the figure, its ± in grey, its marks with a tooltip; a status word alone.
def cell_html:
  if .value != null and .base != null then
    (.base | h)
    + (if .ci != null then " <span class=\"pm\">" + (.ci | fmt_pm | h) + "</span>" else "" end)
    + (if .marks != "" then @html " <span class=\"mark\" title=\"\(.marks | mark_title)\">\(.marks)</span>" else "" end)
  else (.text | h) end;

def html_table($t; $which):
  "<div class=\"scroll\"><table class=\"grid\">\n<thead><tr><th>variant</th><th>title</th>"
  + ($t.columns | map(@html "<th>\(.)</th>") | join("")) + "</tr></thead>\n<tbody>\n"
  + ($t.rows | map(
      "<tr" + (if .ref then " class=\"ref\"" else "" end) + ">"
      + @html "<th>\(.lab)</th><td>\(.title)</td>"
      + (.cells | map(
          "<td class=\"" + (if .value != null then "num ok" else (.status | status_class) end)
          + (if .marks | test("†") then " throttled" else "" end) + "\">"
          + cell_html + "</td>") | join(""))
      + "</tr>\n") | join(""))
  + "</tbody></table></div>\n"
  + (legend($t; $which) | map(@html "<p class=\"legend\">\(.)</p>\n") | join(""));

def figure($plots; $slug; $kind; $alt):
  ("plots/" + $slug + "-" + $kind) as $base
  | if any($plots[]; . == $base + ".svg") then
      @html "<figure><img src=\"\($base).svg\" alt=\"\($alt)\">"
      + (if any($plots[]; . == $base + ".png") then @html "<figcaption><a href=\"\($base).png\">PNG</a></figcaption>" else "" end)
      + "</figure>\n"
    else "<p class=\"none\">no plot</p>\n" end;

($produced | split("\n") | map(select(. != ""))) as $plots
| . as $run
| models as $models
| ($run.run // {}) as $r
| [
  "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src 'self'; style-src 'unsafe-inline'\">\n",
  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
  @html "<title>flagbench: \($r.id // "run")</title>\n",
  "<style>\n",
  "body{font-family:sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1em;color:#222;background:#fff}\n",
  "h1{font-size:1.5em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}h3{font-size:1.05em;margin-top:1.5em}\n",
  "table{border-collapse:collapse;font-size:.9em;margin:.5em 0}th,td{border:1px solid #ddd;padding:.25em .5em;text-align:left;vertical-align:top}\n",
  "thead th{background:#f3f3f3;white-space:nowrap}td.num{text-align:right;white-space:nowrap}td.bad{background:#fbe3e3;color:#900}td.absent{color:#888}\n",
  "tr.ref th,tr.ref td{font-style:italic}table.kv th{background:#f8f8f8;width:12em}.scroll{overflow-x:auto}\n",
  "img{max-width:100%;height:auto;border:1px solid #eee}figure{margin:.5em 0}figcaption{font-size:.8em}\n",
  ".none{color:#777}.note{background:#fff6d5;border:1px solid #e6c200;padding:.5em}ul.warn li{color:#8a5300}\n",
  "nav a{margin-right:1em}pre{background:#f8f8f8;padding:.5em;overflow-x:auto}\n",
  ".pm{color:#666;font-size:.85em}.mark{color:#b00000;font-weight:bold;cursor:help}td.throttled{background:#fff3e0}\n",
  "p.legend{font-size:.85em;color:#555;margin:.2em 0}\n",
  "</style>\n</head>\n<body>\n",
  @html "<h1>flagbench run \($r.id // "?")</h1>\n",
  @html "<p>suite <b>\($r.suite // "?")</b>, cpu profile <b>\($r.cpu_profile // "?")</b>, host <b>\($run.host.cpu_model // "?")</b>; started \($r.started // "?"), finished \($r.finished // "not finished")\(if $r.interrupted == true then " (interrupted)" else "" end).</p>\n",
  (if $note != "" then @html "<p class=\"note\">\($note)</p>\n" else "" end),
  "<nav>",
  ($models | map(@html "<a href=\"#fam-\(.slug)\">\(.title)</a>") | join("")),
  "<a href=\"#run\">run</a><a href=\"#host\">host</a><a href=\"#tools\">tools</a></nav>\n",
  "<h2 id=\"warnings\">Warnings</h2>\n",
  (($r.warnings // []) as $w
   | if ($w | length) == 0 then "<p class=\"none\">none</p>\n"
     else "<ul class=\"warn\">\n" + ($w | map(@html "<li>\(.)</li>\n") | join("")) + "</ul>\n" end),
  ($models[] as $m
   | ($m.slug) as $s
   | throughput_table($m) as $tt
   | speedup_table($m) as $st
   | compilers_table($m) as $ct
   | problem_cells($m) as $bad
   | [$m.cells[] | select((.warnings // []) | length > 0)] as $warned
   | @html "<h2 id=\"fam-\($s)\">\($m.title) <small>(\($m.name), \($m.kind))</small></h2>\n",
     (if $m.unit | is_per_op then "<h3>Time per operation (usec/op, lower is faster)</h3>\n" else "<h3>Throughput</h3>\n" end),
     figure($plots; $s; "throughput"; $m.title + (if $m.unit | is_per_op then ": time per operation" else ": throughput" end)),
     html_table($tt; "throughput"),
     (if any($tt.rows[]; .ref) and ($tt.columns | length) > 1 and ref_per_column($m)
      then "<p class=\"legend\">A reference row shows in each column the reference measured with that column's placement and consumer.</p>\n"
      else "" end),
     @html "<p>Tables: <a href=\"tables/\($s).md\">Markdown</a>, <a href=\"tables/\($s).csv\">CSV</a>.</p>\n",
     "<h3>Share of each variant's best configuration</h3>\n",
     figure($plots; $s; "heatmap"; $m.title + ": heatmap"),
     @html "<h3>Speedup against \($m.baseline // "the baseline")</h3>\n",
     figure($plots; $s; "speedup"; $m.title + ": speedup"),
     html_table($st; "speedup"),
     "<h3>gcc against clang (throughput ratio, above 1 gcc is faster)</h3>\n",
     (if ($ct.columns | length) == 0 then "<p class=\"none\">no cells differ only by compiler</p>\n"
      else figure($plots; $s; "compilers"; $m.title + ": gcc / clang") + html_table($ct; "compilers") end),
     (if ($bad | length) == 0 then ""
      else "<h3>Cells that are not ok</h3>\n<table class=\"grid\"><thead><tr><th>cell</th><th>status</th><th>reason</th></tr></thead><tbody>\n"
           + ($bad | map(@html "<tr><td>\(.id)</td><td class=\"bad\">\(.status)</td><td>\(.reason // "")</td></tr>\n") | join(""))
           + "</tbody></table>\n" end),
     (if ($warned | length) == 0 then ""
      else "<h3>Cell warnings</h3>\n<ul class=\"warn\">\n"
           + ($warned | map(. as $c | .warnings[] | @html "<li>\($c.id): \(.)</li>\n") | join(""))
           + "</ul>\n" end)),
  "<h2 id=\"run\">Run</h2>\n",
  kv_table({schema: $run.schema, flagbench_version: $run.flagbench_version} + ($r | del(.phases, .warnings)
           | if (.argv | type) == "array" then .argv = (.argv | map(tostring) | join(" ")) else . end)),
  "<h3>Phases (seconds)</h3>\n",
  kv_table($r.phases),
  "<h2 id=\"host\">Host</h2>\n",
  kv_table($run.host),
  "<h2 id=\"tools\">Tools</h2>\n",
  kv_table($run.tools),
  "<h2 id=\"profile\">CPU profile</h2>\n",
  (if $run.profile then @html "<pre>\($run.profile | tojson)</pre>\n" else "<p class=\"none\">none recorded</p>\n" end),
  "<p class=\"none\">Rendered by flagbench from results.json alone.</p>\n</body>\n</html>"
  ] | join("")
