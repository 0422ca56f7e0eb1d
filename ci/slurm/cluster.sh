#!/usr/bin/env bash
# A throw-away single-node SLURM cluster on this host, for CI and for developers.
#
#   ci/slurm/cluster.sh start    install slurm-wlm + munge if missing (Debian, as root), write a
#                                single-node slurm.conf for this host, start munged, slurmctld and
#                                slurmd in the background, wait until the node is idle
#   ci/slurm/cluster.sh stop     stop the daemons that `start` started (by their PID files)
#   ci/slurm/cluster.sh status   say whether the cluster is up (exit 0) or not (exit 1)
#   ci/slurm/cluster.sh test     start, run `pytest -m slurm tests/slurm`, stop (even on failure)
#
# Every subcommand is idempotent: `start` on a running cluster only checks it, `stop` on a stopped
# one does nothing. No systemd is needed (none runs on CI machines): the daemons are started by
# this script and stopped by the PIDs they wrote. Accounting is off (no slurmdbd): Snakemake's
# SLURM plugin must use `--slurm-status-command squeue` (profiles/slurm does), and finished jobs
# stay visible to squeue for MinJobAge seconds. Every finished job is also logged, one line each,
# to the job-completion file (JobCompLoc below), which the tests read.
#
# Environment: PUNCTSTYLE_SLURM_PYTHON  python for `test` (default the repo's .venv/bin/python,
#              else python3); PUNCTSTYLE_SLURM_WAIT  seconds to wait for an idle node (120).
set -euo pipefail

RUN_DIR=/run/punctstyle-slurm
LOG_DIR=/var/log/slurm
SPOOL_CTLD=/var/spool/slurmctld
SPOOL_D=/var/spool/slurmd
CONF_DIR=/etc/slurm
CONF=$CONF_DIR/slurm.conf
MARKER="# written by punctstyle ci/slurm/cluster.sh"
JOBCOMP=$LOG_DIR/jobcomp.log
MUNGE_PID=/run/munge/munged.pid
# munged's PID, copied here only when this script started it (a munged that was already
# running, e.g. a system service, is left alone by `stop`).
OUR_MUNGE_PID=$RUN_DIR/munged.pid
CTLD_PID=$RUN_DIR/slurmctld.pid
SLURMD_PID=$RUN_DIR/slurmd.pid
WAIT_S=${PUNCTSTYLE_SLURM_WAIT:-120}
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

