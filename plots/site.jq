# site.jq: the index.html of plots/publish.sh: the answers across machines, the runs, and their
# tables side by side.
#   jq -r -L plots --rawfile css plots/page.css -f plots/site.jq MODEL.json     (MODEL.json: `flagbench tables --format json RUN...`)
include "common";

# a family's answers across machines (flagbench tables --format json: families[].across):
# per variant each machine's fastest, whether the machines agree, the portable choice;
# then the gaps that flip between machines (or hold on some only), first
def across_cell($v; $m):
  ([$v.machines[] | select(.machine == $m)] | first) as $a
  | if $a == null then "<td class=\"na\">not in its run</td>"
    elif $a.leader == null then @html "<td class=\"na\">\($a.words)</td>"
    else @html "<td><b>\($a.leader)</b> <span class=\"interval\">\($a.words)</span></td>" end;
def across_html:
  .across as $x
  | @html "<h3 class=\"overview\">\(.title)</h3>\n<p>\($x.summary).</p>\n"
  + (if $x.note != null then @html "<p class=\"note\">\($x.note)</p>\n" else "" end)
  + "<div class=\"scroll\"><table class=\"grid across\">\n<thead><tr><th>variant</th>"
  + ($x.machines | map(@html "<th>fastest on \(.)</th>") | join(""))
  + "<th>the machines</th><th>portable choice</th></tr></thead>\n<tbody>\n"
  + ($x.variants | map(. as $v
      | if $v.skipped != null then
          @html "<tr><th>\($v.variant)</th><td colspan=\"\($x.machines | length + 2)\" class=\"na\">\($v.skipped)</td></tr>\n"
        else
          @html "<tr><th>\($v.variant)</th>" + ($x.machines | map(across_cell($v; .)) | join(""))
          + @html "<td>\($v.words)</td><td>\($v.portable.words)"
          + (if $v.portable.contrast != null then @html "<br><span class=\"interval\">against: \($v.portable.contrast)</span>" else "" end)
          + (if $v.portable.left_words != null then @html "<br><span class=\"interval\">left out, not measured ok on every machine: \($v.portable.left_words)</span>" else "" end)
          + "</td></tr>\n"
        end) | join(""))
  + "</tbody></table></div>\n"
  + ([$x.gaps[] | select(.kind != "agrees")] as $g
     | if ($g | length) == 0 then "<p class=\"gaps\">No gap flips between the machines.</p>\n"
       else "<p class=\"gaps\">Gaps across the machines, those that flip first (B against A: B's throughput over A's, on each machine by its own run):</p>\n<ul class=\"gaps\">\n"
            + ($g | map(@html "<li><b>\(.name)</b>: \(.words)</li>\n") | join("")) + "</ul>\n" end)
  + ([$x.gaps[] | select(.kind == "agrees") | .name] as $same
     | if ($same | length) == 0 then "" else @html "<p class=\"gaps\">The same on every machine that measured both builds: \($same | join("; ")).</p>\n" end);

[ head("flagbench: results across machines"; $css),
  "<h1>flagbench: results across machines</h1>\n",
  # the answers across machines open the page, before the runs and their tables
  ([.families[] | select(.across != null)] as $fams
   | if ($fams | length) == 0 then ""
     else "<h2 id=\"across\">Answers across machines</h2>\n"
          + ((.families | map(select(.across != null)) | first | .across.level_words) as $l | @html "<p>\($l).</p>\n")
          + ($fams | map(across_html) | join("")) end),
  "<h2>Runs</h2>\n",
  "<table><thead><tr><th>machine</th><th>run</th><th>suite</th><th>cpu model</th><th>started</th><th>cells</th><th>ok</th></tr></thead><tbody>\n",
  (.runs | map(@html "<tr><td>\(.label)</td><td><a href=\"runs/\(.slug)/index.html\">\(.id)</a></td><td>\(.suite // "?")</td><td>\(.cpu_model // "?")</td><td>\(.started // "?")</td><td class=\"num\">\(.cells)</td><td class=\"num\">\(.ok)</td></tr>\n") | join("")),
  "</tbody></table>\n",
  "<p>Tables: <a href=\"merged.md\">Markdown</a>, <a href=\"merged.csv\">CSV</a>.</p>\n",
  (.families[] | @html "<h2>\(.title)</h2>\n" + (.tables | map(@html "<h3>\(.title)</h3>\n<p>\(.caption)</p>\n" + html_table) | join(""))),
  "<p>Rendered by flagbench from results.json files alone.</p>\n</body>\n</html>"
] | join("")
