#!/usr/bin/env bash
# Parameter-server mode, worker role: run it MS_WORKER_NUM times (any hosts). Each worker gets a
# rank from the scheduler, trains on its share of the MNIST files in DATA_PATH (fetch them with
# scripts/fetch-mnist.sh) and reports its test accuracy to the scheduler. It picks free HTTP and
# RSocket ports unless PS_WORKER_HTTP_PORT / PS_WORKER_RSOCKET_PORT are set.
# Extra arguments go to the Spring Boot app (e.g. --ps.worker.training.epochs=1).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

export MS_SERVER_NUM="${MS_SERVER_NUM:-2}"
export MS_WORKER_NUM="${MS_WORKER_NUM:-2}"
export MS_SCHED_HOST="${MS_SCHED_HOST:-127.0.0.1}"
export MS_SCHED_PORT="${MS_SCHED_PORT:-18080}"
export MS_NODE_HOST="${MS_NODE_HOST:-127.0.0.1}"
export MS_ROLE=MS_WORKER
DATA_PATH="${DATA_PATH:-$repo/data/mnist}"

exec "$repo/scripts/ps-launch.sh" \
    "--ps.worker.dataset.path=$DATA_PATH" \
    "$@"
