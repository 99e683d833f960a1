#!/usr/bin/env bash
# Where the machine's CPU goes, per node and thread, over an interval: for every jvm-ps node JVM
# running on this machine (or the PIDs given), two readings of each thread's scheduler counters
# (/proc/<pid>/task/<tid>/schedstat and status) SECONDS apart, printed per node and thread name
# (trailing digits dropped, so the event loops, the GC threads, the compilers each make one line):
#
#   cpu     ms of CPU the threads ran per second of the interval (1000 = one full core)
#   waited  ms per second they were runnable but waiting for a core (the run queue)
#   wakes   voluntary context switches per second (a thread blocking and being woken again)
#   preempt involuntary context switches per second (a thread taken off a core)
#
# It tells a slow step that waits for the parameter servers from one that waits for the machine:
# compilers (`C2 CompilerThre`), GC and other nodes' threads taking cores from the workers' `training`
# threads and the servers' event loops (`reactor-http-epoll`) show as their cpu, and as the others'
# waited. docs/operations.md ("Troubleshooting") and docs/benchmarks.md show how to read it.
#
# Usage: scripts/thread-cpu.sh [SECONDS] [PID...]
#   SECONDS  length of the interval (default 10)
#   PID...   JVMs to read (default: every running jvm-ps node: a java process started from one of the
#            three *-service-*-exec.jar files by scripts/ps-launch.sh, or from /app/app.jar in the
#            project's containers). Reading another user's processes needs root.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

seconds="${1:-10}"
[[ "$seconds" =~ ^[0-9]+([.][0-9]+)?$ ]] && [[ "$seconds" != 0 ]] || ps_die "SECONDS must be a positive number, got '$seconds'"
shift || true
pids=("$@")
if (( ${#pids[@]} == 0 )); then
    mapfile -t pids < <(pgrep -f -- '-service-[^ ]*-exec\.jar|/app/app\.jar' || true)
fi
(( ${#pids[@]} > 0 )) || ps_die "no jvm-ps node is running here (pass PIDs to read other processes)"
for pid in "${pids[@]}"; do
    [[ "$pid" =~ ^[0-9]+$ && -r /proc/$pid/cmdline ]] || ps_die "no readable process $pid"
done

# node_name PID : the node's role (MS_ROLE in its environment, else the jar's name) and its PID.
node_name() {
    local pid=$1 role
    role=$(tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | sed -n 's/^MS_ROLE=//p' | head -n 1 || true)
    if [[ -z "$role" ]]; then
        role=$(tr '\0' ' ' <"/proc/$pid/cmdline" | grep -o '[a-z]*-service' | head -n 1 || true)
    fi
    role=${role%-service}
    printf '%s/%s' "${role:-java}" "$pid"
}

# snapshot : one line per thread of the chosen JVMs:
# NODE TID NAME RUN_NS WAIT_NS VOLUNTARY INVOLUNTARY (NAME with spaces as '_').
snapshot() {
    local pid node task name run wait rest key value vol inv
    for pid in "${pids[@]}"; do
        node=${names[$pid]}
        for task in /proc/"$pid"/task/*; do
            # shell builtins only: a fork per thread would cost the machine being measured a core-second
            { read -r name <"$task/comm" && read -r run wait rest <"$task/schedstat"; } 2>/dev/null || continue
            vol=0 inv=0
            while read -r key value; do
                case "$key" in
                    voluntary_ctxt_switches:) vol=$value ;;
                    nonvoluntary_ctxt_switches:) inv=$value ;;
                esac
            done <"$task/status" 2>/dev/null || continue
            printf '%s %s %s %s %s %s %s\n' "$node" "${task##*/}" "${name// /_}" "$run" "$wait" "$vol" "$inv"
        done
    done
}

# the names once, before the first reading: their forks stay out of the interval
declare -A names
for pid in "${pids[@]}"; do
    names[$pid]=$(node_name "$pid")
done

before=$(mktemp)
trap 'rm -f "$before"' EXIT
snapshot >"$before"
start=$(date +%s.%N)
sleep "$seconds"
after=$(snapshot)
elapsed=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN {print e - s}')

printf '%s\n' "$after" | awk -v elapsed="$elapsed" -v before="$before" '
function up(now, then) { return now > then ? now - then : 0 }
BEGIN {
    while ((getline line < before) > 0) {
        split(line, f, " ")
        key = f[1] " " f[2]
        run0[key] = f[4]; wait0[key] = f[5]; vol0[key] = f[6]; inv0[key] = f[7]
    }
}
{
    key = $1 " " $2
    name = $3; sub(/[0-9]+$/, "", name); sub(/[-_#]$/, "", name)
    group = $1 " " name
    # a thread started during the interval counts from zero; one exiting while it was read (its status file then
    # lacks the counters) reads as 0 and would count backwards: no counter goes down, so a drop counts as none
    run[group] += up($4, run0[key]); wait[group] += up($5, wait0[key])
    vol[group] += up($6, vol0[key]); inv[group] += up($7, inv0[key]); threads[group]++
    total += up($4, run0[key])
}
END {
    printf "%-22s %-24s %7s %8s %8s %8s %8s\n", "node", "threads", "count", "cpu", "waited", "wakes", "preempt"
    for (g in run) {
        if (run[g] / elapsed < 5e6 && wait[g] / elapsed < 5e6) continue   # under 5 ms/s of either
        split(g, p, " ")
        printf "%-22s %-24s %7d %8.1f %8.1f %8.0f %8.0f\n", p[1], p[2], threads[g],
            run[g] / elapsed / 1e6, wait[g] / elapsed / 1e6, vol[g] / elapsed, inv[g] / elapsed | "sort -k4,4 -n -r"
    }
    close("sort -k4,4 -n -r")
    printf "all threads of these JVMs: %.2f cores busy on average over %.1f s (cpu and waited in ms per second)\n",
        total / elapsed / 1e9, elapsed
}'
