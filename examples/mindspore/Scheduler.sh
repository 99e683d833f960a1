#!/usr/bin/env bash
# Parameter-server mode, scheduler role: the MindSpore launch script shape, with the
# `python train.py` line replaced by the jvm-ps launcher. Run it once per job, on the host named
# by MS_SCHED_HOST. Extra arguments go to the Spring Boot app (e.g. --ps.scheduler.heartbeat-timeout=60s).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

export MS_SERVER_NUM="${MS_SERVER_NUM:-2}"     # parameter servers the job waits for
export MS_WORKER_NUM="${MS_WORKER_NUM:-2}"     # workers the job waits for
export MS_SCHED_HOST="${MS_SCHED_HOST:-127.0.0.1}"
export MS_SCHED_PORT="${MS_SCHED_PORT:-18080}" # the scheduler's HTTP port
export MS_ROLE=MS_SCHED

exec "$repo/scripts/ps-launch.sh" "--server.port=$MS_SCHED_PORT" "$@"
