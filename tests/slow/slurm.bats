#!/usr/bin/env bats
# ci/slurm/ on a real one-node Slurm (Debian's slurm-wlm and munge, scripts/deps.sh
# slow), configured and started here in a folder of its own and stopped after:
# the smoke suite in 2 shards (a job array, --exclusive, --constraint of the
# node's feature) and the join as a dependent job; the joined run answers
# every variant an unsharded run of the same plan answers, with the same
# tables.  Needs root (munged and the daemons run as root here).

load ../e2e/helpers

# the daemons' pid files and the config, in a short path (munge's socket
# path must fit a sockaddr_un)
setup_file() {
    [ "$(id -u)" -eq 0 ] || skip "a local Slurm needs root here (munged, slurmd)"
    local t
    for t in munged slurmctld slurmd sbatch squeue sinfo; do
        command -v "$t" >/dev/null || skip "$t not found: scripts/deps.sh slow installs slurm-wlm and munge"
    done
    SLURM_DIR=$(mktemp -d /tmp/fb-slurm.XXXXXX)
    export SLURM_DIR
    slurm_start "$SLURM_DIR"
}

teardown_file() {
    [ -n "${SLURM_DIR:-}" ] || return 0
    SLURM_CONF="$SLURM_DIR/slurm.conf" scancel --user "$(id -un)" 2>/dev/null || true
    local p
    for p in slurmd slurmctld munge/munged; do
        [ -f "$SLURM_DIR/$p.pid" ] && kill "$(cat "$SLURM_DIR/$p.pid")" 2>/dev/null
    done
    sleep 1
    rm -rf -- "$SLURM_DIR"
}

slurm_start() { # DIR
    local d="$1" host cpus mem port
    mkdir -p "$d/state" "$d/spool" "$d/log" "$d/munge"
    chmod 700 "$d/munge"
    head -c 1024 /dev/urandom > "$d/munge/munge.key"
    chmod 400 "$d/munge/munge.key"
    munged --force --key-file "$d/munge/munge.key" --socket "$d/munge/munge.sock" \
        --pid-file "$d/munge/munged.pid" --log-file "$d/log/munged.log" --seed-file "$d/munge/seed"
    host=$(hostname -s)
    cpus=$(nproc)
    mem=$(($(awk '/^MemTotal/ {print $2}' /proc/meminfo) / 2048))
    port=$((20000 + RANDOM % 20000))
    # the fewest settings of a one-node cluster: no accounting, no cgroups
    cat > "$d/slurm.conf" <<CONF
ClusterName=flagbench
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.sock
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
SwitchType=switch/none
NodeName=$host CPUs=$cpus RealMemory=$mem Feature=fbcpu State=UNKNOWN
PartitionName=fb Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF="$d/slurm.conf"
    slurmctld -f "$SLURM_CONF"
    slurmd -f "$SLURM_CONF"
    local i
    for i in $(seq 60); do
        [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && return 0
        sleep 1
    done
    echo "slurm did not come up: $(tail -n 5 "$d"/log/*.log)"
    return 1
}

# Waits for job ID to leave the queue (at most SECONDS).
slurm_wait() { # ID SECONDS
    local i
    for i in $(seq "$2"); do
        [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
        sleep 1
    done
    echo "job $1 still queued after $2 s: $(squeue)"
    return 1
}

# The shape of a run's answers and tables (as tests/e2e/shard.bats).
shape() {
    "$FLAGBENCH" tables "$1" --format json |
        jq -c '[.families[] | {f: .name, t: [.tables[] | {name, columns, rows: [.rows[].label]}],
                a: [.answers[] | .variant] | sort}]'
}

@test "smoke in 2 shards on Slurm, joined after both, answers what an unsharded run answers" {
    export SLURM_CONF="$SLURM_DIR/slurm.conf"
    local d="$BATS_TEST_TMPDIR" runs="${SMOKE_RUNS:-5}" t0 t1 t2
    t0=$(date +%s)
    run "$REPO/ci/slurm/submit.sh" --shards 2 --constraint fbcpu --suite smoke --out "$d/fleet" -- --runs "$runs"
    [ "$status" -eq 0 ]
    job=${lines[${#lines[@]} - 1]}
    [[ "$job" =~ ^[0-9]+$ ]]
    # the join waits on the array: afterok
    scontrol show job "$job" | grep -q "Dependency=afterok:"
    slurm_wait "$job" 1800
    t1=$(date +%s)
    cat "$d"/fleet/logs/*.log >&3 2>/dev/null || true
    [ -f "$d/fleet/joined/results.json" ]
    results_intact "$d/fleet/joined"
    [ -f "$d/fleet/joined/index.html" ]
    jqr '.run.joined.of == 2 and (.run.shards | length) == 2' "$d/fleet/joined/results.json" >/dev/null
    # the same plan, unsharded
    run "$FLAGBENCH" run --suite smoke --runs "$runs" --no-render --out "$d/whole"
    [ "$status" -eq 0 ]
    t2=$(date +%s)
    echo "# fleet (2 shards, one node, one after the other) and join: $((t1 - t0)) s; unsharded: $((t2 - t1)) s" >&3
    diff <(jq -c '[.cells[] | [.id, .status]]' "$d/whole/results.json") \
        <(jq -c '[.cells[] | [.id, .status]]' "$d/fleet/joined/results.json")
    [ "$(shape "$d/whole" | tee "$d/a")" = "$(shape "$d/fleet/joined")" ]
    [ "$(jq '.[0].a | length' "$d/a")" -ge 2 ]
}

@test "a shard that fails holds back the join (afterok)" {
    export SLURM_CONF="$SLURM_DIR/slurm.conf"
    local d="$BATS_TEST_TMPDIR"
    run "$REPO/ci/slurm/submit.sh" --shards 2 --constraint fbcpu --suite no-such-suite --out "$d/bad" --no-render -- --dry-run
    [ "$status" -eq 0 ]
    job=${lines[${#lines[@]} - 1]}
    slurm_wait "$job" 300
    [ ! -e "$d/bad/joined/results.json" ]
    grep -q "no-such-suite" "$d/bad/logs/shard-1.log"
}
