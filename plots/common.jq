# common.jq: the HTML layout of index.jq and site.jq (include "common"; with jq -L plots).
# Their input is the model, `flagbench tables --format json`: every number, interval,
# mark and text comes from there, and nothing here computes or formats one.
# Everything shown goes through @html; the pages load nothing from the network.

def h: tostring | @html;

def head($title; $css):
  "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
  + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src 'self'; style-src 'unsafe-inline'\">\n"
  + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
  + @html "<title>\($title)</title>\n"
  + "<style>\n" + $css + "</style>\n</head>\n<body>\n";

def mark_title:
  [(if test("†") then "measured while the CPU throttled" else empty end),
   (if test("‡") then "has warnings (listed below)" else empty end),
   (if test("§") then "did not reach the precision target" else empty end),
   (if test("¶") then "unchecked: the family declares no check" else empty end)] | join("; ");

# A cell: the figure, its interval in grey (a value's ± in .pm, a ratio's [low, high] in
# .interval), its marks with a tooltip; a status word alone.
def cell_html:
  "<td class=\"" + ({ok: "num ok", absent: "absent", "n/a": "na"}[.state] // "bad")
  + (if .marks | test("†") then " throttled" else "" end) + "\">"
  + (if .state == "ok" then
       (.figure | h)
       + (if (.pm // "") != "" then " <span class=\"pm\">" + (.pm | h) + "</span>" else "" end)
       + (if (.interval // "") != "" then " <span class=\"interval\">" + (.interval | h) + "</span>" else "" end)
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
