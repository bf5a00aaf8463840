#!/usr/bin/env bash
# Reproduces every figure of docs/benchmarks.md in one run:
#   1. engine benchmarks (eval_bench, engine_bench) and the service hot path
#      (service_bench: token sizes, seal/open, encode/decode, ApplyAction steps);
#   2. the evaluator against OMPEval side by side (when its source is present);
#   3. stud_server against the do-nothing baseline (loadgen_echo_server) with
#      stud_loadgen, for ApplyAction, NewHand, LegalActions and ResolveShowdown
#      (by token and stateless): closed loop, then open loop at half load;
#   4. an h2load cross-check of ApplyAction on the server side;
#   5. ApplyAction and NewHand through nginx in front of two replicas, against
#      echo servers behind the same nginx (tools/bench/lb_bench.sh).
# Output: stdout, plus $OUT (default $BUILD_DIR/bench-results) with one file per step.
#
#   BUILD_DIR   build directory (default build-perf), configured in Release
#   DURATION    seconds per load phase (default 10; 4 phases per RPC)
#   CONCURRENCY closed-loop calls in flight (default 32), CHANNELS connections (default 4)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
BUILD_DIR="${BUILD_DIR:-build-perf}"
DURATION="${DURATION:-10}"
CONCURRENCY="${CONCURRENCY:-32}"
CHANNELS="${CHANNELS:-4}"
OUT="${OUT:-$BUILD_DIR/bench-results}"
mkdir -p "$OUT"

echo "== machine"
{ nproc; grep -m1 "model name" /proc/cpuinfo; free -g | sed -n 2p; uptime; g++ --version | head -1; } | tee "$OUT/machine.txt"

cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j2 --target eval_bench engine_bench service_bench stud_server \
  loadgen_echo_server stud_loadgen >/dev/null

echo "== engine and service benchmarks"
for b in tests/eval_bench tests/engine_bench tests/service/service_bench; do
  name=$(basename "$b")
  "$BUILD_DIR/$b" --benchmark_min_time=1 --benchmark_out="$OUT/$name.json" \
    --benchmark_out_format=json | tee "$OUT/$name.txt"
done

echo "== evaluator vs OMPEval"
if [ -e "${OMPEVAL_GIT:-$root/../OMPEval}" ]; then
  tools/bench/compare_ompeval.sh | tee "$OUT/ompeval.txt"
else
  echo "OMPEval source not present: skipped (set OMPEVAL_GIT)" | tee "$OUT/ompeval.txt"
fi

echo "== service vs do-nothing baseline"
# shellcheck source=tools/loopback_servers.sh
. tools/loopback_servers.sh
start server "$BUILD_DIR/service/stud_server"; server_addr=$addr server_pid=$pid
start echo "$BUILD_DIR/tools/loadgen/loadgen_echo_server"; echo_addr=$addr echo_pid=$pid
: > "$OUT/loadgen.txt"
for rpc in apply_action new_hand legal_actions showdown_token showdown_stateless; do
  "$BUILD_DIR/tools/loadgen/stud_loadgen" --target="$server_addr" --server_pid="$server_pid" \
    --baseline_target="$echo_addr" --baseline_pid="$echo_pid" --rpc="$rpc" \
    --duration="$DURATION" --concurrency="$CONCURRENCY" --channels="$CHANNELS" | tee -a "$OUT/loadgen.txt"
done
echo "server peak resident memory: $(grep VmHWM /proc/"$server_pid"/status)" | tee -a "$OUT/loadgen.txt"

echo "== h2load cross-check (ApplyAction, server side)"
if command -v h2load >/dev/null; then
  "$BUILD_DIR/tools/loadgen/stud_loadgen" --target="$server_addr" --rpc=apply_action --pool=1 \
    --dump_request="$tmp/apply.grpcmsg"
  h2load -D "$DURATION" -c "$CHANNELS" -m $((CONCURRENCY / CHANNELS)) -d "$tmp/apply.grpcmsg" \
    -H 'content-type: application/grpc' -H 'te: trailers' \
    "http://$server_addr/stud.v1.StudService/ApplyAction" | tee "$OUT/h2load.txt"
else
  echo "h2load missing (apt-get install nghttp2-client): skipped" | tee "$OUT/h2load.txt"
fi
echo "== through the load balancer"
if command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; then
  BUILD_DIR="$BUILD_DIR" DURATION="$DURATION" OUT="$OUT" tools/bench/lb_bench.sh apply_action new_hand
else
  echo "nginx missing: skipped" | tee "$OUT/lb.txt"
fi
echo "results in $OUT"
