#!/usr/bin/env bash
# The multi-host drill: deploys deploy/swarm/jvm-ps.yml on a Docker Swarm of three "hosts" on this
# machine, trains LeNet-5 across them, then takes one host down mid-training and checks that swarm
# reschedules its tasks on the other two and the job still finishes above an accuracy threshold.
# Prints the time to detect the loss and to recover (recorded in docs/operations.md).
#
# Usage (as root, with the jars built: ./mvnw -DskipTests package):
#   scripts/swarm-three-hosts.sh          run the drill, then tear everything down
#   scripts/swarm-three-hosts.sh down     tear down what an interrupted run left behind
#
# Each host is a network namespace with its own veth address on one bridge (10.213.0.11-13) and its
# own dockerd (own data root, containerd, iptables, docker0): three engines joined into one swarm
# (three managers, so raft keeps its quorum when one goes), one overlay network across them over
# real VXLAN between the namespaces. Images are built once in a local engine (scripts/docker-local.sh)
# and `docker save | docker load`ed into every host, as a registry would hand them out. The
# checkpoint volume is a bind of one directory that every host mounts (what an NFS export would be
# across real machines). The scheduler is pinned to host 1; the lost host is one that runs a server.
#
# Environment:
#   PS_DRILL_LOSS=crash     crash: the host's link goes down and its containers and engine are
#                           SIGKILLed (a power cut); stop: its engine is stopped (SIGTERM)
#   PS_DRILL_TRAIN=12000 PS_DRILL_TEST=2000 PS_DRILL_MIN_CORRECT=0.85
#   PS_DRILL_STATE          working directory (default ~/.cache/ps-drill; engine state, ~3 GB)
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

readonly STATE=${PS_DRILL_STATE:-$HOME/.cache/ps-drill}
readonly BRIDGE=psdrill0
readonly NET=10.213.0
readonly HOSTS=(1 2 3)
readonly STACK=jvmps
readonly TAG=drill
readonly SCHED_PORT=18080
readonly LOSS=${PS_DRILL_LOSS:-crash}
readonly TRAIN=${PS_DRILL_TRAIN:-12000}
readonly TEST=${PS_DRILL_TEST:-2000}
readonly MIN_CORRECT=${PS_DRILL_MIN_CORRECT:-0.85}

