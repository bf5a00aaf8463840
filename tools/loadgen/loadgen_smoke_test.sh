#!/usr/bin/env bash
# Smoke test of the load generator: starts stud_server and the echo baseline
# on 127.0.0.1 (port 0), drives every RPC kind for a fraction of a second and
# ApplyAction against the baseline (closed loop, then open loop at half load),
# plays whole hands (--rpc=play_hands), and passes when the load generator exits 0 (every call succeeded). No timing
# assertions. Usage: loadgen_smoke_test.sh <stud_server> <loadgen_echo_server> <stud_loadgen>
set -euo pipefail
server_bin=$1 echo_bin=$2 loadgen=$3
# shellcheck source=../loopback_servers.sh
. "$(dirname "$0")/../loopback_servers.sh"
start server "$server_bin"; server_addr=$addr server_pid=$pid
start echo "$echo_bin"; echo_addr=$addr echo_pid=$pid

common=(--target="$server_addr" --server_pid="$server_pid" --warmup=0.2 --channels=2 --concurrency=8 --pool=8)
"$loadgen" "${common[@]}" --rpc=apply_action --duration=0.4 \
  --baseline_target="$echo_addr" --baseline_pid="$echo_pid"
# --half_load=false (tools/bench/service_series.sh's sweep): the closed-loop pair alone.
out=$("$loadgen" "${common[@]}" --rpc=apply_action --detail=changes --duration=0.2 \
  --baseline_target="$echo_addr" --baseline_pid="$echo_pid" --half_load=false)
grep -q '^RATIO .*mode=closed' <<<"$out" || { echo "no closed-loop ratio: $out"; exit 1; }
if grep -q 'mode=half_load' <<<"$out"; then echo "--half_load=false ran half load: $out"; exit 1; fi
for rpc in new_hand legal_actions showdown_stateless showdown_token; do
  "$loadgen" "${common[@]}" --rpc="$rpc" --duration=0.2
done
"$loadgen" "${common[@]}" --rpc=legal_actions --mode=open --rate=200 --duration=0.2
# Runs of 3 actions of one hand per slot (--chain): every call succeeds (that
# each finds its hand kept is docs/benchmarks.md's hit count, 7 in 8 for runs of 8).
"$loadgen" "${common[@]}" --rpc=apply_action --pool=24 --chain=3 --duration=0.3
if "$loadgen" "${common[@]}" --rpc=apply_action --pool=8 --chain=3 --duration=0.1 2>/dev/null; then
  echo "--chain with fewer runs than call slots was accepted"; exit 1
fi
# --hand_header: the runs' calls carry x-stud-hand-id (a load balancer's hint; the
# server ignores it); refused without --chain.
"$loadgen" "${common[@]}" --rpc=apply_action --pool=24 --chain=3 --hand_header --duration=0.2
if "$loadgen" "${common[@]}" --rpc=apply_action --hand_header --duration=0.1 2>/dev/null; then
  echo "--hand_header without --chain was accepted"; exit 1
fi
# Whole hands (--rpc=play_hands): every call succeeds and hands are played to
# their end; refused in the open loop and with a baseline.
out=$("$loadgen" "${common[@]}" --rpc=play_hands --hand_header --duration=0.5)
grep -q '^HANDS .*hands=[1-9]' <<<"$out" || { echo "play_hands finished no hand: $out"; exit 1; }
for flags in "--mode=open --rate=100" "--baseline_target=$echo_addr"; do
  # shellcheck disable=SC2086 # two flags in one word
  if "$loadgen" "${common[@]}" --rpc=play_hands $flags --duration=0.1 2>/dev/null; then
    echo "--rpc=play_hands with $flags was accepted"; exit 1
  fi
done
# The baseline on the completion-queue API (--async_threads) answers every call,
# and stops on SIGTERM.
start echo_async "$echo_bin" --async_threads=2
"$loadgen" "${common[@]}" --target="$addr" --server_pid="$pid" --rpc=echo --duration=0.3
kill "$pid"
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
if kill -0 "$pid" 2>/dev/null; then echo "loadgen_echo_server --async_threads did not stop"; exit 1; fi
echo "loadgen smoke: all calls succeeded"
