#!/usr/bin/env bash
# Runs the main job on this machine: 1 scheduler, PS_SERVERS servers and PS_WORKERS workers as
# separate JVMs on loopback, training LeNet-5 on MNIST (or the model and data the worker arguments name), then
# prints the final test accuracy.
#
# Usage: scripts/run-local.sh [--build] [-- WORKER_ARGS...]
#   --build        rebuild the jars first (they are also built when any exec jar is missing)
#   -- ARGS        passed to every worker, e.g. -- --ps.worker.training.epochs=1 --ps.worker.model=SOFTMAX
#
# Every line a node prints is shown prefixed with its name: [scheduler]; a server or worker is
# [server#i] / [worker#i] (launch order) until the scheduler gives it a rank, then [server-<rank>] /
# [worker-<rank>]. The unprefixed logs are kept in run/logs/<launch name>.log (server-0.log, ...).
# Ctrl-C stops every node.
#
# Environment:
#   PS_SERVERS=2 PS_WORKERS=2   cluster size
#   PS_SCHED_PORT               scheduler HTTP port (default: first free port from 18080)
#   PS_EPOCHS=3 PS_BATCH_SIZE=32   become --ps.worker.training.epochs / --ps.worker.training.batch-size
#                                  (PS_WORKER_TRAINING_EPOCHS and PS_WORKER_TRAINING_BATCHSIZE, or their old
#                                  names PS_WORKER_EPOCHS and PS_WORKER_BATCHSIZE, count when these are unset)
#   PS_DATA_DIR                 MNIST folder (default <repo>/data/mnist; fetched when absent, and only for a job
#                               that reads MNIST from it: not for CSV, NPY, LIBSVM, CTR or a dataset.path of yours)
#   PS_SERVER_ARGS              arguments for every server (space-separated); when unset, Adam at 0.005
#                               after a 200-update warm-up (at most half the job), with a cosine decay to 0 by
#                               the job's last step (the servers take the job's length from the workers)
#   PS_TIMEOUT                  give up after this many seconds of training (default 0: never)
# The trained model is written to run/model (model.sd + model.json) unless ps.worker.output.model-dir is given,
# as an argument after -- or as PS_WORKER_OUTPUT_MODELDIR. Every worker and server setting this script defaults
# yields to the same setting given as an argument or an environment variable.
#   PS_WORKER_EXTRA_JAVA_OPTS   JVM options added to the workers' (default -XX:TieredStopAtLevel=1: C1 only;
#                               set it empty for C2, e.g. for long jobs)
#   PS_JAR_DIR, JAVA_OPTS, JAVA_HOME   see scripts/ps-launch.sh
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

readonly LAUNCH="$PS_REPO_ROOT/scripts/ps-launch.sh"
readonly DEFAULT_PORT=18080
readonly STOP_GRACE_SECONDS=10
readonly START_TIMEOUT_SECONDS=90

usage() {
    sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//'
}

build=0
worker_args=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --build) build=1 ;;
        -h | --help) usage; exit 0 ;;
        --) shift; worker_args=("$@"); break ;;
        *) ps_die "unknown argument '$1'; worker arguments go after --, see --help" ;;
    esac
    shift
done

is_count() { [[ "$1" =~ ^[1-9][0-9]*$ ]]; }
servers="${PS_SERVERS:-2}"
workers="${PS_WORKERS:-2}"
timeout="${PS_TIMEOUT:-0}"
is_count "$servers" || ps_die "PS_SERVERS must be a positive integer, got '$servers'"
is_count "$workers" || ps_die "PS_WORKERS must be a positive integer, got '$workers'"
[[ "$timeout" =~ ^[0-9]+$ ]] || ps_die "PS_TIMEOUT must be a number of seconds, got '$timeout'"

cd "$PS_REPO_ROOT"

# --- (a) jars ---------------------------------------------------------------------------------
missing_jars=()
for role in scheduler server worker; do
    ps_find_jar "$role" >/dev/null || missing_jars+=("$role")
