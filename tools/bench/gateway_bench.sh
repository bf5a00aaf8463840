#!/usr/bin/env bash
# The web gateway (stud_web) against direct gRPC, on one ApplyAction request (a
# real mid-hand token: stud_loadgen's first pool request; the service is
# stateless, so the same request can be sent again and again): through the
# gateway in every protocol (Connect JSON, Connect binary, gRPC-Web, gRPC) over
# HTTP/1.1 and cleartext HTTP/2, measured with h2load, and straight to
# stud_server with h2load and stud_loadgen (which also calls through the
# gateway over gRPC). Latency rows run one call at a time (one connection, one
# call in flight); throughput rows run CONNS connections with one call in
# flight each, and stud_loadgen 32 calls in flight over 4 connections. Every
# process listens on loopback port 0 and stops on exit; every run lasts
# DURATION seconds after one second of warm-up.
#
#   tools/bench/gateway_bench.sh
#   BUILD_DIR   build directory with stud_server and stud_loadgen (default build)
#   DURATION    seconds per run (default 5)
#   CONNS       connections of the throughput rows (default 16)
#   WORKERS     stud_web --workers (default: the gateway's default, one per core)
#   GATEWAY     the gateway bundle (default web/dist/gateway.mjs; npm run build in web/)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
BUILD_DIR="${BUILD_DIR:-build}"
DURATION="${DURATION:-5}"
CONNS="${CONNS:-16}"
GATEWAY="${GATEWAY:-web/dist/gateway.mjs}"
command -v h2load >/dev/null || { echo "h2load missing (apt-get install nghttp2-client)" >&2; exit 2; }
[ -f "$GATEWAY" ] || { echo "$GATEWAY missing: npm install && npm run build in web/" >&2; exit 2; }
for bin in service/stud_server tools/loadgen/stud_loadgen; do
  [ -x "$BUILD_DIR/$bin" ] || { echo "$BUILD_DIR/$bin missing: cmake --build $BUILD_DIR --target stud_server stud_loadgen" >&2; exit 2; }
done

# shellcheck source=tools/loopback_servers.sh
. tools/loopback_servers.sh

(umask 077; printf '3:%s\n' "$(head -c32 /dev/urandom | od -An -tx1 | tr -d ' \n')" >"$tmp/keys")
start stud "$BUILD_DIR/service/stud_server" --key_file "$tmp/keys" --metrics_listen ""
server="$addr"
workers=()
[ -z "${WORKERS:-}" ] || workers=("--workers=$WORKERS")
node "$GATEWAY" --listen=127.0.0.1:0 --upstream="$server" "${workers[@]}" >"$tmp/web.out" 2>"$tmp/web.err" &
pids+=("$!")
for _ in $(seq 200); do grep -q "listening on" "$tmp/web.out" && break; sleep 0.05; done
gateway=$(sed -n 's/^stud_web listening on \(http:\/\/[^ ]*\).*/\1/p' "$tmp/web.out")
[ -n "$gateway" ] || { echo "stud_web did not start"; cat "$tmp/web.err"; exit 1; }

# The request: a gRPC frame (gRPC, gRPC-Web), the bare message (Connect
# binary) and its proto3 JSON (Connect JSON).
"$BUILD_DIR/tools/loadgen/stud_loadgen" --target="$server" --rpc=apply_action --pool=1 \
  --dump_request="$tmp/apply.grpcmsg" >/dev/null
