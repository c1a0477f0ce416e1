# tune.jq: the index.html of one tune folder (plots/tune.sh): the answer, the flags that
# carry it, the confirmation, each technique's search and its convergence plot.
include "common";
def pct: if . == null then "-" else (. * 100 | round | tostring) + " %" end;
def ratio: if . == null then "-" else (. * 1000 | round / 1000 | tostring) + "x" end;
def cmp: if . == null then "not measured" else .text end;
head("flagbench tune: " + .start.id; $css),
"<h1>tune " + (.start.id | @html) + "</h1>",
"<p>" + (.start.compiler_version | @html) + "; " + (.space.dimensions | tostring) + " dimensions searched, "
  + (.space.excluded | length | tostring) + " left out; screened by " + (.metric | @html) + ".</p>",
(if .answer.better then
  "<p class=\"answer\"><b>Answer:</b> <code>" + (.answer.flags | @html) + "</code> (" + (.answer.build | @html) + "): "
  + (.answer.vs_start.text | @html) + " against the start.</p><pre>CFLAGS=\"" + (.answer.cflags | @html) + "\"</pre>"
 else "<p class=\"answer\"><b>No better configuration found</b> than the start.</p>" end),
(if (.minimal.shares | length) > 0 then
  "<h2>The flags that carry the gain</h2><table><tr><th>flag</th><th>share</th><th>without it</th></tr>"
  + (.minimal.shares | map("<tr><td><code>" + (.flag | @html) + "</code></td><td class=\"num\">" + (.share | pct)
      + "</td><td class=\"num\">" + (.without_ratio | ratio) + "</td></tr>") | join("")) + "</table>"
 else "" end),
"<h2>Confirmation by time</h2><p>" + (.confirmation.rounds | tostring) + " rounds, " + (.confirmation.layouts | tostring)
  + " code layout(s), each build against the start at " + ((.confirmation.level * 1000 | round) / 10 | tostring) + " %.</p>",
"<table><tr><th>build</th><th>flags</th><th>screen</th><th>against the start</th></tr>"
  + (.confirmation.builds | map("<tr><td>" + (.build | @html) + "</td><td><code>" + (.flags | @html) + "</code></td><td class=\"num\">"
      + (.screen_ratio | ratio) + "</td><td>" + (.vs_start | cmp | @html) + "</td></tr>") | join("")) + "</table>",
"<h2>The searches</h2><table><tr><th>technique</th><th>candidates</th><th>failed</th><th>wrong output</th><th>same binary</th><th>seconds</th><th>best</th></tr>"
  + (.techniques | map("<tr><td>" + (.technique | @html) + "</td><td class=\"num\">" + (.candidates | tostring) + "</td><td class=\"num\">"
      + (.failed | tostring) + "</td><td class=\"num\">" + (.wrong_output | tostring) + "</td><td class=\"num\">"
      + (.same_binary | tostring) + "</td><td class=\"num\">" + (.spent_s | round | tostring) + "</td><td class=\"num\">"
      + (.best_ratio | ratio) + "</td></tr>") | join("")) + "</table>",
(if $svg == 1 then "<figure><img src=\"convergence.svg\" alt=\"best so far against time, per technique\"><figcaption>Best so far against each technique's own time.</figcaption></figure>" else "" end),
"<p>Every candidate: <a href=\"results.json\">results.json</a>, <a href=\"journal.jsonl\">journal.jsonl</a>.</p></body></html>"