done
if [[ $build -eq 1 || ${#missing_jars[@]} -gt 0 ]]; then
    if [[ -n "${PS_JAR_DIR:-}" ]]; then
        [[ ${#missing_jars[@]} -eq 0 ]] || ps_die "PS_JAR_DIR=$PS_JAR_DIR lacks the exec jar of: ${missing_jars[*]}"
        ps_info "PS_JAR_DIR is set; not building"
    else
        ps_info "building the jars: ./mvnw -q -DskipTests package"
        ./mvnw -q -DskipTests package
        for role in scheduler server worker; do
            ps_find_jar "$role" >/dev/null || ps_die "the build produced no $role exec jar ($(ps_jar_glob "$role"))"
        done
    fi
fi

# --- (c) scheduler port -----------------------------------------------------------------------
if [[ -n "${PS_SCHED_PORT:-}" ]]; then
    port="$PS_SCHED_PORT"
    [[ "$port" =~ ^[0-9]+$ && "$port" -ge 1 && "$port" -le 65535 ]] || ps_die "PS_SCHED_PORT must be a TCP port, got '$port'"
    ! ps_port_in_use "$port" || ps_die "PS_SCHED_PORT=$port is already in use; pick another port"
else
    port=""
    for candidate in $(seq "$DEFAULT_PORT" $((DEFAULT_PORT + 99))); do
        if ! ps_port_in_use "$candidate"; then
            port=$candidate
            break
        fi
    done
    [[ -n "$port" ]] || ps_die "no free port in $DEFAULT_PORT..$((DEFAULT_PORT + 99)); set PS_SCHED_PORT"
fi

# --- (d) process bookkeeping, (e) clean shutdown ----------------------------------------------
log_dir="$PS_REPO_ROOT/run/logs"
mkdir -p "$log_dir"
fifo_dir="$(mktemp -d "${TMPDIR:-/tmp}/run-local.XXXXXX")"

declare -A node_name=()   # JVM pid -> node name
node_pids=()              # JVM pids, in start order
printer_pids=()           # prefixer pids
cleaned=0

alive() {
    kill -0 "$1" 2>/dev/null
}

# stop_group PID...: TERM the given JVMs that still run, wait up to STOP_GRACE_SECONDS, then KILL.
stop_group() {
    local pid running=() deadline
    for pid in "$@"; do
        if alive "$pid"; then
            running+=("$pid")
        fi
    done
    [[ ${#running[@]} -gt 0 ]] || return 0
    kill -TERM "${running[@]}" 2>/dev/null || true
    deadline=$((SECONDS + STOP_GRACE_SECONDS))
    while [[ $SECONDS -lt $deadline ]]; do
        running=()
        for pid in "$@"; do
            if alive "$pid"; then
                running+=("$pid")
            fi
        done
        [[ ${#running[@]} -gt 0 ]] || break
        sleep 0.2
    done
    for pid in "${running[@]}"; do
        echo "run-local: ${node_name[$pid]} (pid $pid) ignored TERM for ${STOP_GRACE_SECONDS}s; killing it" >&2
        kill -KILL "$pid" 2>/dev/null || true
    done
}

# stop_nodes: stop servers and workers first, the scheduler (started first) last, so that nodes
# can still tell it they leave; finally let the prefixers drain. Safe to call more than once.
stop_nodes() {
    [[ $cleaned -eq 0 ]] || return 0
    cleaned=1
    local pid count=0 deadline
    for pid in "${node_pids[@]}"; do
        if alive "$pid"; then
            count=$((count + 1))
        fi
    done
    if [[ $count -gt 0 ]]; then
        echo "run-local: stopping $count node(s)..."
        if [[ ${#node_pids[@]} -gt 1 ]]; then
            stop_group "${node_pids[@]:1}"
        fi
        stop_group "${node_pids[0]}"
    fi
    for pid in "${node_pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    # The prefixers end when their node's output closes; give them a moment to flush.
    deadline=$((SECONDS + 3))
    for pid in "${printer_pids[@]}"; do
        while alive "$pid" && [[ $SECONDS -lt $deadline ]]; do
            sleep 0.1
        done
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$fifo_dir"
}

on_signal() {
    trap - INT TERM
    echo
    echo "run-local: interrupted ($1); shutting the cluster down" >&2
    stop_nodes
    exit "$2"
}
trap 'on_signal INT 130' INT
trap 'on_signal TERM 143' TERM
trap stop_nodes EXIT

# Prefixes each line with [PREFIX]; once the node logs the rank the scheduler gave it (a server's
# "Server rank N registered", a worker's "registered as ... with rank N"), with [ROLE-N] instead.
RANK_PREFIXER='
BEGIN { prefix = start }
!ranked && ($0 ~ /^.*Server rank [0-9]+ registered as/ || $0 ~ /Worker registered as .* with rank [0-9]+/) {
    if (match($0, /rank [0-9]+/)) { prefix = role "-" substr($0, RSTART + 5, RLENGTH - 5); ranked = 1 }
}
{ print "[" prefix "] " $0; fflush() }'

# start_node NAME ROLE ARGS... : start one JVM via ps-launch.sh with its output prefixed (see
# RANK_PREFIXER) on the terminal and copied to run/logs/NAME.log.
start_node() {
    local name=$1 role=$2 fifo start=$1
    shift 2
    [[ "$role" == scheduler ]] || start="${name/-/#}"
    fifo="$fifo_dir/$name"
    mkfifo "$fifo"
    # Async commands ignore SIGINT, so Ctrl-C reaches only this script, which stops nodes with TERM.
    tee "$log_dir/$name.log" <"$fifo" | awk -v start="$start" -v role="$role" "$RANK_PREFIXER" &
    printer_pids+=("$!")
    local extra=""
    [[ "$role" == worker ]] && extra="$worker_java_opts"
    JAVA_EXTRA_OPTS="$extra" MS_ROLE="$role" "$LAUNCH" "$@" >"$fifo" 2>&1 &
    node_pids+=("$!")
    node_name[$!]=$name
}

# reap PID : set rc to the exit status of a finished child (not in a subshell: only this shell
# can wait for its children).
reap() {
    rc=0
    wait "$1" || rc=$?
}

fail() {
    echo "run-local: $*" >&2
    stop_nodes
    exit 1
}

export MS_SERVER_NUM="$servers" MS_WORKER_NUM="$workers"
export MS_SCHED_HOST=127.0.0.1 MS_SCHED_PORT="$port" MS_NODE_HOST=127.0.0.1

# env_name PROPERTY: the environment variable Spring binds to a property (ps.worker.output.model-dir ->
# PS_WORKER_OUTPUT_MODELDIR).
env_name() {
    local name="${1^^}"
    name="${name//./_}"
    printf '%s' "${name//-/}"
}
# worker_arg PROPERTY [OLD_NAME...]: print the value of the last argument after -- that sets the property under its
# name or an old one; fail when none does.
worker_arg() {
    local a name value found=1
    for a in "${worker_args[@]}"; do
        for name in "$@"; do
            if [[ "$a" == "--$name="* ]]; then
                value="${a#--"$name"=}"
                found=0
            fi
        done
    done
    [[ $found -eq 0 ]] && printf '%s' "$value"
}
# worker_env PROPERTY [OLD_NAME...]: print the value of the environment variable of the property or an old name.
worker_env() {
    local name var
    for name in "$@"; do
        var="$(env_name "$name")"
        if [[ -n "${!var+set}" ]]; then
            printf '%s' "${!var}"
            return 0
        fi
    done
    return 1
}
# user_setting PROPERTY [OLD_NAME...]: the value the user gave the workers, by argument (wins) or environment; fails
# when neither sets it. Every worker setting this script defaults yields to both.
user_setting() {
    worker_arg "$@" || worker_env "$@"
}
# The main job's recipe (measured in docs/benchmarks.md): DEFAULT_EPOCHS epochs of DEFAULT_BATCH images per worker and
# step; the servers' Adam rises linearly to DEFAULT_LEARNING_RATE over the first DEFAULT_WARMUP updates (at most half
# the job) and then decays on a cosine to 0 by the job's last step. The servers size that cosine from the job itself:
# each worker tells them its length when it declares the model (ps.optimizer.total-steps unset), so it fits any data
# set, batch size and epoch count, however they are given. Setting PS_SERVER_ARGS (even empty) replaces these
# arguments; a server setting in the environment (PS_OPTIMIZER_TYPE, say) replaces its argument.
readonly DEFAULT_EPOCHS=3 DEFAULT_BATCH=32 DEFAULT_LEARNING_RATE=0.005 DEFAULT_WARMUP=200
# The workers JIT-compile with C1 only: their Java code drives native kernels, and C2's compilations took more
# CPU from a 2-minute job on two cores than its faster code gave back (docs/benchmarks.md). Servers keep C2.
readonly DEFAULT_WORKER_EXTRA_JAVA_OPTS="-XX:TieredStopAtLevel=1"
extra_worker_args=()
# PS_EPOCHS / PS_BATCH_SIZE are this script's knobs: an argument wins over them, they win over the workers' own
# variables (PS_WORKER_TRAINING_EPOCHS, ...), and those over the defaults.
for knob in PS_EPOCHS PS_BATCH_SIZE; do
    [[ -z "${!knob:-}" ]] || is_count "${!knob}" || ps_die "$knob must be a positive integer, got '${!knob}'"
done
if ! worker_arg ps.worker.training.epochs ps.worker.epochs >/dev/null; then
    if [[ -n "${PS_EPOCHS:-}" ]]; then
        extra_worker_args+=("--ps.worker.training.epochs=$PS_EPOCHS")
    elif ! worker_env ps.worker.training.epochs ps.worker.epochs >/dev/null; then
        extra_worker_args+=("--ps.worker.training.epochs=$DEFAULT_EPOCHS")
    fi
fi
if ! worker_arg ps.worker.training.batch-size ps.worker.batch-size >/dev/null; then
    if [[ -n "${PS_BATCH_SIZE:-}" ]]; then
        extra_worker_args+=("--ps.worker.training.batch-size=$PS_BATCH_SIZE")
    elif ! worker_env ps.worker.training.batch-size ps.worker.batch-size >/dev/null; then
        extra_worker_args+=("--ps.worker.training.batch-size=$DEFAULT_BATCH")
    fi
fi
# MNIST is fetched only for a job that reads it: the stock classification job on the MNIST format, from the folder
# this script manages (PS_DATA_DIR) rather than one the user names with ps.worker.dataset.path.
format="$(user_setting ps.worker.dataset.format ps.worker.data || echo MNIST)"
job_kind="$(user_setting ps.worker.job || echo CLASSIFICATION)"
data_dir=""
if [[ "${format^^}" == MNIST && "${job_kind^^}" == CLASSIFICATION ]] \
        && ! user_setting ps.worker.dataset.path ps.worker.data-path >/dev/null; then
    data_dir="${PS_DATA_DIR:-$PS_REPO_ROOT/data/mnist}"
    if [[ -n "$(ps_mnist_missing "$data_dir")" ]]; then
        "$PS_REPO_ROOT/scripts/fetch-mnist.sh" "$data_dir"
    fi
    data_dir="$(cd "$data_dir" && pwd)"
    extra_worker_args+=("--ps.worker.dataset.path=$data_dir")
fi
model_dir="$(user_setting ps.worker.output.model-dir ps.worker.export-dir || true)"
if [[ -z "$model_dir" ]]; then
    model_dir="$PS_REPO_ROOT/run/model"
    extra_worker_args+=("--ps.worker.output.model-dir=$model_dir")
    rm -f "$model_dir/model.sd" "$model_dir/model.json" # a model in run/model is this run's, never an older one
fi
server_args=()
if [[ -n "${PS_SERVER_ARGS+set}" ]]; then
    read -r -a server_args <<<"$PS_SERVER_ARGS"
else
    for default in "ps.optimizer.learning-rate=$DEFAULT_LEARNING_RATE" ps.optimizer.schedule=COSINE \
        "ps.optimizer.warmup-steps=$DEFAULT_WARMUP"; do
        var="$(env_name "${default%%=*}")"
        [[ -n "${!var+set}" ]] || server_args+=("--$default")
    done
fi

# The nodes bind PS_* variables as ps.* properties (Spring relaxed binding); keep this script's own
# knobs out of their environment.
worker_java_opts="${PS_WORKER_EXTRA_JAVA_OPTS-$DEFAULT_WORKER_EXTRA_JAVA_OPTS}"
unset PS_WORKER_EXTRA_JAVA_OPTS PS_SERVERS PS_WORKERS PS_EPOCHS PS_BATCH_SIZE PS_DATA_DIR PS_SERVER_ARGS PS_TIMEOUT PS_SCHED_PORT

cluster_start=$SECONDS
script_started=$(date +%s)
echo "run-local: scheduler on 127.0.0.1:$port, $servers server(s), $workers worker(s); data ${data_dir:-as the worker arguments say}; logs in $log_dir"
start_node scheduler scheduler "--server.port=$port"
scheduler_pid=${node_pids[0]}

deadline=$((SECONDS + START_TIMEOUT_SECONDS))
until ps_port_in_use "$port"; do
    if ! alive "$scheduler_pid"; then
        reap "$scheduler_pid"
        fail "the scheduler exited with code $rc before listening on port $port (see $log_dir/scheduler.log)"
    fi
    [[ $SECONDS -lt $deadline ]] || fail "the scheduler did not listen on port $port within ${START_TIMEOUT_SECONDS}s (see $log_dir/scheduler.log)"
    sleep 0.5
done

for ((i = 0; i < servers; i++)); do
    start_node "server-$i" server --server.port=0 --spring.rsocket.server.port=0 "${server_args[@]}"
done
worker_pids=()
for ((i = 0; i < workers; i++)); do
    start_node "worker-$i" worker --server.port=0 "${extra_worker_args[@]}" "${worker_args[@]}"
    worker_pids+=("${node_pids[-1]}")
done

# --- (f) wait for the workers -----------------------------------------------------------------
declare -A finished=()
while [[ ${#finished[@]} -lt $workers ]]; do
    for pid in "${worker_pids[@]}"; do
        if [[ -z "${finished[$pid]:-}" ]] && ! alive "$pid"; then
            reap "$pid"
            finished[$pid]=$rc
            if [[ "$rc" -ne 0 ]]; then
                fail "${node_name[$pid]} exited with code $rc (see $log_dir/${node_name[$pid]}.log)"
            fi
            echo "run-local: ${node_name[$pid]} finished"
        fi
    done
    [[ ${#finished[@]} -lt $workers ]] || break
    for pid in "${node_pids[@]}"; do
        if [[ " ${worker_pids[*]} " != *" $pid "* ]] && ! alive "$pid"; then
            reap "$pid"
            fail "${node_name[$pid]} exited with code $rc while the workers were training (see $log_dir/${node_name[$pid]}.log)"
        fi
    done
    if [[ $timeout -gt 0 && $((SECONDS - cluster_start)) -ge $timeout ]]; then
        fail "the workers did not finish within PS_TIMEOUT=${timeout}s"
    fi
    sleep 1
done

# --- (g) final result -------------------------------------------------------------------------
# parse_job JSON : print "state correct total" from a JobStatus document.
parse_job() {
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import json, sys
j = json.load(sys.stdin)
print(j.get("state", "?"), int(j.get("correct", 0)), int(j.get("total", 0)))' <<<"$1"
    else
        local state correct total
        state="$(sed -n 's/.*"state" *: *"\([A-Z_]*\)".*/\1/p' <<<"$1")"
        correct="$(sed -n 's/.*"correct" *: *\([0-9]*\).*/\1/p' <<<"$1")"
        total="$(sed -n 's/.*"total" *: *\([0-9]*\).*/\1/p' <<<"$1")"
        echo "${state:-?} ${correct:-0} ${total:-0}"
    fi
}

job_url="http://127.0.0.1:$port/api/v1/job"
state="?" correct=0 total=0
deadline=$((SECONDS + 15))
while :; do
    if json="$(curl -fsS --max-time 5 "$job_url" 2>/dev/null)"; then
        read -r state correct total < <(parse_job "$json" 2>/dev/null || echo "? 0 0") || true
        [[ "$state" != "FINISHED" ]] || break
    fi
    [[ $SECONDS -lt $deadline ]] || break
    sleep 0.5
done
cluster_seconds=$((SECONDS - cluster_start))
stop_nodes

if [[ "$state" != "FINISHED" || "$total" -eq 0 ]]; then
    echo "run-local: the workers exited but the scheduler reports state=$state with $correct/$total correct ($job_url)" >&2
    exit 1
fi
awk -v c="$correct" -v t="$total" 'BEGIN { printf "Final test accuracy: %.2f%% (%d/%d)\n", 100 * c / t, c, t }'
if [[ -n "$model_dir" && -f "$model_dir/model.sd" && $(stat -c %Y "$model_dir/model.sd") -ge $script_started ]]; then
    echo "Trained model: $model_dir/model.sd (+ model.json); classify with: scripts/predict.sh --model=$model_dir"
fi
printf 'Total wall time: %dm %02ds (cluster %dm %02ds)\n' \
    $((SECONDS / 60)) $((SECONDS % 60)) $((cluster_seconds / 60)) $((cluster_seconds % 60))
