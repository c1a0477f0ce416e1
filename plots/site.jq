# site.jq: the index.html of plots/publish.sh: the runs, and their tables side by side.
#   jq -r -L plots --rawfile css plots/page.css -f plots/site.jq MODEL.json     (MODEL.json: `flagbench tables --format json RUN...`)
include "common";

[ head("flagbench: results across machines"; $css),
  "<h1>flagbench: results across machines</h1>\n<h2>Runs</h2>\n",
  "<table><thead><tr><th>machine</th><th>run</th><th>suite</th><th>cpu model</th><th>started</th><th>cells</th><th>ok</th></tr></thead><tbody>\n",
  (.runs | map(@html "<tr><td>\(.label)</td><td><a href=\"runs/\(.slug)/index.html\">\(.id)</a></td><td>\(.suite // "?")</td><td>\(.cpu_model // "?")</td><td>\(.started // "?")</td><td class=\"num\">\(.cells)</td><td class=\"num\">\(.ok)</td></tr>\n") | join("")),
  "</tbody></table>\n",
  "<p>Tables: <a href=\"merged.md\">Markdown</a>, <a href=\"merged.csv\">CSV</a>.</p>\n",
  (.families[] | @html "<h2>\(.title)</h2>\n" + (.tables | map(@html "<h3>\(.title)</h3>\n<p>\(.caption)</p>\n" + html_table) | join(""))),
  "<p>Rendered by flagbench from results.json files alone.</p>\n</body>\n</html>"
] | join("")
