#!/usr/bin/env bash
# Where a latency tail is made: one stud_server (metrics on) under stud_loadgen's
# open loop at RATE calls/s, then the load generator's percentiles beside the
# server's own histogram of its handlers' time (stud_rpc_duration_seconds:
# request parsed to status), as the share of calls within each bucket. A tail
# the handlers do not have is made outside them (gRPC's threads, the load
# generator, the cores they share); docs/benchmarks.md.
#
#   BUILD_DIR=build RUNS=3 tools/bench/handler_tail.sh
#   BUILD_DIR (default build-perf), RATE (15000), DURATION (4), RUNS (1), RPC (apply_action),
#   LOADGEN_FLAGS (default "--chain=8 --pool=512": each call on the token the one before was
#   answered with)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
BUILD_DIR="${BUILD_DIR:-build-perf}"
RPC="${RPC:-apply_action}"
cmake --build "$BUILD_DIR" -j2 --target stud_server stud_loadgen >/dev/null
# shellcheck source=tools/loopback_servers.sh
. tools/loopback_servers.sh
method=$(sed -E 's/(^|_)([a-z])/\U\2/g' <<<"$RPC")  # apply_action -> ApplyAction
for run in $(seq "${RUNS:-1}"); do
  start "server$run" "$BUILD_DIR/service/stud_server" --metrics_listen 127.0.0.1:0
  port=$(sed -n 's/.*"event":"metrics_listening".*"port":\([0-9]*\).*/\1/p' "$tmp/server$run.err" | head -1)
  echo "== run $run: $RPC, open loop at ${RATE:-15000} calls/s"
  # shellcheck disable=SC2086 # LOADGEN_FLAGS: words on purpose
  "$BUILD_DIR/tools/loadgen/stud_loadgen" --target="$addr" --server_pid="$pid" --rpc="$RPC" \
    --mode=open --rate="${RATE:-15000}" --duration="${DURATION:-4}" --concurrency=32 --channels=4 \
    ${LOADGEN_FLAGS---chain=8 --pool=512} | grep '^RESULT'
  /usr/bin/python3 - "$port" "$method" <<'PY'
import sys, urllib.request
port, method = sys.argv[1], sys.argv[2]
text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
buckets = {}
for line in text.splitlines():
    if line.startswith("stud_rpc_duration_seconds_bucket{") and f'method="{method}"' in line:
        le = line.split('le="')[1].split('"')[0]
        buckets[le] = buckets.get(le, 0) + float(line.split()[-1])
total = buckets.get("+Inf", 0)
if total == 0:
    sys.exit(f"no {method} calls in stud_rpc_duration_seconds")
shown = [f"{float(le) * 1e6:.0f}us {100 * n / total:.3f}%" for le, n in buckets.items()
         if le != "+Inf" and 0.00005 <= float(le) <= 0.005]
print(f"HANDLERS method={method} calls={total:.0f} within: " + ", ".join(shown))
PY
  kill "$pid"; wait "$pid" 2>/dev/null || true
done
