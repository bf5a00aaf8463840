#!/usr/bin/env bash
# Overload and soak of the real stud_server with tools/loadgen (docs/reliability.md).
#
#   overload_soak_test.sh <stud_server> <stud_loadgen> [overload|soak|all]
#
# overload: a server with --max_in_flight=32 --workers=1. Its capacity is
#   measured (closed loop, 16 in flight); then 256 calls are kept in flight
#   (8x the limit) for OVERLOAD_SECONDS (default 5). Passes when the excess is
#   shed with RESOURCE_EXHAUSTED and nothing else fails (no deadline, no
#   UNAVAILABLE), accepted calls keep flowing, resident memory stays below
#   start + 64 MB, and afterwards the same server answers a closed-loop run
#   below the limit with zero errors (recovery).
# soak: steady open-loop load at SOAK_RATE calls/s (default 2000, well below
#   capacity) for SOAK_SECONDS (default 15; `long` mode by hand: 120) on a
#   server with default flags. Passes with zero errors, and resident memory at
#   the end within 32 MB of the memory after the first 20 % of the run.
# Both print "OVERLOAD ..." / "SOAK ..." lines with the figures, and stop by
# themselves (every phase has a duration and every call a deadline).
set -euo pipefail
server_bin=$1 loadgen=$2 what=${3:-all}
# shellcheck source=../../tools/loopback_servers.sh
. "$(dirname "$0")/../../tools/loopback_servers.sh"
start_server() {  # start_server <name> <flags...>: sets $addr and $pid
  local name=$1
  shift
  start "$name" "$server_bin" --metrics_listen= "$@"
}
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2" | tail -1; }
# One loadgen phase; prints its RESULT line (loadgen exits 1 when a call failed).
run() { "$loadgen" --target="$addr" --server_pid="$pid" --rpc=apply_action --pool=64 --seed=7 "$@" 2>&1 \
          | grep '^RESULT' || true; }

overload() {
  start_server overload --max_in_flight=32 --workers=1
  local rss0 base over after rss_peak=0
  run --duration=1 --warmup=0.3 --concurrency=8 --channels=2 >/dev/null  # warm up
  rss0=$(rss_kb "$pid")
  base=$(run --duration=2 --warmup=0.3 --concurrency=16 --channels=2)
  ( while kill -0 "$pid" 2>/dev/null; do rss_kb "$pid"; sleep 0.2; done >"$tmp/rss" ) &
  local sampler=$!
  over=$(run --duration="${OVERLOAD_SECONDS:-5}" --warmup=0.3 --concurrency=256 --channels=4 --timeout_ms=5000)
  kill "$sampler" 2>/dev/null || true
  wait "$sampler" 2>/dev/null || true
  rss_peak=$(sort -n "$tmp/rss" | tail -1)
  after=$(run --duration=2 --warmup=0.3 --concurrency=16 --channels=2)
  echo "capacity:  $base"
  echo "overload:  $over"
  echo "recovery:  $after"
  local codes shed ok
  codes=$(field error_codes "$over")
  shed=$(sed -n 's/.*\b8:\([0-9]*\).*/\1/p' <<<"$codes")
  ok=$(field ok "$over")
  echo "OVERLOAD capacity_qps=$(field qps "$base") limit=32 in_flight=256 ok=$ok shed=${shed:-0}" \
       "accepted_qps=$(field qps "$over") p99_accepted_us=$(field p99_us "$over") error_codes=$codes" \
       "rss_start_kb=$rss0 rss_peak_kb=$rss_peak recovery_qps=$(field qps "$after")" \
       "recovery_errors=$(field errors "$after")"
  [ -n "$shed" ] && [ "$shed" -gt 0 ] || { echo "FAIL: nothing was shed"; exit 1; }
  [ "$codes" = "8:$shed" ] || { echo "FAIL: errors other than RESOURCE_EXHAUSTED: $codes"; exit 1; }
  [ "$ok" -gt 1000 ] || { echo "FAIL: accepted calls stopped flowing ($ok)"; exit 1; }
  [ "$rss_peak" -lt $((rss0 + 65536)) ] || { echo "FAIL: memory grew from $rss0 to $rss_peak kB"; exit 1; }
  [ "$(field errors "$after")" = 0 ] || { echo "FAIL: no recovery: $after"; exit 1; }
  [ "$(field ok "$after")" -gt 1000 ] || { echo "FAIL: no recovery: $after"; exit 1; }
  grep -q '"max_in_flight":32' "$tmp/overload.err" || { echo "FAIL: start-up line lacks max_in_flight"; exit 1; }
}

soak() {
  start_server soak
  local seconds=${SOAK_SECONDS:-15} rate=${SOAK_RATE:-2000}
  run --duration=1 --warmup=0.3 --concurrency=8 --channels=2 >/dev/null  # warm up: pools, arenas
  local rss0 rss_warm rss_end
  rss0=$(rss_kb "$pid")
  ( sleep "$(awk -v s="$seconds" 'BEGIN {print s * 0.2}')"; rss_kb "$pid" >"$tmp/rss_warm" ) &
  local sampler=$!
  local res
  res=$(run --mode=open --rate="$rate" --duration="$seconds" --warmup=0 --channels=4 --timeout_ms=2000)
  wait "$sampler" 2>/dev/null || true
  rss_warm=$(cat "$tmp/rss_warm")
  rss_end=$(rss_kb "$pid")
  echo "soak:      $res"
  echo "SOAK seconds=$seconds rate=$rate ok=$(field ok "$res") errors=$(field errors "$res")" \
       "p50_us=$(field p50_us "$res") p99_us=$(field p99_us "$res") late=$(field late "$res")" \
       "rss_start_kb=$rss0 rss_at_20pct_kb=$rss_warm rss_end_kb=$rss_end"
  [ "$(field errors "$res")" = 0 ] || { echo "FAIL: errors during the soak"; exit 1; }
  local expected=$((seconds * rate * 9 / 10))
  [ "$(field ok "$res")" -ge "$expected" ] || { echo "FAIL: fewer than 90 % of the calls completed"; exit 1; }
  [ "$rss_end" -lt $((rss_warm + 32768)) ] || { echo "FAIL: memory grew from $rss_warm to $rss_end kB"; exit 1; }
}

case "$what" in
  overload) overload ;;
  soak) soak ;;
  long) SOAK_SECONDS=${SOAK_SECONDS:-120} OVERLOAD_SECONDS=${OVERLOAD_SECONDS:-30}; overload; soak ;;
  all) overload; soak ;;
  *) echo "usage: $0 <stud_server> <stud_loadgen> [overload|soak|all|long]"; exit 2 ;;
esac