tail -c +6 "$tmp/apply.grpcmsg" >"$tmp/apply.bin"
(cd web && node --input-type=module -e '
  import fs from "node:fs";
  import { fromBinary, toJsonString } from "@bufbuild/protobuf";
  import { ApplyActionRequestSchema } from "./gen/stud/v1/stud_pb.js";
  const m = fromBinary(ApplyActionRequestSchema, fs.readFileSync(process.argv[1]));
  fs.writeFileSync(process.argv[2], toJsonString(ApplyActionRequestSchema, m));
' "$tmp/apply.bin" "$tmp/apply.json")

path=/stud.v1.StudService/ApplyAction
rows=()
# h2load_row LABEL CONNECTIONS HTTP(h1|h2) BASE_URL BODY CONTENT_TYPE [more h2load args]
h2load_row() {
  local label="$1" conns="$2" http="$3" base="$4" body="$5" type="$6"; shift 6
  local h1=()
  [ "$http" = h2 ] || h1=(--h1)
  nice -n 0 h2load -D "$DURATION" --warm-up-time=1 -c "$conns" -m 1 "${h1[@]}" -d "$body" \
    -H "content-type: $type" "$@" "$base$path" >"$tmp/h2load.out" 2>&1 || true
  local rps mean ok failed
  rps=$(sed -n 's/^finished in .*, \([0-9.]*\) req\/s.*/\1/p' "$tmp/h2load.out")
  mean=$(awk '/^time for request:/ {print $6}' "$tmp/h2load.out")
  ok=$(sed -n 's/^requests: .* \([0-9]*\) succeeded.*/\1/p' "$tmp/h2load.out")
  failed=$(sed -n 's/^requests: .* \([0-9]*\) failed.*/\1/p' "$tmp/h2load.out")
  rows+=("$(printf '%-26s %-6s %5s %10s %10s %9s %7s' "$label" "$http" "$conns" "${rps:-?}" "${mean:-?}" "${ok:-?}" "${failed:-?}")")
}

echo "# stud_server $server, stud_web $gateway ($(nproc) cores), ${DURATION} s per run"
for conns in 1 "$CONNS"; do
  for http in h1 h2; do
    h2load_row "Connect JSON" "$conns" "$http" "$gateway" "$tmp/apply.json" application/json
    h2load_row "Connect binary" "$conns" "$http" "$gateway" "$tmp/apply.bin" application/proto
    h2load_row "gRPC-Web" "$conns" "$http" "$gateway" "$tmp/apply.grpcmsg" application/grpc-web+proto
  done
  h2load_row "gRPC via gateway" "$conns" h2 "$gateway" "$tmp/apply.grpcmsg" application/grpc -H "te: trailers"
  h2load_row "gRPC direct (h2load)" "$conns" h2 "http://$server" "$tmp/apply.grpcmsg" application/grpc -H "te: trailers"
done

# stud_loadgen: gRPC direct and through the gateway, 1 and 32 calls in flight
# (its mean column is the p50, its last the p99).
loadgen_row() {
  local label="$1" target="$2" conc="$3" channels="$4"
  "$BUILD_DIR/tools/loadgen/stud_loadgen" --target="$target" --rpc=apply_action --pool=64 --concurrency="$conc" \
    --channels="$channels" --duration="$DURATION" --warmup=1 >"$tmp/loadgen.out" 2>&1 || true
  local result qps p50 p99
  result=$(grep '^RESULT' "$tmp/loadgen.out" | head -1 || true)
  qps=$(sed -n 's/.* qps=\([0-9.]*\).*/\1/p' <<<"$result")
  p50=$(sed -n 's/.* p50_us=\([0-9.]*\).*/\1/p' <<<"$result")
  p99=$(sed -n 's/.* p99_us=\([0-9.]*\).*/\1/p' <<<"$result")
  rows+=("$(printf '%-26s %-6s %5s %10s %10s %9s %7s' "$label" h2 "$conc" "${qps:-?}" "p50 ${p50:-?}us" "p99" "${p99:-?}us")")
}
loadgen_row "gRPC direct (loadgen)" "$server" 1 1
loadgen_row "gRPC direct (loadgen)" "$server" 32 4
loadgen_row "gRPC via gateway (loadgen)" "${gateway#http://}" 1 1
loadgen_row "gRPC via gateway (loadgen)" "${gateway#http://}" 32 4

printf '%-26s %-6s %5s %10s %10s %9s %7s\n' protocol http conc "req/s" "mean" ok failed
printf '%s\n' "${rows[@]}"
