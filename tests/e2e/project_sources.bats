#!/usr/bin/env bats
# scripts/project-sources.sh on a fake checkout and a fake /etc/apt, with
# apt-get and apt-cache fakes on PATH: apt's own words are shown when it
# fails, and where the newest source version is missing on the mirror (404)
# the newest version the mirror has is fetched, and named.

load helpers

setup() {
    command -v dpkg >/dev/null || skip "dpkg not on PATH (the script orders versions with dpkg --compare-versions)"
    T="$BATS_TEST_TMPDIR"
    bin="$T/bin" root="$T/root" etc="$T/etc"
    mkdir -p "$bin" "$root/scripts" "$root/variants-projects/lz4" "$etc/sources.list.d"
    cp "$REPO/scripts/project-sources.sh" "$root/scripts/"
    echo 'deb-src http://deb.debian.org/debian bookworm main' >"$etc/sources.list"
    # the mirror lists three versions; $MIRROR_HAS are those it can serve
    cat >"$bin/apt-cache" <<'SH'
#!/bin/sh
[ "$1" = showsrc ] || exit 1
printf 'Package: lz4\nVersion: 1.9.4-1\n\nPackage: lz4\nVersion: 1.9.4-1+deb12u1\n\nPackage: lz4\nVersion: 1.9.3-2\n\n'
SH
    cat >"$bin/apt-get" <<'SH'
#!/bin/sh
[ "$1" = source ] || exit 1
for a; do :; done
case "$a" in *=*) v=${a#*=} ;; *) v=1.9.4-1+deb12u1 ;; esac
echo "$a" >>"$CALLS"
case " $MIRROR_HAS " in
*" $v "*) mkdir -p "lz4-${v%%-*}/debian" && echo "$v" >"lz4-${v%%-*}/VERSION.fake" ;;
*) echo "E: Failed to fetch http://deb.debian.org/debian/pool/main/l/lz4/lz4_$v.dsc  404  Not Found [IP: 1.2.3.4 80]" >&2
   echo "E: Failed to fetch some archives." >&2; exit 100 ;;
esac
SH
    # the version as the unpacked source's changelog would give it
    cat >"$bin/dpkg-parsechangelog" <<'SH'
#!/bin/sh
cat "$(dirname "$2")/../VERSION.fake"
SH
    chmod +x "$bin"/*
    export PATH="$bin:$PATH" CALLS="$T/calls" FLAGBENCH_ROOT="$root" FLAGBENCH_APT_ETC="$etc"
}

@test "project-sources: the newest version 404 on the mirror: the newest it has, named; apt's words shown" {
    export MIRROR_HAS="1.9.4-1 1.9.3-2"
    run "$root/scripts/project-sources.sh" lz4
    [ "$status" -eq 0 ]
    [[ "$output" == *"apt-get: E: Failed to fetch http://deb.debian.org/debian/pool/main/l/lz4/lz4_1.9.4-1+deb12u1.dsc  404  Not Found"* ]]
    [[ "$output" == *"the newest version is not on the mirror (404)"* ]]
    [[ "$output" == *"fetched lz4=1.9.4-1, the newest version the mirror has"* ]]
    # newest first: the security update again, then 1.9.4-1; 1.9.3-2 never asked for
    [ "$(cat "$CALLS")" = "$(printf 'lz4\nlz4=1.9.4-1+deb12u1\nlz4=1.9.4-1')" ]
    [ "$(cat "$root/variants-projects/lz4/upstream/VERSION")" = "lz4 1.9.4-1" ]
}

@test "project-sources: another apt failure is said in apt's words, no other version tried, exit 1" {
    cat >"$bin/apt-get" <<'SH'
#!/bin/sh
echo "$*" >>"$CALLS"
echo "E: You must put some 'deb-src' URIs in your sources.list" >&2
exit 100
SH
    run "$root/scripts/project-sources.sh" lz4
    [ "$status" -eq 1 ]
    [[ "$output" == *"apt-get: E: You must put some 'deb-src' URIs in your sources.list"* ]]
    [[ "$output" == *"apt-get source lz4 failed (apt's words above)"* ]]
    [ "$(wc -l <"$CALLS")" -eq 1 ]
    [ ! -e "$root/variants-projects/lz4/upstream" ]
}