ns() { echo "psdrill$1"; }
sock() { echo "unix://$STATE/h$1/docker.sock"; }
on() { local h=$1; shift; docker -H "$(sock "$h")" "$@"; }
in_ns() { local h=$1; shift; nsenter --net="/run/netns/$(ns "$h")" "$@"; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
# after START TIME_OF_DAY : seconds from START (epoch seconds) to a log line's UTC time of day, or "never"
after() { if [[ -n "$2" ]]; then elapsed "$1" "$(date -u -d "$(date -u -d "@${1%.*}" +%F) $2" +%s.%N)"; else echo never; fi; }

# poll SECONDS WHAT COMMAND... : run COMMAND every second until it succeeds; die naming WHAT after SECONDS.
poll() {
    local limit=$1 what=$2 deadline
    shift 2
    deadline=$((SECONDS + limit))
    until "$@" >/dev/null 2>&1; do
        ((SECONDS < deadline)) || ps_die "gave up after ${limit} s waiting for $what"
        sleep 1
    done
}

down() {
    set +e
    for h in "${HOSTS[@]}"; do
        if [[ -f "$STATE/h$h/launch.pid" ]]; then
            local pid
            pid=$(cat "$STATE/h$h/launch.pid")
            on "$h" ps -q 2>/dev/null | xargs -r docker -H "$(sock "$h")" kill >/dev/null 2>&1
            on "$h" swarm leave --force >/dev/null 2>&1
            kill -TERM "$pid" 2>/dev/null
            for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
            kill -KILL "$pid" 2>/dev/null
            rm -f "$STATE/h$h/launch.pid"
        fi
        # containerd and the shims of a crashed host, if any survived
        for pid in $(ip netns pids "$(ns "$h")" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
        ip netns del "$(ns "$h")" 2>/dev/null
        ip link del "psh$h" 2>/dev/null
        umount "$STATE/h$h/exec/netns/"* 2>/dev/null
    done
    # every run starts from empty engines: no swarm, volume or container state carries over
    grep -o " $STATE/[^ ]*" /proc/mounts | sort -r | xargs -r umount -l 2>/dev/null
    rm -rf "$STATE"/h[0-9]
    ip link del "$BRIDGE" 2>/dev/null
    while iptables -D FORWARD -i "$BRIDGE" -o "$BRIDGE" -j ACCEPT 2>/dev/null; do :; done
    set -e
}

network() {
    ip link add "$BRIDGE" type bridge
    ip addr add "$NET.1/24" dev "$BRIDGE"
    ip link set "$BRIDGE" up
    # the local engine's FORWARD policy is DROP and bridged frames pass iptables (br_netfilter)
    iptables -I FORWARD 1 -i "$BRIDGE" -o "$BRIDGE" -j ACCEPT
    for h in "${HOSTS[@]}"; do
        ip netns add "$(ns "$h")"
        ip link add "psh$h" type veth peer name eth0 netns "$(ns "$h")"
        ip link set "psh$h" master "$BRIDGE" up
        in_ns "$h" ip addr add "$NET.1$h/24" dev eth0
        in_ns "$h" ip link set eth0 up
        in_ns "$h" ip link set lo up
        in_ns "$h" ip route add default via "$NET.1"
    done
}

engines() {
    for h in "${HOSTS[@]}"; do
        mkdir -p "$STATE/h$h"
        # nsenter moves only the network namespace: the engine keeps this machine's /sys and cgroups
        DOCKER_SERVICE_PREFER_OFFLINE_IMAGE=1 nohup nsenter --net="/run/netns/$(ns "$h")" dockerd \
            --data-root "$STATE/h$h/data" --exec-root "$STATE/h$h/exec" --pidfile "$STATE/h$h/dockerd.pid" \
            -H "$(sock "$h")" >"$STATE/h$h/dockerd.log" 2>&1 &
        echo $! >"$STATE/h$h/launch.pid"
        disown
    done
    for h in "${HOSTS[@]}"; do
        poll 60 "the engine of host $h (see $STATE/h$h/dockerd.log)" on "$h" info
        on "$h" load -q -i "$STATE/images.tar" >/dev/null
    done
    rm -f "$STATE/images.tar"
}

# images : build the three images in the local engine (started for this if it is not running) and
# save them to one tar, which engines() loads into every host
images() {
    local local_sock=unix://${PS_DOCKER_STATE:-$HOME/.cache/ps-docker}/docker.sock started=0
    if ! docker -H "$local_sock" info >/dev/null 2>&1; then
        "$PS_REPO_ROOT/scripts/docker-local.sh" start >/dev/null
        started=1
    fi
    ps_info "building the images in the local engine (scripts/docker-local.sh)"
    DOCKER_HOST=$local_sock "$PS_REPO_ROOT/scripts/docker-local.sh" base-image >/dev/null
    DOCKER_HOST=$local_sock PS_IMAGE_TAG=$TAG docker-compose -p psdrillbuild \
        -f "$PS_REPO_ROOT/docker-compose.yml" build -q scheduler server-0 worker-0
    mkdir -p "$STATE"
    docker -H "$local_sock" save -o "$STATE/images.tar" "jvm-ps/scheduler:$TAG" "jvm-ps/server:$TAG" "jvm-ps/worker:$TAG"
    if ((started)); then
        "$PS_REPO_ROOT/scripts/docker-local.sh" stop >/dev/null
    fi
}

swarm() {
    on 1 swarm init --advertise-addr "$NET.11" >/dev/null
    local token
    token=$(on 1 swarm join-token -q manager)
    for h in 2 3; do
        on "$h" swarm join --token "$token" --advertise-addr "$NET.1$h" "$NET.11:2377" >/dev/null
    done
    for h in "${HOSTS[@]}"; do
        on 1 node update --label-add "drill.host=h$h" "$(on "$h" info --format '{{.Swarm.NodeID}}')" >/dev/null
    done
    openssl rand -hex 32 | on 1 secret create jvm-ps-cluster-secret - >/dev/null
}

# job_state : the scheduler's job JSON, from host 1's published port
job() { curl -fsS --max-time 5 "http://$NET.11:$SCHED_PORT/api/v1/job"; }
registered() { [[ $(curl -fsS --max-time 5 "http://$NET.11:$SCHED_PORT/api/v1/cluster" | grep -o '"role":"[A-Za-z]*"' | wc -l) -ge 4 ]]; }
# logs_of SERVICE [LOST_HOST] : the logs of every container of SERVICE on every host but LOST_HOST
# (docker service logs waits for a node that is down)
logs_of() {
    local service=$1 lost=${2:-0} h c
    for h in "${HOSTS[@]}"; do
        ((h == lost)) && continue
        for c in $(on "$h" ps -aq --filter "label=com.docker.swarm.service.name=${STACK}_$service"); do
            timeout 30 docker -H "$(sock "$h")" logs "$c" 2>&1
        done
    done
}
checkpointed() { logs_of server | grep "Checkpoint step [1-9][0-9]*: wrote part" >/dev/null; }
finished() { job | grep '"state":"FINISHED"' >/dev/null; }
# nodes_of SERVICE : the ids of the nodes running a task of SERVICE
nodes_of() {
    on 1 service ps -q --filter desired-state=running "${STACK}_$1" \
        | xargs -r docker -H "$(sock 1)" inspect --format '{{.NodeID}}' | sort -u
}
# placement : one line per task of the stack: name, host (h1-h3), desired and current state, error
placement() {
    local id name rest
    on 1 stack ps --no-trunc --format '{{.ID}} {{.Name}} {{.DesiredState}} {{.CurrentState}} {{.Error}}' "$STACK" \
        | while read -r id name rest; do
            echo "$name on $(label_of "$(on 1 inspect --format '{{.NodeID}}' "$id")"): $rest"
        done
}
label_of() { on 1 node inspect --format '{{index .Spec.Labels "drill.host"}}' "$1"; }

deploy() {
    local ckpt=$STATE/checkpoints
    rm -rf "$ckpt"
    mkdir -p "$ckpt"
    chown 10001:10001 "$ckpt"
    cat >"$STATE/drill.yml" <<YAML
version: "3.8"
services:
  scheduler:
    deploy: {placement: {constraints: [node.labels.drill.host == h1]}}
volumes:
  checkpoints:
    driver: local
    driver_opts: {type: none, o: bind, device: $ckpt}
YAML
    PS_IMAGE_TAG=$TAG PS_DATA_DIR=$PS_REPO_ROOT/data/mnist PS_SCHEDULER_PUBLISHED_PORT=$SCHED_PORT \
        PS_SCHEDULER_HEARTBEATTIMEOUT=5s PS_CHECKPOINT_EVERYSTEPS=10 PS_WORKER_DATASET_TRAINLIMIT=$TRAIN \
        PS_WORKER_DATASET_TESTLIMIT=$TEST PS_WORKER_TRAINING_EPOCHS=1 PS_WORKER_TRAINING_BATCHSIZE=32 \
        docker -H "$(sock 1)" stack deploy --resolve-image never \
        -c "$PS_REPO_ROOT/deploy/swarm/jvm-ps.yml" -c "$STATE/drill.yml" "$STACK" >/dev/null
}

lose() {
    local h=$1
    case "$LOSS" in
        crash)
            ip link set "psh$h" down
            on "$h" ps -q | xargs -r docker -H "$(sock "$h")" kill >/dev/null
            for pid in $(ip netns pids "$(ns "$h")"); do kill -KILL "$pid" 2>/dev/null || true; done ;;
        stop)
            kill -TERM "$(cat "$STATE/h$h/launch.pid")" ;;
        *) ps_die "PS_DRILL_LOSS must be crash or stop, got '$LOSS'" ;;
    esac
}

