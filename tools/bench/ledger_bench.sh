#!/usr/bin/env bash
# ApplyAction with the hand ledger on (one Redis round trip per call) against
# the same server with it off: a redis-server on a free loopback port
# (append-only, as recommended in docs/ledger.md), one stud_server with
# --ledger and one without, and stud_loadgen's closed loop on each, RUNS times
# alternately. Prints each run's RESULT lines and the ratio of throughputs.
# The ledger's own round trip (mean, from stud_ledger_call_duration_seconds)
# closes the output. The ledger-on runs also measure the do-nothing baseline
# (loadgen_echo_server, same request and response sizes) and print its RATIO
# line, the figure docs/benchmarks.md compares with the target.
# Every call the load generator repeats on a pool token is the exact retry of
# the call that produced the hand's latest token (docs/ledger.md): the same
# single script call (EVALSHA) as a first apply, but Redis answers it with a
# read. PLAY=1 measures hands played as a table plays them instead
# (stud_loadgen --rpc=play_hands --hand_header): every NewHand and action is a
# first call, so the ledger-on server's every call is a real write (SET NX and
# ZADD for a deal; XADD, SET and EXPIRE for an action). That mode has no
# baseline and no light-load phase (its calls are made as it plays).
#
#   tools/bench/ledger_bench.sh
#   BUILD_DIR (default build-perf), DURATION (5), CONCURRENCY (32), CHANNELS (4), RUNS (3),
#   RATE (1000: the open-loop phase at light load that ends the run), PLAY (0; 1: whole hands),
#   DETAIL (full; changes: PLAY's actions ask for UPDATE_DETAIL_CHANGES),
#   ON_FLAGS (more flags for the ledger-on server, e.g. "--max_in_flight 256 --workers 16")
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
BUILD_DIR="${BUILD_DIR:-build-perf}"
DURATION="${DURATION:-5}"
CONCURRENCY="${CONCURRENCY:-32}"
CHANNELS="${CHANNELS:-4}"
RUNS="${RUNS:-3}"
REDIS="$(command -v redis-server || echo /usr/bin/redis-server)"
[ -x "$REDIS" ] || { echo "redis-server missing (tools/install-deps.sh installs it)" >&2; exit 2; }

cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j2 --target stud_server stud_loadgen loadgen_echo_server >/dev/null

# shellcheck source=tools/loopback_servers.sh
. tools/loopback_servers.sh

redis_port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$REDIS" --port "$redis_port" --bind 127.0.0.1 --dir "$tmp" --appendonly yes --save '' --daemonize no \
  --logfile "$tmp/redis.log" &
redis_pid=$!
pids+=("$redis_pid")
redis_cpu() {  # redis-server's CPU seconds so far (user + system)
  awk -v t="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / t }' "/proc/$redis_pid/stat"
}
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$redis_port") 2>/dev/null && break; sleep 0.1; done

(umask 077; printf '1:%s\n' "$(head -c32 /dev/urandom | od -An -tx1 | tr -d ' \n')" >"$tmp/keys")
start off "$BUILD_DIR/service/stud_server" --key_file "$tmp/keys" --metrics_listen ''
off_addr=$addr off_pid=$pid
start on "$BUILD_DIR/service/stud_server" --key_file "$tmp/keys" --metrics_listen 127.0.0.1:0 \
  --ledger "redis://127.0.0.1:$redis_port" ${ON_FLAGS:-}
on_addr=$addr on_pid=$pid
on_metrics=$(sed -n 's/.*"event":"metrics_listening".*"port":\([0-9]*\).*/\1/p' "$tmp/on.err" | head -1)
ledger_calls() {  # the ledger-on server's ledger calls so far (stud_ledger_calls_total, every op)
  /usr/bin/python3 - "$on_metrics" <<'PY'
import sys, urllib.request
text = urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=5).read().decode()
print(int(sum(float(l.split()[-1]) for l in text.splitlines() if l.startswith("stud_ledger_calls_total{"))))
PY
}
start echo "$BUILD_DIR/tools/loadgen/loadgen_echo_server"
echo_addr=$addr echo_pid=$pid

