# index.jq: the index.html of one run: the answer, every table and plot, the run's record.
#   jq -r -L plots --slurpfile model MODEL.json --rawfile produced LIST --arg note TEXT \
#      --rawfile css plots/page.css -f plots/index.jq results.json
# MODEL.json: `flagbench tables --format json RUN`; LIST: the plot files that exist, one
# relative path a line (plots/<slug>-<table>.svg); TEXT: a note shown at the top, or "".
# results.json gives only what the page shows as recorded (run, host, tools, profile).
include "common";

# a recorded value as words, never raw JSON: objects as "key value, ...", lists joined
def as_text:
  if type == "string" then .
  elif . == null then "none"
  elif type == "object" then to_entries | map("\(.key) \(.value | as_text)") | join(", ")
  elif type == "array" then map(as_text) | join(", ")
  else tostring end;

# a family's gaps (flagbench tables --format json: B against A, real ones first):
# the real ones a line each, largest first, then those that made no real difference
def gap_name: .b + " against " + .a + (if .context != "" then " (" + .context + ")" else "" end);
def gaps_html:
  (map(select(.real > 0))) as $real | (map(select(.real == 0))) as $none
  | (if ($real | length) > 0 then
       "<p class=\"gaps\">Real gaps, largest first (B against A: B's throughput over A's, below 1.00x slower):</p>\n<ul class=\"gaps\">\n"
       + ($real | map(@html "<li><b>\(gap_name)</b>: \([.entries[] | select(.verdict == "faster" or .verdict == "slower") | "\(.text) \(.variant)\(if .repeat_unsure then " (repeats \(.repeat_chance * 100 | round) %)" else "" end)"] | join(", "))</li>\n") | join(""))
       + "</ul>\n"
     else "<p class=\"gaps\">Real gaps: none.</p>\n" end)
  + (if ($none | length) > 0 then @html "<p class=\"gaps\">No real difference: \($none | map(gap_name) | join("; ")).</p>\n" else "" end);

def kv_table($obj):
  if ($obj | type) != "object" or ($obj | length) == 0 then "<p class=\"none\">none recorded</p>\n"
  else "<table class=\"kv\">\n" + ($obj | to_entries | map(@html "<tr><th>\(.key)</th><td>\(.value | as_text)</td></tr>\n") | join(""))
       + "</table>\n" end;

def figure($plots; $base; $alt):
  if any($plots[]; . == $base + ".svg") then
    @html "<figure><img src=\"\($base).svg\" alt=\"\($alt)\">"
    + (if any($plots[]; . == $base + ".png") then @html "<figcaption><a href=\"\($base).png\">PNG</a></figcaption>" else "" end)
    + "</figure>\n"
  else "<p class=\"none\">no plot</p>\n" end;

($produced | split("\n") | map(select(. != ""))) as $plots
| . as $run
| ($run.run // {}) as $r
| [
  head("flagbench: " + ($r.id // "run" | tostring); $css),
  @html "<h1>flagbench run \($r.id // "?")</h1>\n",
  @html "<p>suite <b>\($r.suite // "?")</b>, cpu profile <b>\($r.cpu_profile // "?")</b>, host <b>\($run.host.cpu_model // "?")</b>; started \($r.started // "?"), finished \($r.finished // "not finished")\(if $r.interrupted == true then " (interrupted)" else "" end).</p>\n",
  (if $note != "" then @html "<p class=\"note\">\($note)</p>\n" else "" end),
  "<nav>", ($model[0].families | map(@html "<a href=\"#fam-\(.slug)\">\(.title)</a>") | join("")),
  "<a href=\"#run\">run</a><a href=\"#host\">host</a><a href=\"#tools\">tools</a></nav>\n",
  # the overview: every family's answers (and so its real gaps) before any table
  "<h2 id=\"overview\">Answers</h2>\n",
  ($model[0].families | map(@html "<h3 class=\"overview\"><a href=\"#fam-\(.slug)\">\(.title)</a></h3>\n" + (.answer | list("answer")) + ((.gaps // []) | if length > 0 then gaps_html else "" end)) | join("")),
  "<h2 id=\"warnings\">Warnings</h2>\n",
  (($r.warnings // []) | if length == 0 then "<p class=\"none\">none</p>\n" else list("warn") end),
  ($model[0].families[] as $f
   | @html "<h2 id=\"fam-\($f.slug)\">\($f.title) <small>(\($f.name), \($f.kind))</small></h2>\n",
     ($f.answer | list("answer")),
     ($f.tables[] | . as $t | ("plots/" + $f.slug + "-" + .name) as $base
      | @html "<h3>\(.title)</h3>\n<p>\(.caption)</p>\n",
        figure($plots; $base; .title),
        (if .name == "throughput" then figure($plots; "plots/" + $f.slug + "-heatmap"; .title + ": heatmap") else "" end),
        html_table,
        @html "<p>Table: <a href=\"tables/\($f.slug)\(if $t.name == "throughput" then "" else "-" + $t.name end).md\">Markdown</a>, <a href=\"tables/\($f.slug).csv\">CSV</a>.</p>\n"),
     (if ($f.problems | length) == 0 then "" else "<h3>Cells that are not ok</h3>\n" + ($f.problems | list("warn")) end),
     (if ($f.warnings | length) == 0 then "" else "<h3>Cell warnings</h3>\n" + ($f.warnings | list("warn")) end)),
  "<h2 id=\"run\">Run</h2>\n",
  kv_table({schema: $run.schema, flagbench_version: $run.flagbench_version} + ($r | del(.phases, .warnings)
           | if (.argv | type) == "array" then .argv = (.argv | map(tostring) | join(" ")) else . end)),
  "<h3>Phases (seconds)</h3>\n", kv_table($r.phases),
  "<h2 id=\"host\">Host</h2>\n", kv_table($run.host),
  "<h2 id=\"tools\">Tools</h2>\n", kv_table($run.tools),
  "<h2 id=\"profile\">CPU profile</h2>\n",
  kv_table($run.profile),
  "<p class=\"none\">Rendered by flagbench from results.json alone.</p>\n</body>\n</html>"
  ] | join("")
