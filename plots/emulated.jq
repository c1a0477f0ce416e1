# Cells run under an emulator (cross builds: "emulated": true) form a family of
# their own, "<family> (emulated)", so that no table, plot or ranking ever
# mixes emulated times with native ones.
. as $r
| ([$r.cells[]? | select(.emulated == true) | .family] | unique) as $fs
| if ($fs | length) == 0 then .
  else
    .families = (($r.families // {}) + (reduce $fs[] as $f ({};
        .[$f + " (emulated)"] = ((($r.families // {})[$f] // {})
          | .title = ((.title // $f) + " (emulated: times are not comparable with native ones)")))))
    | .cells |= map(if .emulated == true then .family += " (emulated)" else . end)
  end
