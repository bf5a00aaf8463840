#!/usr/bin/env bash
# The service against the do-nothing baseline, same load generator, same run:
# RUNS rounds (default 3), each with fresh servers, of every RPC shape in
# SHAPES (default: ApplyAction full, ApplyAction with UPDATE_DETAIL_CHANGES,
# NewHand). Each stud_loadgen call measures the service then its echo twin
# (same request and response sizes), closed loop then open loop at half the
# service's throughput, and prints the ratios (docs/benchmarks.md).
# CALIBRATE (default "3 6 16") then measures, in the same run, echo servers
# whose handler spins that many microseconds of CPU against the do-nothing one
# (ApplyAction's request and response sizes): what a handler of a given cost
# allows on this machine, whatever it does.
# LOADGEN_FLAGS: more stud_loadgen flags for the service's calls (e.g.
# "--chain=8 --pool=512": each call on the token the one before was answered
# with, so the server finds the hand it kept).
#   BUILD_DIR=build DURATION=5 RUNS=3 tools/bench/service_ratio.sh [extra stud_server flags]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
BUILD_DIR="${BUILD_DIR:-build-perf}"
DURATION="${DURATION:-5}"
RUNS="${RUNS:-3}"
SHAPES="${SHAPES:-apply_action:full apply_action:changes new_hand:full}"
cmake --build "$BUILD_DIR" -j2 --target stud_server loadgen_echo_server stud_loadgen >/dev/null
# shellcheck source=tools/loopback_servers.sh
. tools/loopback_servers.sh
for run in $(seq "$RUNS"); do
  for shape in $SHAPES; do
    rpc="${shape%%:*}" detail="${shape##*:}"
    start "server$run$rpc$detail" "$BUILD_DIR/service/stud_server" --metrics_listen= "$@"
    server_addr=$addr server_pid=$pid
    start "echo$run$rpc$detail" "$BUILD_DIR/tools/loadgen/loadgen_echo_server"
    echo "== run $run: $rpc (detail $detail)"
    # shellcheck disable=SC2086 # LOADGEN_FLAGS: words on purpose
    "$BUILD_DIR/tools/loadgen/stud_loadgen" --target="$server_addr" --server_pid="$server_pid" \
      --baseline_target="$addr" --baseline_pid="$pid" --rpc="$rpc" --detail="$detail" \
      --duration="$DURATION" --concurrency=32 --channels=4 ${LOADGEN_FLAGS:-}
    kill "$server_pid" "$pid"; wait "$server_pid" "$pid" 2>/dev/null || true
  done
  for work in ${CALIBRATE-3 6 16}; do
    start "spin$run$work" "$BUILD_DIR/tools/loadgen/loadgen_echo_server" --work_us="$work"
    spin_addr=$addr spin_pid=$pid
    start "echo$run$work" "$BUILD_DIR/tools/loadgen/loadgen_echo_server"
    echo "== run $run: echo with a ${work} us handler"
    "$BUILD_DIR/tools/loadgen/stud_loadgen" --target="$spin_addr" --server_pid="$spin_pid" \
      --baseline_target="$addr" --baseline_pid="$pid" --rpc=echo --echo_request_bytes=866 \
      --echo_response_bytes=935 --duration="$DURATION" --concurrency=32 --channels=4
    kill "$spin_pid" "$pid"; wait "$spin_pid" "$pid" 2>/dev/null || true
  done
done
