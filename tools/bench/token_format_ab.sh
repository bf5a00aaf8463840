#!/usr/bin/env bash
# Two stud_server configurations against each other in the same run (for
# example token formats: B_FLAGS=--token_format=1 against the default; or two
# builds: A_BIN, B_BIN): every
# round starts both servers fresh and measures each in closed loop (32 calls in
# flight, 4 connections) with the same load generator, the order swapped every
# round so that neither always runs first; the summary gives each round's
# throughput and server CPU per call, and A's throughput over B's.
# PIN=1 runs both servers on core 0 and the load generator on core 1, so the
# throughput ratio is the ratio of the servers' CPU cost per call.
#   B_FLAGS="--token_format=1" SHAPES="apply_action:changes apply_action:full new_hand:full" \
#   BUILD_DIR=build DURATION=5 RUNS=6 PIN=1 tools/bench/token_format_ab.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
BUILD_DIR="${BUILD_DIR:-build-perf}"
DURATION="${DURATION:-5}"
RUNS="${RUNS:-6}"
SHAPES="${SHAPES:-apply_action:changes apply_action:full new_hand:full}"
A_FLAGS="${A_FLAGS-}"
B_FLAGS="${B_FLAGS---token_format=1}"
# A_BIN / B_BIN: two different stud_server binaries (two builds) instead of one.
A_BIN="${A_BIN:-$BUILD_DIR/service/stud_server}"
B_BIN="${B_BIN:-$BUILD_DIR/service/stud_server}"
server_cpu="" client_cpu=""
if [ "${PIN:-0}" = 1 ]; then server_cpu="taskset -c 0" client_cpu="taskset -c 1"; fi
cmake --build "$BUILD_DIR" -j2 --target stud_server stud_loadgen >/dev/null
# shellcheck source=tools/loopback_servers.sh
. tools/loopback_servers.sh
for run in $(seq "$RUNS"); do
  for shape in $SHAPES; do
    rpc="${shape%%:*}" detail="${shape##*:}"
    # shellcheck disable=SC2086
    start "a$run$rpc$detail" $server_cpu "$A_BIN" --metrics_listen= $A_FLAGS
    a_addr=$addr a_pid=$pid
    # shellcheck disable=SC2086
    start "b$run$rpc$detail" $server_cpu "$B_BIN" --metrics_listen= $B_FLAGS
    b_addr=$addr b_pid=$pid
    order="A B"
    if [ $((run % 2)) = 0 ]; then order="B A"; fi
    for side in $order; do
      if [ "$side" = A ]; then target=$a_addr target_pid=$a_pid; else target=$b_addr target_pid=$b_pid; fi
      # shellcheck disable=SC2086
      $client_cpu "$BUILD_DIR/tools/loadgen/stud_loadgen" --target="$target" --server_pid="$target_pid" \
        --rpc="$rpc" --detail="$detail" --duration="$DURATION" --concurrency=32 --channels=4 \
        | sed -n "s/^RESULT /$run $rpc:$detail $side /p" >>"$tmp/results"
    done
    kill "$a_pid" "$b_pid"; wait "$a_pid" "$b_pid" 2>/dev/null || true
  done
done

echo "A: '${A_FLAGS}'   B: '${B_FLAGS}'   (PIN=${PIN:-0}, ${DURATION} s per measurement)"
printf "%-4s %-22s %10s %10s %9s %9s %8s\n" run shape "A req/s" "B req/s" "A us/req" "B us/req" A/B
awk '{
  qps = cpu = ""
  for (i = 4; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "qps") qps = kv[2]; if (kv[1] == "server_cpu") cpu = kv[2] }
  key = $1 " " $2; q[key, $3] = qps; u[key, $3] = cpu / qps * 1e6; keys[key] = 1
} END {
  for (k in keys) { split(k, p, " ")
    printf "%-4s %-22s %10.0f %10.0f %9.1f %9.1f %8.3f\n", p[1], p[2], q[k, "A"], q[k, "B"], u[k, "A"], u[k, "B"], q[k, "A"] / q[k, "B"] }
}' "$tmp/results" | sort -k2,2 -k1,1n
