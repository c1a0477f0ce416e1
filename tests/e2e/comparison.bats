#!/usr/bin/env bats
# The one comparison (analysis/comparison.h) behind every answer and ratio:
# on a run whose cells have rounds, the answer calls a lead real exactly
# when the ratio the tables print for the same pair has an interval that
# excludes 1.00x; a pair within its noise is "not a real lead" (~); two
# byte-identical builds are "the same binary" (≡), never a ratio.
load helpers

setup_file() {
    export RUN="$BATS_FILE_TMPDIR/run"
    "$FLAGBENCH" run --suite smoke --dry-run --no-render --runs 13 --precision 0 -o "$BATS_FILE_TMPDIR/dry" \
        >/dev/null 2>&1
    mkdir -p "$RUN"
    # yes/simple: clang's runs are gcc's within 2 % either way (too close
    # to call); yes/vmsplice_256k: within 0.3 % (the same within 1 %);
    # yes/buf: both builds the same binary; vmsplice as the mock made it
    jq '(.cells | map(select(.id == "yes/simple@gcc/-O2/native"))[0].time_s.runs) as $g
        | (.cells | map(select(.id == "yes/vmsplice_256k@gcc/-O2/native"))[0].time_s.runs) as $vg
        | .cells |= map(
            if .id == "yes/simple@clang/-O2/native" then
                .time_s.runs = [range(0; $g | length) as $i | $g[$i] * (if $i % 2 == 0 then 1.02 else 0.98 end)]
                | .throughput_Bps.value = (.bytes / (.time_s.runs | sort | .[3]))
            elif .id == "yes/simple@gcc/-O2/native" then
                .throughput_Bps.value = (.bytes / (.time_s.runs | sort | .[3]))
            elif .id == "yes/vmsplice_256k@clang/-O2/native" then
                .time_s.runs = [range(0; $vg | length) as $i | $vg[$i] * (if $i % 2 == 0 then 1.003 else 0.997 end)]
                | .throughput_Bps.value = (.bytes / (.time_s.runs | sort | .[3]))
            elif .id == "yes/vmsplice_256k@gcc/-O2/native" then
                .throughput_Bps.value = (.bytes / (.time_s.runs | sort | .[3]))
            elif (.id | startswith("yes/buf@")) then .binary = {"sha256": ("ab" * 32), "bytes": 1000}
            else . end)' "$BATS_FILE_TMPDIR/dry/results.json" > "$RUN/results.json"
}

# "real", "not real" or "same binary", as the answer says of variant V
answer_verdict() {
    local line
    line=$("$FLAGBENCH" tables "$RUN" --format json | jq -r --arg v "yes/$1:" '.families[0].answer[] | select(startswith($v))')
    case "$line" in
    *"(a real lead"*) echo real ;;
    *"(not a real lead"* | *"(the same within 1 %"*) echo "not real" ;;
    *"(the same binary as "*) echo "same binary" ;;
    *) echo "unknown: $line" ;;
    esac
}

# the same, from the answers as data (families[].answers)
answer_data_verdict() {
    "$FLAGBENCH" tables "$RUN" --format json | jq -r --arg v "$1" '
        .families[0].answers[] | select(.variant == $v)
        | if .verdict == "faster" or .verdict == "slower" then "real"
          elif .verdict == "same binary" or (.runner_up == null and .twins != null) then "same binary"
          elif .verdict == "same" or .verdict == "inconclusive" then "not real" else "unknown: \(.verdict)" end'
}

# the same, as the compilers table's cell of variant V says (its marks and interval)
table_verdict() {
    "$FLAGBENCH" tables "$RUN" --format json | jq -r --arg v "$1" '
        .families[0].tables[] | select(.name == "compilers") | .rows[] | select(.label == $v) | .cells[0]
        | if (.marks | index("\u2261")) then "same binary"
          elif (.marks | index("~")) then (if .low <= 1 and .high >= 1 then "not real" else "mark without 1 inside" end)
          elif .low > 1 or .high < 1 then "real"
          else "real without excluding 1" end'
}

@test "every answer agrees with the ratio printed for the same pair" {
    for v in simple buf vmsplice vmsplice_256k; do
        a=$(answer_verdict "$v")
        t=$(table_verdict "$v")
        d=$(answer_data_verdict "$v")
        echo "$v: answer $a, table $t, answer data $d"
        [ "$a" = "$t" ]
        [ "$d" = "$a" ]
    done
    # and the fixture holds each case
    [ "$(answer_verdict simple)" = "not real" ]
    [ "$(answer_verdict buf)" = "same binary" ]
    [ "$(answer_verdict vmsplice)" = "real" ]
    [ "$(answer_verdict vmsplice_256k)" = "not real" ]
}

