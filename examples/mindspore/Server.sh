#!/usr/bin/env bash
# Parameter-server mode, server role: run it MS_SERVER_NUM times (any hosts). Each server picks
# free HTTP and RSocket ports unless PS_SERVER_HTTP_PORT / PS_SERVER_RSOCKET_PORT are set, and registers
# its address with the scheduler. MS_NODE_HOST is the address workers use to reach this server.
# Extra arguments go to the Spring Boot app (e.g. --ps.optimizer.type=MOMENTUM).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

export MS_SERVER_NUM="${MS_SERVER_NUM:-2}"
export MS_WORKER_NUM="${MS_WORKER_NUM:-2}"
export MS_SCHED_HOST="${MS_SCHED_HOST:-127.0.0.1}"
export MS_SCHED_PORT="${MS_SCHED_PORT:-18080}"
export MS_NODE_HOST="${MS_NODE_HOST:-127.0.0.1}"
export MS_ROLE=MS_PSERVER

exec "$repo/scripts/ps-launch.sh" "$@"
