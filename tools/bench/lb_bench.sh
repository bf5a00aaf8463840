#!/usr/bin/env bash
# The service through the load balancer of the deployment (nginx grpc_pass,
# round robin per call) against the do-nothing baseline through the SAME
# nginx: REPLICAS stud_server replicas sharing one key ring behind one nginx
# listener, REPLICAS loadgen_echo_server instances behind a second listener of
# the same nginx process, and stud_loadgen driving both with twin requests of
# identical sizes (closed loop, then open loop at half load). Every process
# listens on loopback, on ports the kernel picks; everything stops on exit.
#
#   tools/bench/lb_bench.sh [rpc ...]     default: apply_action new_hand
#   BUILD_DIR   Release build directory (default build-perf)
#   REPLICAS    replicas behind each listener (default 2)
#   DURATION    seconds per load phase (default 10), CONCURRENCY (32), CHANNELS (4)
#   OUT         results directory (default $BUILD_DIR/bench-results)
#   AFFINITY=1  nginx hashes the x-stud-hand-id metadata (deploy/local-stack.sh
#               --hand-affinity); with LOADGEN_FLAGS="--chain=8 --hand_header"
#               each hand's runs reach one replica
#   LOADGEN_FLAGS  more stud_loadgen flags for the service (split into words)
# After each rpc it prints the replicas' hand-cache lookups (hits, misses,
# from their /metrics) and CPU seconds from the end of the load generator's
# pool building (warm-up, closed and open loop), and for ApplyAction the
# replicas' CPU per call.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
BUILD_DIR="${BUILD_DIR:-build-perf}"
REPLICAS="${REPLICAS:-2}"
DURATION="${DURATION:-10}"
CONCURRENCY="${CONCURRENCY:-32}"
CHANNELS="${CHANNELS:-4}"
OUT="${OUT:-$BUILD_DIR/bench-results}"
AFFINITY="${AFFINITY:-0}"
LOADGEN_FLAGS="${LOADGEN_FLAGS:-}"
rpcs=("$@")
[ ${#rpcs[@]} -gt 0 ] || rpcs=(apply_action new_hand)
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
[ -x "$NGINX" ] || { echo "nginx missing (tools/install-deps.sh installs it)" >&2; exit 2; }
mkdir -p "$OUT"

cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j2 --target stud_server loadgen_echo_server stud_loadgen >/dev/null

# shellcheck source=tools/loopback_servers.sh
. tools/loopback_servers.sh

(umask 077; printf '1:%s\n' "$(head -c32 /dev/urandom | od -An -tx1 | tr -d ' \n')" >"$tmp/keys")
stud_upstreams="" echo_upstreams="" stud_pids=() metrics_addrs=()
[ "$AFFINITY" = 1 ] && stud_upstreams+="    hash \$http_x_stud_hand_id consistent;"$'\n'
for i in $(seq 1 "$REPLICAS"); do
  start "stud$i" "$BUILD_DIR/service/stud_server" --key_file "$tmp/keys" --metrics_listen 127.0.0.1:0
  stud_upstreams+="    server $addr max_fails=0;"$'\n'
  stud_pids+=("$pid")
  metrics_addrs+=("$(grep -o '"event":"metrics_listening","address":"[^"]*"' "$tmp/stud$i.err" | sed 's/.*"address":"//; s/"$//')")
  start "echo$i" "$BUILD_DIR/tools/loadgen/loadgen_echo_server"
  echo_upstreams+="    server $addr max_fails=0;"$'\n'
done

read -r stud_port echo_port < <(/usr/bin/python3 -c '
import socket
a, b = socket.socket(), socket.socket()
a.bind(("127.0.0.1", 0)); b.bind(("127.0.0.1", 0))
print(a.getsockname()[1], b.getsockname()[1])')
# The same proxy settings as deploy/local-stack.sh, one listener per upstream group.
mkdir -p "$tmp/nginx"
cat >"$tmp/nginx/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $tmp/nginx/body; proxy_temp_path $tmp/nginx/proxy;
  fastcgi_temp_path $tmp/nginx/fastcgi; uwsgi_temp_path $tmp/nginx/uwsgi; scgi_temp_path $tmp/nginx/scgi;
  # nginx proxies one call per upstream connection (no multiplexing towards
  # the replicas): keep enough idle connections that a burst of calls does
  # not open new ones (keepalive 32, as in deploy/local-stack.sh, collapsed
  # under open-loop load here).
  upstream stud { ${stud_upstreams}    keepalive 256; }
  upstream echo { ${echo_upstreams}    keepalive 256; }
  server {
    listen 127.0.0.1:$stud_port http2;
    keepalive_requests 1000000;
    location / { grpc_pass grpc://stud; grpc_next_upstream error timeout non_idempotent; }
  }
  server {
    listen 127.0.0.1:$echo_port http2;
    keepalive_requests 1000000;
    location / { grpc_pass grpc://echo; grpc_next_upstream error timeout non_idempotent; }
  }
}
EOF
"$NGINX" -c "$tmp/nginx/nginx.conf" -p "$tmp/nginx/" -e "$tmp/nginx/error.log" &
pids+=("$!")
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$echo_port") 2>/dev/null && break; sleep 0.1; done
nginx_pid=$(pgrep -P "$!" nginx | head -1)  # the worker, which does the proxying

# "server" CPU and memory in the output are nginx's worker's (the same process for both).
echo "== through nginx (1 worker) to $REPLICAS replicas; baseline: $REPLICAS echo servers behind the same nginx" |
  tee "$OUT/lb.txt"
# The replicas' CPU seconds (user + system) together.
replicas_cpu() {
  local total=0 p
  for p in "${stud_pids[@]}"; do
    total=$((total + $(awk '{print $14 + $15}' "/proc/$p/stat")))
  done
  echo "$total"
}
# Hand-cache lookups of one result (hit or miss), summed over the replicas.
lookups() {
  local total=0 a
  for a in "${metrics_addrs[@]}"; do
    total=$((total + $(curl -s "http://$a/metrics" |
      awk -v r="$1" '$1 ~ "^stud_hand_cache_lookups_total" && $1 ~ "result=\""r"\"" {s += $2} END {printf "%d", s}')))
  done
  echo "$total"
}
ticks=$(getconf CLK_TCK)  # /proc/PID/stat counts CPU time in these
echo "# balancing: $([ "$AFFINITY" = 1 ] && echo "hash of x-stud-hand-id" || echo "round robin"); service flags: ${LOADGEN_FLAGS:-none}" |
  tee -a "$OUT/lb.txt"
for rpc in "${rpcs[@]}"; do
  # shellcheck disable=SC2086 # LOADGEN_FLAGS is split into words on purpose
  "$BUILD_DIR/tools/loadgen/stud_loadgen" --target="127.0.0.1:$stud_port" \
    --server_pid="$nginx_pid" --baseline_target="127.0.0.1:$echo_port" --baseline_pid="$nginx_pid" --rpc="$rpc" --duration="$DURATION" \
    --concurrency="$CONCURRENCY" --channels="$CHANNELS" $LOADGEN_FLAGS >"$tmp/loadgen.out" &
  loadgen=$!
  # The counts start once the pool is built (its line is printed then).
  until grep -q "distinct requests" "$tmp/loadgen.out" || ! kill -0 "$loadgen" 2>/dev/null; do sleep 0.05; done
  cpu0=$(replicas_cpu) hit0=$(lookups hit) miss0=$(lookups miss)
  wait "$loadgen"
  cpu=$(($(replicas_cpu) - cpu0)) hit=$(($(lookups hit) - hit0)) miss=$(($(lookups miss) - miss0))
  tee -a "$OUT/lb.txt" <"$tmp/loadgen.out"
  # With --rpc=apply_action every call looks up its hand once: lookups are calls.
  awk -v c="$cpu" -v t="$ticks" -v h="$hit" -v m="$miss" -v rpc="$rpc" 'BEGIN {
    n = h + m
    printf "# %s, after the pool was built: replicas hand cache %d hits, %d misses (%.1f%% hits); replicas CPU %.2f s", rpc, h, m, n ? 100 * h / n : 0, c / t
    if (rpc == "apply_action" && n) printf ", %.1f us per call", 1e6 * c / t / n
    printf "\n" }' | tee -a "$OUT/lb.txt"
done
