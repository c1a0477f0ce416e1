# common.jq: the HTML layout of index.jq and site.jq (include "common"; with jq -L plots).
# Their input is the model, `flagbench tables --format json`: every number, interval,
# mark and text comes from there, and nothing here computes or formats one.
# Everything shown goes through @html; the pages load nothing from the network.

def h: tostring | @html;

def head($title):
  "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
  + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src 'self'; style-src 'unsafe-inline'\">\n"
  + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
  + @html "<title>\($title)</title>\n"
  + "<style>\nbody{font-family:sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1em;color:#222;background:#fff}\n"
  + "h1{font-size:1.5em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}h3{font-size:1.05em;margin-top:1.5em}\n"
  + "table{border-collapse:collapse;font-size:.9em;margin:.5em 0}th,td{border:1px solid #ddd;padding:.25em .5em;text-align:left;vertical-align:top}\n"
  + "thead th{background:#f3f3f3;white-space:nowrap}td.num{text-align:right;white-space:nowrap}td.bad{background:#fbe3e3;color:#900}td.absent,td.na{color:#888}\n"
  + "tr.ref th,tr.ref td{font-style:italic}table.kv th{background:#f8f8f8;width:12em}.scroll{overflow-x:auto}\n"
  + "img{max-width:100%;height:auto;border:1px solid #eee}figure{margin:.5em 0}figcaption{font-size:.8em}\n"
  + ".none{color:#777}.note{background:#fff6d5;border:1px solid #e6c200;padding:.5em}ul.warn li{color:#8a5300}\n"
  + "ul.answer{background:#eef6ee;border:1px solid #9c9;padding:.5em 2em}nav a{margin-right:1em}pre{background:#f8f8f8;padding:.5em;overflow-x:auto}\n"
  + ".pm{color:#666;font-size:.85em}.mark{color:#b00000;font-weight:bold;cursor:help}td.throttled{background:#fff3e0}\n"
  + "p.legend{font-size:.85em;color:#555;margin:.2em 0}\n</style>\n</head>\n<body>\n";

def mark_title:
  [(if test("†") then "measured while the CPU throttled" else empty end),
   (if test("‡") then "has warnings (listed below)" else empty end)] | join("; ");

# A cell: the figure, its ± in grey, its marks with a tooltip; a status word alone.
def cell_html:
  "<td class=\"" + ({ok: "num ok", absent: "absent", "n/a": "na"}[.state] // "bad")
  + (if .marks | test("†") then " throttled" else "" end) + "\">"
  + (if .state == "ok" then
       (.figure | h)
       + (if .pm != "" then " <span class=\"pm\">" + (.pm | h) + "</span>" else "" end)
       + (if .marks != "" then @html " <span class=\"mark\" title=\"\(.marks | mark_title)\">\(.marks)</span>" else "" end)
     else (.text | h) end)
  + "</td>";

def html_table:
  "<div class=\"scroll\"><table class=\"grid\">\n<thead><tr>" + @html "<th>variant</th><th>\(.col2)</th>"
  + (.columns | map(@html "<th>\(.)</th>") | join("")) + "</tr></thead>\n<tbody>\n"
  + (.rows | map("<tr" + (if .ref then " class=\"ref\"" else "" end) + ">" + @html "<th>\(.label)</th><td>\(.title)</td>"
                 + (.cells | map(cell_html) | join("")) + "</tr>\n") | join(""))
  + "</tbody></table></div>\n"
  + (.legend | map(@html "<p class=\"legend\">\(.)</p>\n") | join(""));

def list($class): if length == 0 then "" else "<ul class=\"\($class)\">\n" + (map(@html "<li>\(.)</li>\n") | join("")) + "</ul>\n" end;
