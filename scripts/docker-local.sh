#!/usr/bin/env bash
# (A copy of the team tool ../shared/tools/docker-local.sh, so that CI on a clean clone has it.)
# Runs a real Docker engine by hand on a machine with no systemd and no image registry, so that
# docker-compose.yml and the Dockerfiles can be exercised for real (tests, CI, demos).
#
#   docker-local.sh install              apt-get the engine, docker-compose (v1), debootstrap
#   docker-local.sh start                start dockerd; prints the DOCKER_HOST line to export
#   docker-local.sh base-image [TAG]     build a JRE 17 base image from Debian packages and tag it
#                                        (default eclipse-temurin:17-jre, the name Dockerfiles use)
#   docker-local.sh stop                 leave any swarm, stop dockerd, remove its bridges and iptables rules
#
# Swarm (`docker swarm init --advertise-addr 127.0.0.1`, `docker stack deploy`) works too, with limits of
# this kernel: no IPVS, so give services `endpoint_mode: dnsrr` and publish ports in `mode: host`; start
# the engine with DOCKER_SERVICE_PREFER_OFFLINE_IMAGE=1 and deploy with `--resolve-image never`, since
# images can only be built locally.
#
# State lives in $PS_DOCKER_STATE (default ~/.cache/ps-docker). Run as root.
set -euo pipefail
STATE=${PS_DOCKER_STATE:-$HOME/.cache/ps-docker}
SOCK=$STATE/docker.sock
export DOCKER_HOST=unix://$SOCK

up() { docker info >/dev/null 2>&1; }

case "${1:-}" in
install)
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    docker.io docker-compose debootstrap iptables ca-certificates >/dev/null
  echo "installed: $(docker --version); $(docker-compose --version)" ;;
start)
  mkdir -p "$STATE"
  if up; then echo "export DOCKER_HOST=$DOCKER_HOST"; exit 0; fi
  nohup dockerd --data-root "$STATE/data" --exec-root "$STATE/exec" --pidfile "$STATE/dockerd.pid" \
    -H "$DOCKER_HOST" >"$STATE/dockerd.log" 2>&1 &
  echo $! >"$STATE/launch.pid"
  for _ in $(seq 1 60); do
    if up; then echo "export DOCKER_HOST=$DOCKER_HOST"; exit 0; fi
    sleep 0.5
  done
  echo "dockerd did not start; see $STATE/dockerd.log" >&2; exit 1 ;;
base-image)
  tag=${2:-eclipse-temurin:17-jre}
  up || { echo "engine not running: run '$0 start' first" >&2; exit 1; }
  if docker image inspect "$tag" >/dev/null 2>&1; then echo "$tag already present"; exit 0; fi
  mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  [ -n "$mirror" ] || mirror=$(awk '/^deb /{print $2; exit}' /etc/apt/sources.list)
  root=$STATE/rootfs; rm -rf "$root"
  debootstrap --variant=minbase bookworm "$root" "$mirror" >"$STATE/debootstrap.log" 2>&1 \
    || { echo "debootstrap failed; see $STATE/debootstrap.log" >&2; exit 1; }
  tar -C "$root" -c . | docker import - ps-localbase:bookworm >/dev/null
  rm -rf "$root"
  ctx=$(mktemp -d)
  cat >"$ctx/Dockerfile" <<'DOCKERFILE'
FROM ps-localbase:bookworm
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      openjdk-17-jre-headless curl ca-certificates && rm -rf /var/lib/apt/lists/*
CMD ["java", "-version"]
DOCKERFILE
  docker build -q -t "$tag" "$ctx" >/dev/null
  rm -rf "$ctx"
  docker run --rm "$tag" java -version ;;
stop)
  if up; then
    docker swarm leave --force >/dev/null 2>&1 || true
    docker network rm docker_gwbridge >/dev/null 2>&1 || true
  fi
  if [ -f "$STATE/launch.pid" ]; then
    pid=$(cat "$STATE/launch.pid")
    kill -TERM "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 0.5; done
    rm -f "$STATE/launch.pid"
  fi
  ip link del docker0 2>/dev/null || true
  ip link del docker_gwbridge 2>/dev/null || true
  set +e +o pipefail
  for t in filter nat; do
    iptables -t $t -S | grep -E '^-A' | grep -E 'DOCKER|docker0|docker_gwbridge' | sed 's/^-A/-D/' \
      | while read -r rule; do eval iptables -t $t "$rule"; done
    for c in $(iptables -t $t -S | awk '/^-N DOCKER/{print $2}'); do iptables -t $t -F "$c"; done
    for c in $(iptables -t $t -S | awk '/^-N DOCKER/{print $2}'); do iptables -t $t -X "$c"; done
  done
  echo stopped ;;
*)
  sed -n '2,17p' "$0"; exit 2 ;;
esac