say() { printf '[slurm-cluster] %s\n' "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }

need_root() {
    [ "$(id -u)" -eq 0 ] || die "run as root (it installs packages and starts daemons)"
}

# PID from a PID file if that process is alive, else nothing.
live_pid() {
    local file=$1 pid
    [ -s "$file" ] || return 1
    pid=$(tr -dc '0-9' <"$file")
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

install_packages() {
    if command -v slurmctld >/dev/null && command -v slurmd >/dev/null \
        && command -v sinfo >/dev/null && command -v munged >/dev/null; then
        return 0
    fi
    command -v apt-get >/dev/null || die "slurm is not installed and apt-get is missing (Debian/Ubuntu only)"
    say "installing slurm-wlm and munge (apt)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
}

write_config() {
    local host cpus mem real sockets cores threads boards
    host=$(hostname -s)
    # `slurmd -C` prints this host's NodeName line (CPUs, Boards, Sockets..., RealMemory).
    local probe
    probe=$(slurmd -C | head -n 1)
    cpus=$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$probe")
    boards=$(sed -n 's/.*Boards=\([0-9]*\).*/\1/p' <<<"$probe")
    sockets=$(sed -n 's/.*SocketsPerBoard=\([0-9]*\).*/\1/p' <<<"$probe")
    cores=$(sed -n 's/.*CoresPerSocket=\([0-9]*\).*/\1/p' <<<"$probe")
    threads=$(sed -n 's/.*ThreadsPerCore=\([0-9]*\).*/\1/p' <<<"$probe")
    mem=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$probe")
    [ -n "$cpus" ] && [ -n "$mem" ] || die "cannot read CPUs/RealMemory from 'slurmd -C': $probe"
    # Leave the OS some memory: slurmd drains a node whose RealMemory exceeds what it finds.
    real=$((mem * 95 / 100))
    if [ -e "$CONF" ] && ! grep -qF "$MARKER" "$CONF"; then
        die "$CONF exists and was not written by this script; refusing to overwrite it"
    fi
    mkdir -p "$CONF_DIR"
    local tmp
    tmp=$(mktemp "$CONF_DIR/.slurm.conf.XXXXXX")
    cat >"$tmp" <<EOF
$MARKER
# A single-node cluster on $host for the punctstyle SLURM tests (everything on 127.0.0.1,
# so it works where the host name does not resolve).
ClusterName=punctstyle
SlurmctldHost=$host(127.0.0.1)
SlurmUser=slurm
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$SPOOL_CTLD
SlurmdSpoolDir=$SPOOL_D
SlurmctldPidFile=$CTLD_PID
SlurmdPidFile=$SLURMD_PID
SlurmctldLogFile=$LOG_DIR/slurmctld.log
SlurmdLogFile=$LOG_DIR/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
# squeue keeps showing a finished job this long (Snakemake's status checks rely on it).
MinJobAge=600
# No accounting database: sacct is unavailable, use squeue (and the job-completion log).
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$JOBCOMP
SlurmdTimeout=60
SlurmctldTimeout=60
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus Boards=${boards:-1} SocketsPerBoard=${sockets:-1} CoresPerSocket=${cores:-$cpus} ThreadsPerCore=${threads:-1} RealMemory=$real State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
    chmod 644 "$tmp"
    mv -f "$tmp" "$CONF"
    say "wrote $CONF (node $host: CPUs=$cpus RealMemory=$real)"
}

cluster_up() {
    command -v sinfo >/dev/null || return 1
    scontrol ping 2>/dev/null | grep -q 'is UP' || return 1
    sinfo -h -N -o '%T' 2>/dev/null | grep -Eq '^(idle|mixed|allocated|completing)'
}

ours() {
    [ -f "$CONF" ] && grep -qF "$MARKER" "$CONF"
}

start_munge() {
    if [ -n "$(live_pid "$MUNGE_PID" || true)" ]; then
        return 0
    fi
    mkdir -p "$RUN_DIR"
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown munge:munge /run/munge /var/log/munge /var/lib/munge
    chmod 755 /run/munge
    if [ ! -s /etc/munge/munge.key ]; then
        say "creating /etc/munge/munge.key"
        if command -v mungekey >/dev/null; then
            mungekey --create --force --keyfile /etc/munge/munge.key
        else
            dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
        fi
        chown munge:munge /etc/munge/munge.key
        chmod 400 /etc/munge/munge.key
    fi
    rm -f /run/munge/munge.socket.2 /run/munge/munge.socket.2.lock
    runuser -u munge -- /usr/sbin/munged --pid-file="$MUNGE_PID" </dev/null >/dev/null 2>&1
    local i
    for i in $(seq 50); do
        if munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
            cp "$MUNGE_PID" "$OUR_MUNGE_PID"
            return 0
        fi
        sleep 0.2
    done
    die "munged did not come up (see /var/log/munge/munged.log)"
}

start_slurm_daemons() {
    mkdir -p "$RUN_DIR" "$LOG_DIR" "$SPOOL_CTLD" "$SPOOL_D"
    chown slurm:slurm "$SPOOL_CTLD" "$LOG_DIR" "$RUN_DIR"
    local i
    if [ -z "$(live_pid "$CTLD_PID" || true)" ]; then
        # a fresh controller starts from job id 1 again: start a fresh job-completion log too
        : >"$JOBCOMP" && chown slurm:slurm "$JOBCOMP"
        # -c: start clean (a private test cluster: no jobs worth recovering from an earlier run).
        # Daemonises; stdin/out/err detached so a caller reading our output does not hang.
        slurmctld -c </dev/null >>"$LOG_DIR/slurmctld.out" 2>&1
    fi
    for i in $(seq 100); do
        scontrol ping 2>/dev/null | grep -q 'is UP' && break
        sleep 0.2
    done
    scontrol ping 2>/dev/null | grep -q 'is UP' || die "slurmctld did not come up (see $LOG_DIR/slurmctld.log)"
    if [ -z "$(live_pid "$SLURMD_PID" || true)" ]; then
        slurmd </dev/null >>"$LOG_DIR/slurmd.out" 2>&1
    fi
}

wait_idle() {
    local host state deadline
    host=$(hostname -s)
    deadline=$((SECONDS + WAIT_S))
    while [ $SECONDS -lt $deadline ]; do
        state=$(sinfo -h -N -n "$host" -o '%T' 2>/dev/null | head -n 1 || true)
        case "$state" in
            idle|mixed|allocated) say "node $host is $state"; return 0 ;;
            drain*|down*)
                # e.g. left drained by an earlier configuration: put it back in service.
                scontrol update nodename="$host" state=resume >/dev/null 2>&1 || true ;;
        esac
        sleep 0.5
    done
    sinfo -N -l >&2 || true
    die "node $host not idle after ${WAIT_S}s (see $LOG_DIR/slurmd.log, $LOG_DIR/slurmctld.log)"
}

