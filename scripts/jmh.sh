#!/usr/bin/env bash
# JMH micro-benchmarks of the data path's pieces (module benchmarks, built only with -Pbench).
#   scripts/jmh.sh                          every benchmark
#   scripts/jmh.sh OptimizerKernelBenchmark one class (any JMH arguments work, e.g. -p type=ADAM)
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -Pbench -pl benchmarks -am install -DskipTests
./mvnw -q -Pbench -pl benchmarks dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
exec java -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" org.openjdk.jmh.Main "$@"
