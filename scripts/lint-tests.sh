#!/usr/bin/env bash
# Finds assertions in the bats tests that can never fail, and names them
# FILE:LINE (exit 1; 0 when there are none):
#   (a) assertions joined by && as a statement of their own in a @test:
#       under errexit bash enforces only the last command of an && list, so
#       `[ -f a ] && [ -f b ]` passes whenever a is missing; and an assertion
#       followed by `|| echo` / `|| true`, which never fails at all;
#   (b) a process pattern given to pgrep/pkill that ends in $: the programs
#       run with arguments, so "prog$" never matches "prog 2000" (write
#       "prog( |$)");
#   (c) a bare `! cmd` in a @test: bash ignores `!` for errexit (write
#       `refute cmd` or `run ! cmd`);
#   (d) a jq `all` with no count asserted before it (earlier in its filter
#       or on the line before): `all` over an empty selection is true;
#   (e) `-z "$(find DIR ...)"`: true when DIR is gone (write `run find ...`,
#       check $status, then `[ -z "$output" ]`);
#   (f) a `run` with no status check before the next `run` or the end of
#       its @test ($status, or `run -N` / `run !`): it passes on a crash.
# The conditions of if/while/until, lists that end in a failing command
# (`|| { echo ...; false; }`, `|| return 1`, `|| skip`), conditional actions
# (`[ -f x ] && rm x`, `slow_tier && n=5`) and helper functions outside
# @test bodies (their status is returned deliberately) are left alone;
# (b) is checked everywhere, helpers included.
#   scripts/lint-tests.sh [FILE...]   (default: tests/e2e/*.bats *.bash, tests/slow/*.bats)
set -u
if [ "$#" -eq 0 ]; then
    cd "$(dirname "$0")/.." || exit 2
    set -- tests/e2e/*.bats tests/e2e/*.bash tests/slow/*.bats
fi
for f in "$@"; do
    [ -r "$f" ] || { echo "lint-tests: cannot read $f" >&2; exit 2; }
done
exec awk '
# Commands whose status is the point: a list that ends in one of these is
# meant to assert.
BEGIN {
    split("[ [[ test grep egrep fgrep jq jqr refute run cmp diff false ! pgrep results_intact cpu_allowed", a, " ")
    for (i in a) ASSERT[a[i]] = 1
    split("echo printf true :", a, " ")
    for (i in a) SUCCEEDS[a[i]] = 1
    split("jq jqr across", a, " ")
    for (i in a) JQ[a[i]] = 1
    found = 0
}

# Findings are kept per line and printed in line order when the file ends:
# (f) is known only at the next run or the end of the test.
function report(line, msg) {
    REP[line] = REP[line] sprintf("%s:%d: %s\n    %s\n", FILENAME, line, msg, SRC[line])
    if (line > REPMAX) REPMAX = line
    found++
}
function flush(    l) {
    for (l = 1; l <= REPMAX; l++) if (l in REP) printf "%s", REP[l]
    split("", REP); REPMAX = 0
}

# (f): a run statement of the test; its flags may check the status itself.
function saw_run(st, line,    w, n, i) {
    n = split(st, w, /[ \t]+/)
    for (i = 1; i <= n && w[i] != "run"; i++) ;
    for (i++; i <= n; i++) {
        if (w[i] == "" || w[i] == "--keep-empty-lines" || w[i] == "--separate-stderr") continue
        if (w[i] == "!" || w[i] ~ /^-[0-9]+$/) return
        break
    }
    if (PENDING_RUN) report(PENDING_RUN, "a run with no status check after it: it passes on a crash; check $status (or write run -N / run !)")
    PENDING_RUN = line
}
function end_test() {
    if (PENDING_RUN) report(PENDING_RUN, "a run with no status check after it: it passes on a crash; check $status (or write run -N / run !)")
    PENDING_RUN = 0; PREV_COUNTS = 0
}
# (f): a status named on the line answers the run before it; on the line of
# a run, only when it comes after that run.
function check_status(raw) {
    if (PENDING_RUN && raw ~ /\$\{?status/) PENDING_RUN = 0
}
function after_run(raw,    rest) {
    if (!PENDING_RUN) return
    rest = raw
    while (match(rest, /(^|[ \t;&|(])run[ \t]/)) rest = substr(rest, RSTART + RLENGTH)
    if (rest ~ /\$\{?status/) PENDING_RUN = 0
}
# (d) and (e) on a logical line of a test, and the status checks of (f).
function check_raw(raw, code, line,    head) {
    if (raw ~ /-z[ \t]+"?\$\(find[ \t]/)
        report(line, "-z \"$(find DIR ...)\" is true when DIR is gone: run find, check $status, then [ -z \"$output\" ]")
    head = code; sub(/^[ \t]+/, "", head); sub(/[ \t].*/, "", head)
    if ((head in JQ || raw ~ /(^|[^A-Za-z0-9_.\/-])jq[ \t]/) && jq_all(raw)) {
        if (substr(raw, 1, RSTART) !~ /length/ && !PREV_COUNTS)
            report(line, "a jq all with no count asserted before it: all over an empty selection is true; assert the length first")
    }
    # a count on this line, before any all of it, covers the next line
    PREV_COUNTS = jq_all(raw) ? substr(raw, 1, RSTART) ~ /length/ : raw ~ /length/
}
# Where a jq all starts in raw (RSTART), or 0.
function jq_all(raw) {
    return match(raw, /(\|[ \t]*all([^A-Za-z0-9_]|$)|(^|[^A-Za-z0-9_.$])all[ \t]*\()/)
}

# Scans one physical line, carrying the quoting state (stack ST, depth SD)
# from the line before.  Sets CODE (what bash sees at the top level: every
# quoted string, $(...), ${...} and (...) one placeholder Q) and RAW (the
# line without its comment).  Sets HEREDOC when the line starts one.
function scan(s,    i, n, c, c2, top, code, raw, d, j, q, w) {
    n = length(s); code = ""; raw = ""
    for (i = 1; i <= n; i++) {
        c = substr(s, i, 1); c2 = substr(s, i, 2)
        top = SD ? ST[SD] : ""
        if (top == "'\''") {
            raw = raw c
            if (c == "'\''") SD--
            continue
        }
        if (top == "\"") {
            raw = raw c
            if (c == "\\") { raw = raw substr(s, i + 1, 1); i++; continue }
            if (c == "\"") { SD--; continue }
            if (c2 == "$(" || c2 == "${") { ST[++SD] = c2; raw = raw substr(c2, 2); i++ }
            continue
        }
        # code: the top level, or inside $( ) ${ } ( )
        if (c == "#" && (i == 1 || substr(s, i - 1, 1) ~ /[ \t;|&(]/)) break
        raw = raw c
        if (c == "\\") {
            if (i == n) { CONT = 1; break }
            raw = raw substr(s, i + 1, 1)
            if (!SD) code = code c substr(s, i + 1, 1)
            i++
            continue
        }
        if (c == "'\''" || c == "\"") {
            if (!SD) code = code "Q"
            ST[++SD] = c
            continue
        }
        if (c2 == "$(" || c2 == "${") {
            if (!SD) code = code "Q"
            ST[++SD] = c2; raw = raw substr(c2, 2); i++
            continue
        }
        if (c == "(" ) {
            # (( )) arithmetic and ( ) subshells: the status of the whole
            if (!SD) code = code "Q"
            ST[++SD] = c
            continue
        }
        if (c == ")" && (top == "(" || top == "$(")) { SD--; continue }
        if (c == "}" && top == "${") { SD--; continue }
        if (!SD && c2 == "<<" && substr(s, i + 2, 1) != "<" && (i == 1 || substr(s, i - 1, 1) != "<")) {
            # a here-document: its lines are data, up to the delimiter
            j = i + 2; HEREDOC_TABS = 0
            if (substr(s, j, 1) == "-") { HEREDOC_TABS = 1; j++ }
            while (substr(s, j, 1) ~ /[ \t]/) j++
            q = substr(s, j, 1)
            if (q == "'\''" || q == "\"") {
                j++; w = ""
                while (j <= n && substr(s, j, 1) != q) { w = w substr(s, j, 1); j++ }
            } else {
                w = ""
                while (j <= n && substr(s, j, 1) ~ /[A-Za-z0-9_]/) { w = w substr(s, j, 1); j++ }
                j--
            }
            HEREDOC = w
            raw = raw substr(s, i + 1, j - i)
            code = code "<<Q"
            i = j
            continue
        }
        if (!SD) code = code c
    }
    CODE = code; RAW = raw
}

# The first command word of an element of a list: assignments before it
# (PATH=... run) dropped.
function head_word(e,    w, n, i) {
    n = split(e, w, /[ \t]+/)
    for (i = 1; i <= n; i++) {
        if (w[i] == "") continue
        if (w[i] ~ /^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=/) continue
        return w[i]
    }
    return ""
}

# One statement of a @test (no top-level ; or & left in it).
function check_statement(st, line,    w, k, n, i, c, c2, el, ops, ne, dbr, dbrace, cur, prev, nxt, first, last, lastop, j, anyassert) {
    # keywords that only open a body
    for (;;) {
        sub(/^[ \t]+/, "", st)
        w = head_word(st)
        if (w == "then" || w == "do" || w == "else" || w == "time") { sub(/^[^ \t]+/, "", st); continue }
        break
    }
    if (st == "") return
    w = head_word(st)
    if (w == "run") saw_run(st, line)
    if (w == "if" || w == "elif" || w == "while" || w == "until" || w == "done" || w == "fi" || w == "esac" || w == "}" || w == "{" || w == "for" || w == "case" || w ~ /^[A-Za-z_][A-Za-z0-9_]*\(\)$/) return
    # split at the top-level && and || (not inside [[ ]] or { })
    n = length(st); ne = 1; el[1] = ""; dbr = 0; dbrace = 0
    for (i = 1; i <= n; i++) {
        c = substr(st, i, 1); c2 = substr(st, i, 2)
        prev = i > 1 ? substr(st, i - 1, 1) : " "
        nxt = substr(st, i + 2, 1)
        if (c2 == "[[" && prev ~ /[ \t]/ && (nxt == "" || nxt ~ /[ \t]/)) { dbr++; el[ne] = el[ne] c2; i++; continue }
        if (c2 == "]]" && prev ~ /[ \t]/ && dbr) { dbr--; el[ne] = el[ne] c2; i++; continue }
        if (c == "{" && prev ~ /[ \t]/ && substr(st, i + 1, 1) ~ /^([ \t]|)$/) dbrace++
        if (c == "}" && prev ~ /[ \t;]/ && dbrace) dbrace--
        if (!dbr && !dbrace && (c2 == "&&" || c2 == "||")) {
            ops[ne] = c2; el[++ne] = ""; i++; continue
        }
        el[ne] = el[ne] c
    }
    first = head_word(el[1]); last = head_word(el[ne]); lastop = ne > 1 ? ops[ne - 1] : ""
    anyassert = 0
    for (j = 1; j < ne; j++) if (head_word(el[j]) in ASSERT) anyassert = 1
    if (lastop == "&&" && (last in ASSERT)) {
        report(line, "assertions joined by &&: only the last one can fail the test; write one per line")
        return
    }
    if (lastop == "||" && anyassert && (last in SUCCEEDS)) {
        report(line, "an assertion followed by || " last ": it can never fail the test")
        return
    }
    if (first == "!" && lastop != "||") {
        report(line, "a bare ! cmd never fails the test (bash ignores ! for errexit): write refute cmd or run ! cmd")
        return
    }
}

# A logical line of a @test: its statements, split at the top-level ; and &.
function check_line(code, line,    n, i, c, st, dbr, dbrace, prev, nxt, c2) {
    n = length(code); st = ""; dbr = 0; dbrace = 0
    for (i = 1; i <= n; i++) {
        c = substr(code, i, 1); c2 = substr(code, i, 2)
        prev = i > 1 ? substr(code, i - 1, 1) : " "
        nxt = substr(code, i + 2, 1)
        if (c2 == "[[" && prev ~ /[ \t]/) dbr++
        if (c2 == "]]" && dbr) dbr--
        if (c == "{" && prev ~ /[ \t]/ && substr(code, i + 1, 1) ~ /^([ \t]|)$/) dbrace++
        if (c == "}" && prev ~ /[ \t;]/ && dbrace) dbrace--
        if (!dbr && !dbrace && (c == ";" || (c == "&" && c2 != "&&" && prev != "&" && prev != ">" && substr(code, i + 1, 1) != ">"))) {
            check_statement(st, line); st = ""
            if (c2 == ";;") i++
            continue
        }
        st = st c
    }
    check_statement(st, line)
}

# (b): a pgrep or pkill whose pattern ends in $
function check_pgrep(raw, line,    rest) {
    if (!match(raw, /(^|[^A-Za-z0-9_.\/-])(pgrep|pkill)[ \t]/)) return
    rest = substr(raw, RSTART)
    if (rest ~ /\$(["'\'']|[ \t]|$)/)
        report(line, "a process pattern ending in $ misses the program when it runs with (more) arguments: end the name with ( |$)")
}

FNR == 1 { flush(); SD = 0; HEREDOC = ""; INTEST = 0; LCODE = ""; LRAW = ""; LSTART = 0; PENDING_RUN = 0; PREV_COUNTS = 0 }
{
    SRC[FNR] = $0
    if (HEREDOC != "") {
        t = $0
        if (HEREDOC_TABS) sub(/^\t+/, "", t)
        if (t == HEREDOC) HEREDOC = ""
        next
    }
    if (!LSTART) {
        LSTART = FNR
        if (!SD && $0 ~ /^@test /) {
            LSTART = 0; CONT = 0
            scan($0)
            if (match(CODE, /[ \t]\{[ \t].*[ \t;]\}[ \t]*$/)) {
                # a test on one line: @test "name" { cmd; }
                body = substr(CODE, RSTART + 2, RLENGTH - 2)
                sub(/\}[ \t]*$/, "", body)
                check_status(RAW)
                check_line(body, FNR)
                after_run(RAW)
                check_raw(RAW, body, FNR)
                check_pgrep(RAW, FNR)
                end_test()
            } else
                INTEST = 1
            next
        }
        if (!SD && INTEST && $0 ~ /^}[ \t]*$/) { end_test(); INTEST = 0; LSTART = 0; next }
    }
    CONT = 0
    scan($0)
    LCODE = LCODE " " CODE; LRAW = LRAW " " RAW
    # the logical line goes on: an open quote or $( ), a trailing \, && , || or |
    if (SD || CONT || CODE ~ /(&&|\|\||\|)[ \t]*$/) next
    if (INTEST) {
        check_status(LRAW)
        check_line(LCODE, LSTART)
        after_run(LRAW)
        check_raw(LRAW, LCODE, LSTART)
    }
    check_pgrep(LRAW, LSTART)
    LCODE = ""; LRAW = ""; LSTART = 0
}
END {
    flush()
    if (found) printf "lint-tests: %d finding(s)\n", found
    exit found ? 1 : 0
}
' "$@"
