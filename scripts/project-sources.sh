#!/usr/bin/env bash
# The Debian source packages of the projects families (issue 14), fetched with
# `apt-get source` into build/sources/ and copied to variants-projects/<family>/upstream/
# (git-ignored), with the package version in upstream/VERSION (results.json
# families.<family>.version). deb-src is enabled first where it is not.
# A family with a prepare.sh makes its upstream/ itself from the unpacked
# source (sqlite, issue 30: the amalgamation sqlite3.c, made by the source's
# own `make sqlite3.c`, which needs tclsh: Debian's tcl is installed for it).
#   scripts/project-sources.sh [FAMILY...]   fetch what is missing (default: every family)
#   scripts/project-sources.sh --package PKG[=VERSION] DIR
#       unpack one source package into DIR/PKG-VERSION (a bench's own family:
#       bench/explain-real.sh); its folder's path is printed
set -u
cd "$(dirname "$0")/.." || exit 2
packages="lz4:lz4 lua:lua5.4 sqlite:sqlite3"
one_package="" one_dir=""
if [ "${1:-}" = --package ]; then
    [ "$#" -eq 3 ] || { echo "usage: scripts/project-sources.sh --package PKG[=VERSION] DIR" >&2; exit 2; }
    one_package=$2 one_dir=$3
    set --
    packages=""
    missing=" $one_package"
fi
if [ -n "$one_package" ]; then
    :
elif [ "$#" -gt 0 ]; then
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
[ -n "$one_package" ] || missing=""
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
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk 'BEGIN { RS = ""; ORS = "\n\n" }
             /(^|\n)Types:[^\n]*(^|[ \t])deb([ \t]|\n|$)/ && /URIs:[^\n]*debian/ {
                 sub(/Types:[^\n]*/, "Types: deb-src"); print }' "$f"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\(.*debian.*\)/deb-src \1\2/p' "$f"
    done
}
if ! grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    entries=$(src_entries)
    [ -n "$entries" ] || { echo "flagbench: no Debian deb entry in /etc/apt to make deb-src from" >&2; exit 1; }
    case "$entries" in
    *Types:*) out=/etc/apt/sources.list.d/flagbench-src.sources ;;
    *) out=/etc/apt/sources.list.d/flagbench-src.list ;;
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
if [ -n "$one_package" ]; then
    mkdir -p "$one_dir" || exit 1
    ( cd "$one_dir" && apt-get source -qq "$one_package" >/dev/null 2>&1 ) || {
        echo "flagbench: apt-get source $one_package failed (apt-cache showsrc ${one_package%%=*} lists the versions)" >&2
        exit 1; }
    find "$one_dir" -mindepth 1 -maxdepth 1 -type d | sort | tail -1
    exit 0
fi
mkdir -p build/sources
for pf in $missing; do
    fam=${pf%%:*} pkg=${pf#*:}
    ( cd build/sources && apt-get source -qq "$pkg" >/dev/null 2>&1 ) || {
        echo "flagbench: apt-get source $pkg failed" >&2; exit 1; }
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
