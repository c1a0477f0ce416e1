# Sourced by bench/explain-real.sh and bench/compare-real.sh:
# zstd_family DIR [VERSION...]: fetches the Debian source package zstd (each
# version `apt-cache showsrc zstd` lists, newest first, until one fetches: the
# newest may 404 on a mirror) into DIR/src and lays out the family in
# DIR/zstd (upstream/ and this folder's Makefile, family.json, scripts and a
# .gitignore, as a real project has one).  Prints the source folder's name.
zstd_family() {
    local dir=$1 src="" v versions
    shift
    versions=${*:-$(apt-cache showsrc zstd 2>/dev/null | sed -n 's/^Version: //p' | sort -rV | uniq)}
    for v in $versions; do
        src=$(scripts/project-sources.sh --package "zstd=$v" "$dir/src" 2>>"$dir/fetch.log") && break
        src=""
    done
    [ -n "$src" ] || { echo "bench: the source package zstd could not be fetched (tried: $versions; $dir/fetch.log)" >&2; return 2; }
    mkdir -p "$dir/zstd/upstream"
    cp -a "$src/lib" "$src/programs" "$dir/zstd/upstream/"
    cp bench/explain-real/Makefile bench/explain-real/family.json bench/explain-real/gen.sh \
        bench/explain-real/roundtrip.sh "$dir/zstd/"
    cp bench/explain-real/gitignore "$dir/zstd/.gitignore"
    echo "zstd $(basename "$src")" >"$dir/zstd/upstream/VERSION"
    basename "$src"
}