@test "a pair within its noise is not a real lead, paired over the rounds, and says so" {
    run "$FLAGBENCH" tables "$RUN"
    [ "$status" -eq 0 ]
    [[ "$output" == *"yes/simple: "*"(not a real lead: ["*"] at "*" %, which holds 1.00x, paired over 13 rounds)"* ]]
    [[ "$output" == *"yes/vmsplice_256k: "*"(the same within 1 %: ["*"] at "*" %, paired over 13 rounds)"* ]]
    [[ "$output" == *"~ not a real difference: the interval holds 1.00x."* ]]
    # the ratio legend says which comparison and at what level
    [[ "$output" == *"from the one comparison: paired over the rounds both cells ran in"* ]]
}

@test "two byte-identical builds are the same binary, not a ratio" {
    run "$FLAGBENCH" tables "$RUN"
    [ "$status" -eq 0 ]
    # the answer names the twin with the leader, and ranks it against nothing
    [[ "$output" == *"yes/buf: "*"/-O2/native (the same binary as "*"/-O2/native): no other build to compare"* ]]
    [[ "$output" == *"≡ the same binary: both builds are byte-identical"* ]]
    grep -qE '^buf +1\.00x ≡$' <<<"$output"
}

@test "without rounds the comparison falls back to a bootstrap, and counts its leads" {
    jq '.cells |= map(.time_s.rounds = null)' "$RUN/results.json" > "$BATS_TEST_TMPDIR/r.json"
    run "$FLAGBENCH" tables "$BATS_TEST_TMPDIR/r.json"
    [ "$status" -eq 0 ]
    [[ "$output" != *"paired over 13 rounds"* ]]
    [[ "$output" == *"yes/vmsplice: "*"(a real lead: ["*"] at "*" %, a bootstrap of both cells' runs (no rounds in common))"* ]]
    [[ "$output" == *"leads are real (the run's "*" comparisons at a 5 % false-lead rate)"* ]]
}

@test "a run ends with every family's answers and real gaps within 120 columns, then where the tables are; -v adds the tables" {
    run "$FLAGBENCH" run --suite smoke --dry-run -o "$BATS_TEST_TMPDIR/r"
    [ "$status" -eq 0 ]
    block=$(sed -n '/^the answers: each variant.s fastest build, and the differences that are real$/,$p' <<<"$output")
    [ -n "$block" ]
    # the level once, then per family its line, each variant's lead and the real gaps, largest first
    grep -qE '^a lead or gap is real when its interval excludes 1\.00x; every interval is at [0-9.]+ %, ' <<<"$block"
    grep -qE '^yes: (gcc|clang) fastest for [0-9] of 4 variants, -O2/native for 4 of 4; [0-9] of these 4 leads are real(, [0-9] of them may not repeat)?$' <<<"$block"
    grep -qE '^  simple +(gcc|clang)/-O2/native +[0-9.]+x \[[0-9.]+x, [0-9.]+x\] over (gcc|clang)/-O2/native: (a real lead|not a real lead)(; a second run calls it real about [0-9]+ % of the time)?$' <<<"$block"
    grep -qxF '  real gaps, largest first (B against A: B'"'"'s throughput over A'"'"'s, below 1.00x slower):' <<<"$block"
    gaps=$(grep -E '^    clang against gcc: ' <<<"$block")
    [ -n "$gaps" ]
    # largest first: the distance from 1.00x never grows along the line
    sizes=$(grep -oE '[0-9]+\.[0-9]+x' <<<"$gaps" | tr -d x | awk '{ l = log($1); print (l < 0 ? -l : l) }')
    sort -gr <<<"$sizes" | cmp -s - <(cat <<<"$sizes") || { echo "not largest first: $gaps"; false; }
    # every gap the line calls real is one the compilers table calls real (no ~ mark)
    tables=$("$FLAGBENCH" tables "$BATS_TEST_TMPDIR/r" --family yes --table compilers)
    for v in $(grep -oE '[0-9.]+x [a-z0-9_]+' <<<"$gaps" | awk '{ print $2 }'); do
        row=$(grep -E "^$v " <<<"$tables")
        echo "$v: $row"
        refute grep -q '~' <<<"$row"
    done
    grep -qxF "tables: $BATS_TEST_TMPDIR/r/tables/" <<<"$block"
    grep -qxF "page:   $BATS_TEST_TMPDIR/r/index.html" <<<"$block"
    grep -qxF "every table in the terminal: flagbench tables $BATS_TEST_TMPDIR/r (or run with -v)" <<<"$output"
    # no table in the run's own output, and nothing wider than 120 columns but a path alone on its line
    refute grep -qE '^variant ' <<<"$output"
    # columns, not bytes (≡ and ± are 3 and 2 bytes), whatever the locale CI runs in
    while IFS= read -r line; do
        w=$(printf '%s' "$line" | LC_ALL=C.UTF-8 wc -m)
        [ "$w" -le 120 ] || [[ "$line" != *" "*" "* ]] || { echo "too wide ($w): $line"; false; }
    done < <(sed -n '/^the answers/,$p' <<<"$output")
    # -v: every table first, then the same answers
    run "$FLAGBENCH" run --suite smoke --dry-run -v -o "$BATS_TEST_TMPDIR/v"
    [ "$status" -eq 0 ]
    grep -qE '^variant ' <<<"$output"
    last_table=$(grep -nE '^variant ' <<<"$output" | tail -n 1 | cut -d: -f1)
    answers=$(grep -nE '^the answers: ' <<<"$output" | cut -d: -f1)
    [ "$answers" -gt "$last_table" ]
}

