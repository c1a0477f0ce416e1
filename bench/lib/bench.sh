# Sourced by bench scripts: the folder a bench works in, and the load a
# base run is measured under.

# bench_dir NAME: KEEP when set (emptied first), else a new folder
# TMPDIR/flagbench-NAME.XXXXXX; prints it.
bench_dir() {
    if [ -n "${KEEP:-}" ]; then
        rm -rf "$KEEP"
        mkdir -p "$KEEP"
        echo "$KEEP"
    else
        mktemp -d "${TMPDIR:-/tmp}/flagbench-$1.XXXXXX"
    fi
}

# start_load N NICE: N busy loops at nice NICE (a machine slower for a whole
# run); stop_load ends them.
load_pids=()
start_load() {
    local _
    for _ in $(seq 1 "$1"); do
        nice -n "$2" bash -c 'while :; do :; done' &
        load_pids+=($!)
    done
}
stop_load() {
    local p
    for p in "${load_pids[@]}"; do
        kill "$p" 2>/dev/null || true
        wait "$p" 2>/dev/null || true
    done
    load_pids=()
}
