# One image per role, built from the jars `./mvnw -DskipTests package` leaves in each module's target/:
#
#   docker build --target scheduler -t jvm-ps/scheduler .    (or: docker compose build)
#
# The jars are built on the host, not in the image, so an image build needs no Maven and no network.
ARG JRE_IMAGE=eclipse-temurin:17-jre

FROM ${JRE_IMAGE} AS base
# A fixed non-root user; nd4j unpacks its native libraries (~400 MB) under ~/.javacpp, which
# docker-compose.yml mounts as a volume so that the unpacking happens once, not on every start.
RUN groupadd --system --gid 10001 ps \
 && useradd --system --uid 10001 --gid ps --home-dir /home/ps --create-home --shell /usr/sbin/nologin ps \
 && mkdir -p /app /data /checkpoints /models /secrets /state /home/ps/.javacpp/cache \
 && chown -R ps:ps /app /checkpoints /models /secrets /state /home/ps
COPY docker/healthcheck.sh /usr/local/bin/ps-healthcheck
WORKDIR /app
USER ps
# Every service listens for HTTP (Actuator, REST) on 8080 inside its container.
# Without PS_SECURITY_SECRET, the first node to start generates the cluster secret into
# /secrets/cluster-secret (a volume all nodes share in docker-compose.yml) and the others read it.
ENV PS_HTTP_PORT=8080 \
    PS_SECURITY_SECRETFILE=/secrets/cluster-secret \
    JAVA_OPTS="-XX:MaxRAMPercentage=40 -XX:+ExitOnOutOfMemoryError"
EXPOSE 8080
HEALTHCHECK --interval=5s --timeout=4s --start-period=120s --retries=3 CMD ["ps-healthcheck"]
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -jar /app/app.jar \"$@\"", "jvm-ps"]

# Each role runs its executable jar unpacked (Spring Boot's jarmode=tools extract: app.jar plus lib/):
# plain jars on the class path start in about half the CPU of the nested ones (a server alone: 3.8 s
# instead of 8.2 s on a 2-core machine), and a node is healthy that much sooner after a restart.
FROM ${JRE_IMAGE} AS unpack
WORKDIR /unpack
COPY scheduler-service/target/scheduler-service-*-exec.jar scheduler.jar
COPY server-service/target/server-service-*-exec.jar server.jar
COPY worker-service/target/worker-service-*-exec.jar worker.jar
RUN for role in scheduler server worker; do \
      java -Djarmode=tools -jar $role.jar extract --destination /out/$role --application-filename app.jar || exit 1; \
    done

FROM base AS scheduler
# The job's state (ranks, data leases, finished partitions, results) is kept in /state, so a restarted
# scheduler goes on with the job; mount a volume there.
ENV MS_SCHED_PORT=8080 \
    PS_SCHEDULER_STATEDIR=/state
VOLUME ["/state"]
COPY --from=unpack --chown=ps:ps /out/scheduler/ /app/

FROM base AS server
# RSocket (workers push and pull here) on 7000. OpenMP threads sleep instead of spinning after an nd4j
# call: spinning took 45% of a server's CPU from the event loops beside it (docs/benchmarks.md).
ENV PS_SERVER_HTTP_PORT=8080 \
    PS_SERVER_RSOCKET_PORT=7000 \
    OMP_WAIT_POLICY=PASSIVE
EXPOSE 7000
VOLUME ["/checkpoints"]
COPY --from=unpack --chown=ps:ps /out/server/ /app/

FROM base AS worker
# RSocket on 7001 for the ring AllReduce among workers (hybrid placement). One BLAS thread per
# worker: several workers sharing the cores ran each step ~2.4x slower with nd4j's default.
ENV PS_WORKER_HTTP_PORT=8080 \
    PS_WORKER_RSOCKET_PORT=7001 \
    PS_WORKER_DATASET_PATH=/data/mnist \
    OMP_NUM_THREADS=1
EXPOSE 7001
COPY --from=unpack --chown=ps:ps /out/worker/ /app/