@test "the answers say whether code layout was varied, and across how many layouts a family's leads must hold" {
    run "$FLAGBENCH" run --suite smoke --dry-run -o "$BATS_TEST_TMPDIR/one"
    [ "$status" -eq 0 ]
    # the header wraps at the width: read it as one line
    header=$(sed -n '/^the answers: /,/^$/p' <<<"$output" | tr '\n' ' ' | tr -s ' ')
    [[ "$header" == *"code layout not varied: --layouts K asks whether each lead holds across K layouts"* ]]
    run "$FLAGBENCH" run --suite smoke --dry-run --layouts 2 --only 'yes/*' -o "$BATS_TEST_TMPDIR/two"
    [ "$status" -eq 0 ]
    # the family's line and its wrapped rest, up to the first variant's
    family=$(awk '/^yes: /{on=1} on && /^  simple /{exit} on' <<<"$output" | tr '\n' ' ' | tr -s ' ')
    # (between the two, how many of the real leads may not repeat, where any)
    [[ "$family" == *"leads are real"*"; across 2 code layouts: a lead must hold across them "* ]]
    header=$(sed -n '/^the answers: /,/^$/p' <<<"$output" | tr '\n' ' ')
    [[ "$header" != *"not varied"* ]]
}

@test "the real gaps: a line per part that differs and the parts it shares, largest first, and the rest as no real difference" {
    run "$FLAGBENCH" run --dry-run --only 'chacha20/*' -o "$BATS_TEST_TMPDIR/q"
    [ "$status" -eq 0 ]
    block=$(sed -n '/^chacha20: /,/^$/p' <<<"$output")
    # the quick suite's matrix: each -O pair per compiler, the compilers per -O level
    for pair in "-O3 against -O2 (gcc)" "-Os against -O2 (gcc)" "-Os against -O3 (gcc)" "-O3 against -O2 (clang)" \
        "clang against gcc (-O2)" "clang against gcc (-O3)" "clang against gcc (-Os)"; do
        grep -qF -- "    $pair: " <<<"$block" || { echo "no line for $pair"; false; }
    done
    # the groups' largest gaps, in order
    firsts=$(grep -E '^    [^ ].* against .*: [0-9.]+x ' <<<"$block" | sed -E 's/^[^:]*: ([0-9.]+)x .*/\1/' |
        awk '{ l = log($1); print (l < 0 ? -l : l) }')
    [ "$(wc -l <<<"$firsts")" -ge 7 ]
    sort -gr <<<"$firsts" | cmp -s - <(cat <<<"$firsts") || { echo "groups not largest first: $firsts"; false; }
    # a gap the line calls real is beyond its interval in the one comparison: -O3 against -O2 (gcc) per variant
    # agrees with the against table, which compares every gcc build with gcc/-O2
    against=$("$FLAGBENCH" tables "$BATS_TEST_TMPDIR/q" --family chacha20 --table against --width 0)
    line=$(grep -F -- "    -O3 against -O2 (gcc): " <<<"$block" | sed 's/; no real difference.*//')
    for v in $(grep -oE '[0-9.]+x [a-z0-9_]+' <<<"${line#*: }" | awk '{ print $2 }'); do
        row=$(grep -E "^$v " <<<"$against")
        echo "$v: $row"
        [ -n "$row" ]
        refute grep -qE '^[a-z0-9_]+ +1\.00x +[0-9.]+x \[[^]]*\] ~' <<<"$row"
    done
    # the page's overview says the same gaps, before any family's tables
    overview=$(sed -n '/id="overview"/,/id="warnings"/p' "$BATS_TEST_TMPDIR/q/index.html")
    grep -qF '<li><b>-O3 against -O2 (gcc)</b>: ' <<<"$overview"
    grep -qF '<p class="gaps">Real gaps, largest first' <<<"$overview"
}

@test "the heatmap's colours follow the one comparison: a real lead gets its own colour, a pair it cannot tell apart shares one" {
    shares=$("$FLAGBENCH" tables "$RUN" --format json | jq -r '.families[0].tables[] | select(.name == "throughput")
        | .rows[] | "\(.label) \(.cells[0].share) \(.cells[1].share)"')
    echo "$shares"
    row() { grep -E "^$1 " <<<"$shares"; }
    # vmsplice: a real lead, so the slower build is shown as its share of the best, below 1
    read -r _ a b <<<"$(row vmsplice)"
    awk -v a="$a" -v b="$b" 'BEGIN { exit !((a < 1 || b < 1) && a != b) }'
    # simple (not a real lead), vmsplice_256k (the same within 1 %) and buf (the same binary): one colour
    for v in simple vmsplice_256k buf; do
        read -r _ a b <<<"$(row "$v")"
        [ "$a" = "$b" ] || { echo "$v: $a against $b"; false; }
    done
}
