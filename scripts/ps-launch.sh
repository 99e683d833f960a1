#!/usr/bin/env bash
# Starts one jvm-ps node the MindSpore way: the role comes from MS_ROLE, the cluster shape from
# MS_SERVER_NUM, MS_WORKER_NUM, MS_SCHED_HOST and MS_SCHED_PORT (read by the services themselves).
#
# Usage: MS_ROLE=MS_SCHED|MS_PSERVER|MS_WORKER scripts/ps-launch.sh [--spring.args=...]
#        (scheduler, server and worker are accepted too, in any case)
#
# Runs `java $JAVA_OPTS -jar <role jar> "$@"` with exec, so the JVM replaces this shell and gets
# its signals directly.
#
# Environment:
#   MS_ROLE       the role to start (required)
#   PS_JAR_DIR    folder holding the three *-exec.jar files (default: each module's target/)
#   JAVA_OPTS     JVM options; defaults per role (below) apply only when it is unset
#   JAVA_EXTRA_OPTS  JVM options added after JAVA_OPTS or the role's defaults
#   JAVA_HOME     use $JAVA_HOME/bin/java instead of java from PATH
#   OMP_NUM_THREADS  native BLAS threads; defaults to 1 for workers (several share the cores)
#   OMP_WAIT_POLICY  defaults to PASSIVE for servers (idle OpenMP threads sleep instead of spinning)
#   PS_DRY_RUN=1  print the command instead of running it
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

readonly ACCEPTED="MS_SCHED, MS_PSERVER, MS_WORKER (or scheduler, server, worker)"
readonly JAVACPP_OPTS="-Dorg.bytedeco.javacpp.maxbytes=2g -Dorg.bytedeco.javacpp.maxphysicalbytes=3g"

if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
fi

if ! role="$(ps_normalize_role "${MS_ROLE:-}")"; then
    if [[ -z "${MS_ROLE:-}" ]]; then
        echo "ps-launch: MS_ROLE is not set; accepted values: $ACCEPTED" >&2
    else
        echo "ps-launch: MS_ROLE='$MS_ROLE' is not a role; accepted values: $ACCEPTED" >&2
    fi
    exit 2
fi

if ! jar="$(ps_find_jar "$role")"; then
    echo "ps-launch: no $role jar found (looked for $(ps_jar_glob "$role"))." >&2
    if [[ -n "${PS_JAR_DIR:-}" ]]; then
        echo "ps-launch: PS_JAR_DIR=$PS_JAR_DIR must hold the $role-service-<version>-exec.jar." >&2
    else
        echo "ps-launch: build it with: (cd $PS_REPO_ROOT && ./mvnw -q -DskipTests package)" >&2
    fi
    exit 1
fi

case "$role" in
    scheduler)
        : "${JAVA_OPTS=-Xmx256m}"
        ;;
    server)
        : "${JAVA_OPTS=-Xmx768m $JAVACPP_OPTS}"
        export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-PASSIVE}"
        ;;
    worker)
        : "${JAVA_OPTS=-Xmx1g $JAVACPP_OPTS}"
        export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
        ;;
esac

java_bin="java"
if [[ -n "${JAVA_HOME:-}" ]]; then
    java_bin="$JAVA_HOME/bin/java"
fi
command -v "$java_bin" >/dev/null 2>&1 || { echo "ps-launch: $java_bin not found; install JDK 17+ or set JAVA_HOME" >&2; exit 1; }

# JAVA_OPTS is a space-separated list of options, split here on purpose.
read -r -a java_opts <<<"$JAVA_OPTS ${JAVA_EXTRA_OPTS:-}"
cmd=("$java_bin" "${java_opts[@]}" -jar "$jar" "$@")

if [[ "${PS_DRY_RUN:-0}" == "1" ]]; then
    printf 'ps-launch: MS_ROLE=%s MS_SERVER_NUM=%s MS_WORKER_NUM=%s MS_SCHED_HOST=%s MS_SCHED_PORT=%s OMP_NUM_THREADS=%s\n' \
        "$MS_ROLE" "${MS_SERVER_NUM:-}" "${MS_WORKER_NUM:-}" "${MS_SCHED_HOST:-}" "${MS_SCHED_PORT:-}" "${OMP_NUM_THREADS:-}"
    printf 'ps-launch: exec'
    printf ' %q' "${cmd[@]}"
    printf '\n'
    exit 0
fi
exec "${cmd[@]}"
