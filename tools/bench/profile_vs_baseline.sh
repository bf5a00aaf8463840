#!/usr/bin/env bash
# Where the server's CPU goes under load, the service beside its do-nothing
# twin: for each RPC shape, a fresh stud_server and a fresh loadgen_echo_server
# (same request and response sizes) each get stud_loadgen's closed loop (32 in
# flight, 4 connections) while `perf record` samples the server for PERF_SECONDS;
# the table gives each component's CPU per call in microseconds (the server's
# CPU over the calls answered, split by the samples' shares), for both servers.
# Components: the kernel, gRPC (libgrpc, libgrpc++, libgpr), the server's own
# code, libc (malloc/free, memcpy), protobuf, libgcrypt (token AEAD), Abseil,
# the rest. The service's own code and libraries run cold under load (gRPC, the
# kernel and the load generator share the two cores and their caches), so it
# costs more per call than the same code in process (service_bench).
#   BUILD_DIR=build SHAPES="apply_action:full apply_action:changes new_hand:full" \
#   CALIBRATE="--work_us=6,--touch_kb=64" PERF_SECONDS=4 tools/bench/profile_vs_baseline.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
BUILD_DIR="${BUILD_DIR:-build-perf}"
SHAPES="${SHAPES:-apply_action:full apply_action:changes new_hand:full}"
PERF_SECONDS="${PERF_SECONDS:-4}"
command -v perf >/dev/null || { echo "perf missing (Debian: linux-perf)" >&2; exit 2; }
cmake --build "$BUILD_DIR" -j2 --target stud_server loadgen_echo_server stud_loadgen >/dev/null
# shellcheck source=tools/loopback_servers.sh
. tools/loopback_servers.sh

# The server's CPU per call (µs) from a RESULT line, then perf's shares by DSO
# folded into components: "component µs" lines.
components() {
  local result="$1" data="$2"
  local qps cpu
  qps=$(sed -n 's/.* qps=\([0-9.]*\).*/\1/p' <<<"$result")
  cpu=$(sed -n 's/.* server_cpu=\([0-9.]*\).*/\1/p' <<<"$result")
  perf report -i "$data" --no-children --sort dso --stdio -g none 2>/dev/null |
    awk -v per_call="$(awk -v c="$cpu" -v q="$qps" 'BEGIN { print c / q * 1e6 }')" '
      /^ +[0-9.]+%/ {
        share = $1; sub("%", "", share); dso = $2
        if (dso ~ /kernel/) k = "kernel"
        else if (dso ~ /^libgrpc|^libgpr|^libaddress_sorting|^libupb|^libre2/) k = "grpc"
        else if (dso ~ /^libc\.so|^ld-linux|^libstdc/) k = "libc"
        else if (dso ~ /^libprotobuf/) k = "protobuf"
        else if (dso ~ /^libgcrypt|^libsodium/) k = "crypto"
        else if (dso ~ /^libabsl/) k = "absl"
        else if (dso ~ /^stud_server|^loadgen_echo_server/) k = "own code"
        else k = "other"
        us[k] += share / 100 * per_call
      }
      END { printf "total %.1f\n", per_call; for (k in us) printf "%s %.1f\n", k, us[k] }'
}

measure() {  # NAME TARGET PID RPC DETAIL [echo sizes]: RESULT line and components
  local name="$1" target="$2" server_pid="$3" rpc="$4" detail="$5"; shift 5
  "$BUILD_DIR/tools/loadgen/stud_loadgen" --target="$target" --server_pid="$server_pid" \
    --rpc="$rpc" --detail="$detail" --duration=$((PERF_SECONDS + 4)) --concurrency=32 \
    --channels=4 "$@" >"$tmp/$name.result" &
  local lg=$!
  sleep 2
  perf record -q -o "$tmp/$name.data" -F 2000 -p "$server_pid" -- sleep "$PERF_SECONDS" \
    >/dev/null 2>&1
  wait "$lg"
  components "$(grep '^RESULT' "$tmp/$name.result")" "$tmp/$name.data" >"$tmp/$name.us"
}

table() {  # TITLE: the two servers' components side by side
  echo "== $1: server CPU per call under closed-loop load, µs"
  printf "%-10s %9s %9s %9s\n" component service baseline extra
  for k in total kernel grpc "own code" libc protobuf crypto absl other; do
    s=$(awk -v k="$k" '{ n = $NF; $NF = ""; sub(/ $/, ""); if ($0 == k) print n }' "$tmp/service.us")
    b=$(awk -v k="$k" '{ n = $NF; $NF = ""; sub(/ $/, ""); if ($0 == k) print n }' "$tmp/baseline.us")
    printf "%-10s %9.1f %9.1f %+9.1f\n" "$k" "${s:-0}" "${b:-0}" \
      "$(awk -v s="${s:-0}" -v b="${b:-0}" 'BEGIN { print s - b }')"
  done
  grep -h '^RESULT' "$tmp/service.result" "$tmp/baseline.result" | cut -d' ' -f2-5
}

sizes=""
for shape in $SHAPES; do
  rpc="${shape%%:*}" detail="${shape##*:}"
  start "stud" "$BUILD_DIR/service/stud_server" --metrics_listen=
  measure service "$addr" "$pid" "$rpc" "$detail"
  sizes=$(sed -n 's/.* req_bytes=\([0-9]*\) resp_bytes=\([0-9]*\).*/--echo_request_bytes=\1 --echo_response_bytes=\2/p' "$tmp/service.result")
  kill "$pid"
  start "echo" "$BUILD_DIR/tools/loadgen/loadgen_echo_server"
  # shellcheck disable=SC2086
  measure baseline "$addr" "$pid" echo full $sizes
  kill "$pid"
  table "$rpc (detail $detail)"
done

# CALIBRATE: echo servers given loadgen_echo_server flags (entries separated by
# commas, e.g. "--work_us=3,--touch_kb=64"), against the plain echo server, at
# the last shape's sizes: what a handler of a known cost does to the rest.
IFS=, read -r -a calibrations <<<"${CALIBRATE:-}"
for flags in "${calibrations[@]}"; do
  # shellcheck disable=SC2086
  start "spin" "$BUILD_DIR/tools/loadgen/loadgen_echo_server" $flags
  # shellcheck disable=SC2086
  measure service "$addr" "$pid" echo full ${sizes:---echo_request_bytes=866 --echo_response_bytes=935}
  kill "$pid"
  start "echo" "$BUILD_DIR/tools/loadgen/loadgen_echo_server"
  # shellcheck disable=SC2086
  measure baseline "$addr" "$pid" echo full ${sizes:---echo_request_bytes=866 --echo_response_bytes=935}
  kill "$pid"
  table "echo server with $flags"
done