main() {
    [[ $(id -u) -eq 0 ]] || ps_die "run as root: it creates network namespaces and engines"
    [[ -z "$(ps_mnist_missing "$PS_REPO_ROOT/data/mnist")" ]] || "$PS_REPO_ROOT/scripts/fetch-mnist.sh"
    down
    trap down EXIT
    local t0=$SECONDS
    images
    network
    engines
    swarm
    ps_info "3 hosts up, images loaded, swarm formed in $((SECONDS - t0)) s; deploying the stack"
    deploy
    drill
}

# drill : with the stack deployed, waits for a checkpoint, loses a host that runs a server, checks and reports
drill() {
    poll 300 "2 servers and 2 workers registered" registered
    poll 300 "a checkpoint by both servers" checkpointed
    placement | grep -w Running
    local victim="" node
    for node in $(nodes_of server); do
        [[ $(label_of "$node") == h1 ]] || victim=$(label_of "$node")
    done
    [[ -n "$victim" ]] || ps_die "no server runs outside host 1"
    local lost
    lost=$(now)
    ps_info "losing host ${victim#h} ($LOSS) at $(date -u +%T.%3N)"
    lose "${victim#h}"
    poll 120 "the swarm to mark host ${victim#h} down" \
        bash -c "docker -H $(sock 1) node ls --format '{{.Status}}' | grep -qx Down"
    local node_down
    node_down=$(now)
    poll 240 "two servers running again" bash -c \
        "[[ \$(docker -H $(sock 1) service ps --filter desired-state=running --format '{{.CurrentState}}' ${STACK}_server | grep -c Running) -eq 2 ]]"
    local rescheduled
    rescheduled=$(now)
    poll 900 "the job to finish" finished
    local done_at body correct
    done_at=$(now)
    body=$(job)
    correct=$(grep -o '"correct":[0-9]*' <<<"$body" | cut -d: -f2)
    placement
    local sched_log dead took rec
    sched_log=$(logs_of scheduler "${victim#h}")
    dead=$(grep -m1 -o '^[0-9:.]* .*marked DEAD' <<<"$sched_log" | cut -d' ' -f1 || true)
    took=$(grep -m1 -o '^[0-9:.]* .*took over server rank' <<<"$sched_log" | cut -d' ' -f1 || true)
    rec=$(logs_of worker "${victim#h}" | grep -o '^[0-9:.]* .*Recovery 1 done' | sort | head -1 | cut -d' ' -f1 || true)
    echo "--- drill: host ${victim#h} lost ($LOSS) at $(date -u -d "@$lost" +%T.%3N)"
    echo "the scheduler marked a server DEAD after $(after "$lost" "$dead") s"
    echo "swarm marked the host Down after         $(elapsed "$lost" "$node_down") s"
    echo "a new server task took the dead rank at  $(after "$lost" "$took") s"
    echo "two server tasks Running again after     $(elapsed "$lost" "$rescheduled") s"
    echo "the first worker recovered after         $(after "$lost" "$rec") s"
    echo "the job finished after                   $(elapsed "$lost" "$done_at") s: $correct of $TEST correct"
    [[ -n "$took" && -n "$rec" ]] || ps_die "no take-over or no recovery was logged"
    awk -v c="$correct" -v t="$TEST" -v m="$MIN_CORRECT" 'BEGIN { exit !(c >= m * t) }' \
        || ps_die "accuracy $correct/$TEST is under $MIN_CORRECT"
    ps_info "drill passed"
}

case "${1:-}" in
    "") main ;;
    down) down; ps_info "torn down" ;;
    -h | --help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//' ;;
    *) ps_die "unknown argument '$1'; see --help" ;;
esac
