#!/usr/bin/env bash
# The Debian source packages of the projects families (issue 14), fetched with
# `apt-get source` into build/sources/ and copied to variants-projects/<family>/upstream/
# (git-ignored), with the package version in upstream/VERSION (results.json
# families.<family>.version). deb-src is enabled first where it is not.
# A family with a prepare.sh makes its upstream/ itself from the unpacked
# source (sqlite, issue 30: the amalgamation sqlite3.c, made by the source's
# own `make sqlite3.c`, which needs tclsh: Debian's tcl is installed for it).
# apt's own words are shown when it fails; where the newest source version is
# missing on the mirror (a 404: a security update not mirrored yet), the
# newest version the mirror has is fetched instead (apt-cache showsrc, each
# version newest first, apt-get source PKG=VERSION), and the script says which.
#   scripts/project-sources.sh [FAMILY...]   fetch what is missing (default: every family)
#   scripts/project-sources.sh --package PKG[=VERSION] DIR
#       unpack one source package into DIR/PKG-VERSION (a bench's own family:
#       bench/explain-real.sh); its folder's path is printed
# FLAGBENCH_ROOT (the checkout) and FLAGBENCH_APT_ETC (/etc/apt) are for tests on fake trees.
set -u
cd "${FLAGBENCH_ROOT:-$(dirname "$0")/..}" || exit 2
apt_etc=${FLAGBENCH_APT_ETC:-/etc/apt}
packages="lz4:lz4 lua:lua5.4 sqlite:sqlite3 simdjson:simdjson"
one_package="" one_dir=""
if [ "${1:-}" = --package ]; then
    [ "$#" -eq 3 ] || { echo "usage: scripts/project-sources.sh --package PKG[=VERSION] DIR" >&2; exit 2; }
    one_package=$2 one_dir=$3
    set --
    packages=""
fi
if [ "$#" -gt 0 ]; then
    wanted=""
    for fam in "$@"; do
        found="" known=""
        for pf in $packages; do
            [ "${pf%%:*}" = "$fam" ] && found=$pf
            known="$known ${pf%%:*}"
        done
        [ -n "$found" ] || { echo "flagbench: no projects family $fam (known:$known)" >&2; exit 2; }
        wanted="$wanted $found"
    done
    packages=$wanted
fi
missing=""
[ -z "$one_package" ] || missing=" $one_package"
for pf in $packages; do
    [ -f "variants-projects/${pf%%:*}/upstream/VERSION" ] || missing="$missing $pf"
done
[ -z "$missing" ] && exit 0
sudo=""
[ "$(id -u)" != 0 ] && sudo="sudo"
# deb-src entries made from the machine's own deb entries (its mirror, suites
# and keys), never a host of ours: deb822 stanzas of *.sources with Types: deb,
# and one-line "deb URI SUITE COMPONENTS" entries of sources.list
src_entries() {
    local f
    for f in "$apt_etc"/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk 'BEGIN { RS = ""; ORS = "\n\n" }
             /(^|\n)Types:[^\n]*(^|[ \t])deb([ \t]|\n|$)/ && /URIs:[^\n]*debian/ {
                 sub(/Types:[^\n]*/, "Types: deb-src"); print }' "$f"
    done
    for f in "$apt_etc"/sources.list "$apt_etc"/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\(.*debian.*\)/deb-src \1\2/p' "$f"
    done
}
if ! grep -rqs '^Types:.*deb-src\|^deb-src ' "$apt_etc"/sources.list "$apt_etc"/sources.list.d/; then
    entries=$(src_entries)
    [ -n "$entries" ] || { echo "flagbench: no Debian deb entry in $apt_etc to make deb-src from" >&2; exit 1; }
    case "$entries" in
    *Types:*) out=$apt_etc/sources.list.d/flagbench-src.sources ;;
    *) out=$apt_etc/sources.list.d/flagbench-src.list ;;
    esac
    echo "flagbench: enabling deb-src from the machine's own entries ($out)" >&2
    printf '%s\n' "$entries" | $sudo tee "$out" >/dev/null || exit 1
    $sudo apt-get update -qq >&2 || exit 1