cmd_start() {
    need_root
    local t0=$SECONDS
    if cluster_up; then
        if ours && [ -n "$(live_pid "$CTLD_PID" || true)" ]; then
            say "already up"
        else
            say "a SLURM cluster not started by this script is up; leaving it as it is"
        fi
        sinfo >&2
        return 0
    fi
    install_packages
    write_config
    start_munge
    start_slurm_daemons
    wait_idle
    say "cluster up in $((SECONDS - t0))s"
    sinfo >&2
}

stop_pid_file() {
    local name=$1 file=$2 pid i
    pid=$(live_pid "$file" || true)
    if [ -z "$pid" ]; then
        rm -f "$file"
        return 0
    fi
    say "stopping $name (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        say "$name did not stop in 10 s; killing pid $pid"
        kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$file"
}

cmd_stop() {
    need_root
    if ! ours; then
        say "no cluster of this script here ($CONF not written by it); nothing to stop"
        return 0
    fi
    # Cancel what is still queued or running so that no job outlives its daemons.
    if [ -n "$(live_pid "$CTLD_PID" || true)" ] && scontrol ping 2>/dev/null | grep -q 'is UP'; then
        scancel --full --quiet --partition=debug 2>/dev/null || true
        local i
        for i in $(seq 50); do
            [ -z "$(squeue -h -t PD,R,CG -o %i 2>/dev/null)" ] && break
            sleep 0.2
        done
    fi
    stop_pid_file slurmd "$SLURMD_PID"
    stop_pid_file slurmctld "$CTLD_PID"
    local pid
    pid=$(live_pid "$OUR_MUNGE_PID" || true)
    if [ -n "$pid" ] && [ "$pid" = "$(live_pid "$MUNGE_PID" || true)" ]; then
        stop_pid_file munged "$OUR_MUNGE_PID"
    fi
    rm -f "$OUR_MUNGE_PID"
    say "stopped"
}

cmd_status() {
    if cluster_up; then
        sinfo
        return 0
    fi
    echo "SLURM cluster is not up"
    return 1
}

cmd_test() {
    local python=${PUNCTSTYLE_SLURM_PYTHON:-}
    if [ -z "$python" ]; then
        if [ -x "$REPO/.venv/bin/python" ]; then python="$REPO/.venv/bin/python"; else python=python3; fi
    fi
    trap cmd_stop EXIT
    cmd_start
    (cd "$REPO" && "$python" -m pytest -m slurm tests/slurm -q "$@")
}

case "${1:-}" in
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    test) shift; cmd_test "$@" ;;
    *) echo "usage: $0 start|stop|status|test [pytest args]" >&2; exit 2 ;;
esac
