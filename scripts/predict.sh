#!/usr/bin/env bash
# Classifies a data set with a model jvm-ps exported (model.sd + model.json) and prints the accuracy.
#
# Usage: scripts/predict.sh --model=run/model [--data=MNIST|CSV] [--data-path=DIR] [--data-file=FILE]
#                           [--output=FILE] [...]   (--help lists every option)
#
# Runs the worker jar's `predict` command, which loads the file with SameDiff alone. The data format,
# the CSV layout and the graph's variable names default to what model.json says.
#
# Environment:
#   PS_JAR_DIR   folder holding worker-service-<version>-exec.jar (default: worker-service/target)
#   JAVA_HOME    use $JAVA_HOME/bin/java instead of java from PATH
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

if [[ "${1:-}" == "-h" ]]; then
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
fi
jar="$(ps_find_jar worker)" || ps_die "no worker jar found (looked for $(ps_jar_glob worker)); build with ./mvnw -q -DskipTests package"
java_bin="java"
[[ -z "${JAVA_HOME:-}" ]] || java_bin="$JAVA_HOME/bin/java"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
exec "$java_bin" -Dorg.bytedeco.javacpp.maxbytes=2g -Dorg.bytedeco.javacpp.maxphysicalbytes=3g -jar "$jar" predict "$@"
