#!/usr/bin/env bash
# WatchHand under load (docs/benchmarks.md, "WatchHand"): a redis-server on a
# free loopback port (append-only, as docs/ledger.md recommends), two
# stud_server replicas with --ledger on it and one key ring, and
# stud_watch_loadgen playing HANDS hands on replica A at RATE actions per
# second for DURATION seconds while WATCHERS_PER_HAND streams per hand watch
# them on replica B. Prints the load generator's RESULT line (commit-to-watcher
# latency bounds, p50/p99), RSS line (replica B's memory per 1,000 streams,
# idle and under load) and each replica's CPU seconds (CPU line), once per
# WATCHERS_PER_HAND value in PER_HAND.
#
#   tools/bench/watch_bench.sh
#   BUILD_DIR (default build), DURATION (10), RATE (1000), HANDS (125), SEATS (4),
#   PER_HAND ("8 40": 1,000 and 5,000 streams with 125 hands), SKIP_BUILD (set: use
#   the binaries as built), SERVER_FLAGS (more stud_server flags for both replicas,
#   e.g. "--hand_cache=0")
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
BUILD_DIR="${BUILD_DIR:-build}"
DURATION="${DURATION:-10}"
RATE="${RATE:-1000}"
HANDS="${HANDS:-125}"
SEATS="${SEATS:-4}"
PER_HAND="${PER_HAND:-8 40}"
REDIS="$(command -v redis-server || echo /usr/bin/redis-server)"
[ -x "$REDIS" ] || { echo "redis-server missing (tools/install-deps.sh installs it)" >&2; exit 2; }

[ -n "${SKIP_BUILD:-}" ] || cmake --build "$BUILD_DIR" -j2 --target stud_server stud_watch_loadgen >/dev/null

# shellcheck source=tools/loopback_servers.sh
. tools/loopback_servers.sh

redis_port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$REDIS" --port "$redis_port" --bind 127.0.0.1 --dir "$tmp" --appendonly yes --save '' --daemonize no \
  --logfile "$tmp/redis.log" &
pids+=("$!")
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$redis_port") 2>/dev/null && break; sleep 0.1; done
(umask 077; printf '1:%s\n' "$(head -c32 /dev/urandom | od -An -tx1 | tr -d ' \n')" >"$tmp/keys")

for per_hand in $PER_HAND; do
  # shellcheck disable=SC2206 # SERVER_FLAGS: words on purpose
  common=(--key_file "$tmp/keys" --metrics_listen '' --ledger "redis://127.0.0.1:$redis_port"
          --max_watchers 100000 ${SERVER_FLAGS:-})
  start "a$per_hand" "$BUILD_DIR/service/stud_server" "${common[@]}"
  a_addr=$addr a_pid=$pid
  start "b$per_hand" "$BUILD_DIR/service/stud_server" "${common[@]}"
  b_addr=$addr b_pid=$pid
  echo "# $HANDS hands x $per_hand streams, $RATE actions/s for ${DURATION}s" >&2
  timeout $((${DURATION%.*} + 120)) "$BUILD_DIR/tools/loadgen/stud_watch_loadgen" \
    --writer "$a_addr" --watcher "$b_addr" --watcher_pid "$b_pid" --hands "$HANDS" --seats "$SEATS" \
    --watchers_per_hand "$per_hand" --rate "$RATE" --duration "$DURATION" 2>"$tmp/loadgen.err"
  sort "$tmp/loadgen.err" | uniq -c | sort -rn | head -5 >&2  # refused streams and calls, if any
  # Each replica's CPU seconds (user + system) since it started: A answers the
  # actions, B builds and sends every stream's messages.
  cpu() { awk -v t="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / t }' "/proc/$1/stat"; }
  echo "CPU replica_a_s=$(cpu "$a_pid") replica_b_s=$(cpu "$b_pid")"
  kill "$a_pid" "$b_pid"
  wait "$a_pid" "$b_pid" 2>/dev/null || true
done
