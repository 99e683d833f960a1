#!/bin/bash
# Container health check: exits 0 when GET http://127.0.0.1:$PS_HTTP_PORT<path> answers 200.
#   ps-healthcheck [path]     (default /actuator/health/readiness)
# Plain bash (/dev/tcp), so it works on any base image with bash, curl or not.
path=${1:-/actuator/health/readiness}
port=${PS_HTTP_PORT:-8080}
exec 3<>"/dev/tcp/127.0.0.1/$port" 2>/dev/null || { echo "nothing listens on port $port"; exit 1; }
printf 'GET %s HTTP/1.0\r\nHost: localhost\r\nConnection: close\r\n\r\n' "$path" >&3
IFS= read -r -t 3 status <&3 || { echo "no answer from $path on port $port"; exit 1; }
body=$(timeout 2 cat <&3 | tail -c 300)
echo "${status%$'\r'} ${body##*$'\n'}"
[[ $status == HTTP/1.?" 200"* ]]