fi
command -v dpkg-source >/dev/null || $sudo apt-get install -y -qq --no-install-recommends dpkg-dev >&2 || exit 1
case "$missing" in
*" sqlite:"*)
    command -v tclsh >/dev/null || $sudo apt-get install -y -qq --no-install-recommends tcl >&2 || {
        echo "flagbench: sqlite's amalgamation needs tclsh: Debian's tcl could not be installed" >&2; exit 1; } ;;
esac
# The versions of source package PKG the mirror lists, newest first (dpkg's order).
versions_newest_first() { # PKG
    local vs=() v i j t
    while read -r v; do [ -n "$v" ] && vs+=("$v"); done < <(apt-cache showsrc "$1" 2>/dev/null | sed -n 's/^Version: //p')
    for ((i = 0; i < ${#vs[@]}; i++)); do
        for ((j = i + 1; j < ${#vs[@]}; j++)); do
            if dpkg --compare-versions "${vs[j]}" gt "${vs[i]}"; then t=${vs[i]} vs[i]=${vs[j]} vs[j]=$t; fi
        done
    done
    [ "${#vs[@]}" -gt 0 ] && printf '%s\n' "${vs[@]}" | awk '!seen[$0]++'
}

# apt-get source PKG into DIR, apt's words on stderr when it fails; on a 404
# (the newest version not on the mirror) each older version the mirror lists,
# newest first.
fetch_source() { # PKG DIR
    local pkg=$1 into=$2 log v
    log=$(cd "$into" && apt-get source -qq "$pkg" 2>&1) && return 0
    printf '%s\n' "$log" | sed 's/^/  apt-get: /' >&2
    case "$log" in
    *404*) ;;
    *) echo "flagbench: apt-get source $pkg failed (apt's words above)" >&2; return 1 ;;
    esac
    echo "flagbench: apt-get source $pkg: the newest version is not on the mirror (404); trying the versions it lists, newest first" >&2
    while read -r v; do
        [ -n "$v" ] || continue
        if log=$(cd "$into" && apt-get source -qq "${pkg%%=*}=$v" 2>&1); then
            echo "flagbench: fetched ${pkg%%=*}=$v, the newest version the mirror has" >&2
            return 0
        fi
        printf '%s\n' "$log" | sed 's/^/  apt-get: /' >&2
    done < <(versions_newest_first "${pkg%%=*}")
    echo "flagbench: apt-get source $pkg failed: no version apt-cache showsrc $pkg lists could be fetched" >&2
    return 1
}

if [ -n "$one_package" ]; then
    mkdir -p "$one_dir" || exit 1
    fetch_source "$one_package" "$one_dir" || exit 1
    find "$one_dir" -mindepth 1 -maxdepth 1 -type d | sort | tail -1
    exit 0
fi
mkdir -p build/sources
for pf in $missing; do
    fam=${pf%%:*} pkg=${pf#*:}
    fetch_source "$pkg" build/sources || exit 1
    dir=$(find build/sources -maxdepth 1 -type d -name "$pkg-*" | sort | tail -1)
    version=$(dpkg-parsechangelog -l "$dir/debian/changelog" -S Version 2>/dev/null)
    rm -rf "variants-projects/$fam/upstream"
    if [ -x "variants-projects/$fam/prepare.sh" ]; then
        "variants-projects/$fam/prepare.sh" "$dir" "variants-projects/$fam/upstream" || {
            echo "flagbench: variants-projects/$fam/prepare.sh failed on $dir" >&2
            rm -rf "variants-projects/$fam/upstream"; exit 1; }
    else
        cp -a "$dir" "variants-projects/$fam/upstream" || exit 1
        rm -rf "variants-projects/$fam/upstream/debian"
    fi
    echo "$pkg $version" > "variants-projects/$fam/upstream/VERSION"
    echo "flagbench: $fam from the Debian source package $pkg $version" >&2
done