if [ "${PLAY:-0}" = 1 ]; then
  load=(--rpc=play_hands --hand_header --detail="${DETAIL:-full}")
else
  load=(--rpc=apply_action)
fi
run() {  # label addr pid [baseline flags] -> qps
  "$BUILD_DIR/tools/loadgen/stud_loadgen" --target="$2" --server_pid="$3" "${load[@]}" \
    --duration="$DURATION" --concurrency="$CONCURRENCY" --channels="$CHANNELS" "${@:4}" >"$tmp/$1.txt"
  grep '^RESULT\|^RATIO\|^HANDS' "$tmp/$1.txt" |
    sed "s/^RESULT/RESULT ledger=$1/; s/^RATIO/RATIO ledger=$1/; s/^HANDS/HANDS ledger=$1/" >&2
  sed -n 's/^RESULT .* qps=\([0-9.]*\) .*/\1/p' "$tmp/$1.txt" | head -1
}
for i in $(seq 1 "$RUNS"); do
  off=$(run off "$off_addr" "$off_pid")
  before=$(redis_cpu) calls_before=$(ledger_calls)
  redis-cli -p "$redis_port" config resetstat >/dev/null
  if [ "${PLAY:-0}" = 1 ]; then
    on=$(run on "$on_addr" "$on_pid")
  else
    on=$(run on "$on_addr" "$on_pid" --baseline_target="$echo_addr" --baseline_pid="$echo_pid")
  fi
  after=$(redis_cpu) calls_after=$(ledger_calls)
  # Redis's CPU and the ledger calls both cover the whole ledger-on phase, warm-up included
  # (and the baseline phase, which sends Redis nothing).
  awk -v i="$i" -v on="$on" -v off="$off" -v b="$before" -v a="$after" -v n="$((calls_after - calls_before))" \
    'BEGIN { cpu = a - b; printf "run %d: ledger on %.0f req/s, off %.0f req/s, ratio %.2f; redis-server %.1f us CPU per ledger call (%d calls)\n",
             i, on, off, on / off, cpu * 1e6 / n, n }'
  # Inside Redis: the commit script (EVALSHA) and the commands it runs, per call.
  redis-cli -p "$redis_port" info commandstats |
    sed -n 's/^cmdstat_\([a-z]*\):calls=\([0-9]*\),usec=[0-9]*,usec_per_call=\([0-9.]*\).*/\1 \2 \3/p' |
    awk '{ printf "%s%s %s us (%d)", (NR > 1 ? ", " : "redis inside: "), $1, $3, $2 } END { print "" }'
done
# Light load (open loop, RATE calls/s): the added latency per call.
[ "${PLAY:-0}" = 1 ] || for label in off on; do
  if [ "$label" = off ]; then a=$off_addr p=$off_pid; else a=$on_addr p=$on_pid; fi
  "$BUILD_DIR/tools/loadgen/stud_loadgen" --target="$a" --server_pid="$p" --rpc=apply_action --mode=open \
    --rate="${RATE:-1000}" --duration="$DURATION" --concurrency="$CONCURRENCY" --channels="$CHANNELS" |
    grep '^RESULT' | sed "s/^RESULT/RESULT ledger=$label/"
done
/usr/bin/python3 - "$on_metrics" <<'PY'
import sys, urllib.request
text = urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=5).read().decode()
v = {}
for line in text.splitlines():
    if line.startswith('stud_ledger_call_duration_seconds_') and 'op="advance"' in line and '_bucket' not in line:
        v[line.split('{')[0]] = float(line.split()[-1])
n, s = v["stud_ledger_call_duration_seconds_count"], v["stud_ledger_call_duration_seconds_sum"]
print(f"ledger advance calls: {n:.0f}, mean round trip {1e6 * s / n:.0f} us (under the load above)")
PY
