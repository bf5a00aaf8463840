#!/usr/bin/env bash
# The web gateway (stud_web) against direct gRPC, on one ApplyAction request (a
# real mid-hand token: stud_loadgen's first pool request; the service is
# stateless, so the same request can be sent again and again): through the
# gateway in every protocol (Connect JSON, Connect binary, gRPC-Web, gRPC) over
# HTTP/1.1 and cleartext HTTP/2, measured with h2load, and straight to
# stud_server with h2load and stud_loadgen (which also calls through the
# gateway over gRPC). Beside them, the same server's own Connect listener
# (--connect_listen, HTTP/1.1 only): Connect JSON and binary over HTTP/1.1
# straight to it, and over h2c through nginx ("via nginx": a browser speaks
# HTTP/2 to the TLS-terminating Ingress, which proxies over HTTP/1.1
# keep-alive connections; one nginx worker). Latency rows run one call at a
# time (one connection, one call in flight); throughput rows run CONNS
# connections with one call in flight each (and Connect JSON over h2c at 4
# connections x 8 streams), and stud_loadgen 32 calls in flight over 4
# connections.
#
# ROUNDS rounds, each running every row once, direct and gateway rows
# interleaved (a direct run before the gateway's throughput runs and one
# after), so a machine whose load changes shifts both alike; the table gives
# each row's median over the rounds and its range. Beside each gateway row, the
# gateway's CPU per call (every gateway process's user + system time over the
# run, warm-up included, divided by the calls made in it), and on every row
# stud_server's CPU per call, the same way (for the listener's rows that is
# the whole call; nginx's CPU is counted nowhere). Then the two targets, for
# the gateway and for the listener: Connect JSON over HTTP/1.1 at CONNS
# connections over direct gRPC at 32 in flight (stud_loadgen), per round; and
# each protocol's mean at one call at a time minus direct h2load's in the
# same round. Last, the memory of one gateway process (--workers=1) holding
# MEMORY_CONNS open HTTP/2 connections, each having made one call: VmRSS after
# minus before, per 1,000.
#
# Every process listens on a loopback port the kernel picks (nginx: one picked
# just before it starts) and stops on exit; every run lasts
# DURATION seconds after one second of warm-up.
#
#   tools/bench/gateway_bench.sh
#   BUILD_DIR     build directory with stud_server and stud_loadgen (default build)
#   DURATION      seconds per run (default 5)
#   ROUNDS        rounds (default 3)
#   CONNS         connections of the throughput rows (default 16)
#   WORKERS       stud_web --workers (default: the gateway's default, one per core)
#   GATEWAY       the gateway bundle (default web/dist/gateway.mjs; npm run build in web/)
#   CSV           also write every run here (round,path,http,conns,req_s,mean_us,gateway_cpu_us_per_call,server_cpu_us_per_call)
#   SUMMARY_CSV   also write the medians here (the input of tools/bench/plot_gateway.sh)
#   MEMORY_CONNS  HTTP/2 connections of the memory figure (default 1000; 0 skips it)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
BUILD_DIR="${BUILD_DIR:-build}"
DURATION="${DURATION:-5}"
ROUNDS="${ROUNDS:-3}"
CONNS="${CONNS:-16}"
GATEWAY="${GATEWAY:-web/dist/gateway.mjs}"
MEMORY_CONNS="${MEMORY_CONNS:-1000}"
command -v h2load >/dev/null || { echo "h2load missing (apt-get install nghttp2-client)" >&2; exit 2; }
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
[ -x "$NGINX" ] || { echo "nginx missing (tools/install-deps.sh installs it)" >&2; exit 2; }
[ -f "$GATEWAY" ] || { echo "$GATEWAY missing: npm install && npm run build in web/" >&2; exit 2; }
for bin in service/stud_server tools/loadgen/stud_loadgen; do
  [ -x "$BUILD_DIR/$bin" ] || { echo "$BUILD_DIR/$bin missing: cmake --build $BUILD_DIR --target stud_server stud_loadgen" >&2; exit 2; }
done

# shellcheck source=tools/loopback_servers.sh
. tools/loopback_servers.sh

(umask 077; printf '3:%s\n' "$(head -c32 /dev/urandom | od -An -tx1 | tr -d ' \n')" >"$tmp/keys")
start stud "$BUILD_DIR/service/stud_server" --key_file "$tmp/keys" --metrics_listen "" \
  --connect_listen 127.0.0.1:0
server="$addr" server_pid="$pid"
# The listener's port, from its {"event":"connect_listening",...,"port":N} log line.
connect_port=""
for _ in $(seq 100); do
  connect_port=$(sed -n 's/.*"event":"connect_listening".*"port":\([0-9]*\).*/\1/p' "$tmp/stud.err" | head -1)
  [ -z "$connect_port" ] || break
  sleep 0.05
done
[ -n "$connect_port" ] || { echo "stud_server logged no connect_listening"; cat "$tmp/stud.err"; exit 1; }
listener="http://127.0.0.1:$connect_port"

# nginx in front of the listener: h2c (prior knowledge) to callers, HTTP/1.1
# keep-alive to the listener, as an Ingress proxies (one worker).
nginx_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$tmp/nginx"
cat >"$tmp/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $tmp/nginx/body; proxy_temp_path $tmp/nginx/proxy;
  fastcgi_temp_path $tmp/nginx/fastcgi; uwsgi_temp_path $tmp/nginx/uwsgi; scgi_temp_path $tmp/nginx/scgi;
  upstream connect { server 127.0.0.1:$connect_port; keepalive 32; keepalive_requests 1000000; }
  server {
    listen 127.0.0.1:$nginx_port http2;
    keepalive_requests 1000000;
    location / { proxy_pass http://connect; proxy_http_version 1.1; proxy_set_header Connection ""; }
  }
}
CONF
"$NGINX" -c "$tmp/nginx/nginx.conf" -p "$tmp/nginx/" -e "$tmp/nginx/error.log" &
pids+=("$!")
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$nginx_port") 2>/dev/null && break; sleep 0.1; done
via_nginx="http://127.0.0.1:$nginx_port"

# start_gateway OUT_PREFIX [ARGS...]: sets $gateway (http://host:port) and $gateway_pid.
start_gateway() {
  local out="$1"; shift
  node "$GATEWAY" --listen=127.0.0.1:0 --upstream="$server" "$@" >"$out.out" 2>"$out.err" &
  gateway_pid=$!
  pids+=("$gateway_pid")
  gateway=""
  for _ in $(seq 400); do grep -q "listening on" "$out.out" && break; sleep 0.05; done
  gateway=$(sed -n 's/^stud_web listening on \(http:\/\/[^ ]*\).*/\1/p' "$out.out")
  [ -n "$gateway" ] || { echo "stud_web did not start"; cat "$out.err"; exit 1; }
}
workers=()
[ -z "${WORKERS:-}" ] || workers=("--workers=$WORKERS")
start_gateway "$tmp/web" "${workers[@]}"
main_pid="$gateway_pid"

# CPU time (clock ticks) of stud_server; of the gateway (its process and its workers).
server_ticks() { awk '{print $14 + $15}' "/proc/$server_pid/stat"; }
gateway_ticks() {
  local total=0 p
  for p in "$main_pid" $(pgrep -P "$main_pid" || true); do
    [ -r "/proc/$p/stat" ] || continue
    total=$((total + $(awk '{print $14 + $15}' "/proc/$p/stat")))
  done
  echo "$total"
}
hz=$(getconf CLK_TCK)

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
runs="$tmp/runs.csv"
echo "round,path,http,conns,req_s,mean_us,gateway_cpu_us_per_call,server_cpu_us_per_call" >"$runs"
round=0

# per_call TICKS REQ_S: microseconds of CPU per call over a run, warm-up included.
per_call() {
  [ -n "$2" ] || return 0
  awk -v t="$1" -v hz="$hz" -v r="$2" -v d="$DURATION" \
    'BEGIN { calls = r * (d + 1); if (calls > 0) printf "%.0f", t / hz * 1e6 / calls }'
}

# record PATH HTTP CONNS REQ_S MEAN_US GATEWAY_TICKS_BEFORE (empty: not through
# the gateway) SERVER_TICKS_BEFORE
record() {
  local cpu="" server_cpu
  [ -z "$6" ] || cpu=$(per_call $(($(gateway_ticks) - $6)) "$4")
  server_cpu=$(per_call $(($(server_ticks) - $7)) "$4")
  echo "$round,$1,$2,$3,$4,$5,$cpu,$server_cpu" >>"$runs"
}

# h2load_row LABEL CONNECTIONS HTTP(h1|h2) BASE_URL BODY CONTENT_TYPE [more h2load args]
# CONNECTIONS: N (one call in flight on each), or NxM (M streams on each, h2).
h2load_row() {
  local label="$1" conns="$2" http="$3" base="$4" body="$5" type="$6"; shift 6
  local h1=() ticks="" sticks
  [ "$http" = h2 ] || h1=(--h1)
  [ "$base" != "$gw" ] || ticks=$(gateway_ticks)
  sticks=$(server_ticks)
  local c="${conns%x*}" m=1
  [ "$c" = "$conns" ] || m="${conns#*x}"
  h2load -D "$DURATION" --warm-up-time=1 -c "$c" -m "$m" "${h1[@]}" -d "$body" \
    -H "content-type: $type" "$@" "$base$path" >"$tmp/h2load.out" 2>&1 || true
  local rps mean failed
  rps=$(sed -n 's/^finished in .*, \([0-9.]*\) req\/s.*/\1/p' "$tmp/h2load.out")
  mean=$(awk '/^time for request:/ { v = $6; if (v ~ /us$/) v += 0; else if (v ~ /ms$/) v *= 1000; else v *= 1e6; print v }' "$tmp/h2load.out")
  failed=$(sed -n 's/^requests: .* \([0-9]*\) failed.*/\1/p' "$tmp/h2load.out")
  [ "${failed:-1}" = 0 ] || { echo "$label $http: ${failed:-?} failed calls" >&2; sed -n '/^requests:/,/^status codes:/p' "$tmp/h2load.out" >&2; }
  record "$label" "$http" "$conns" "${rps:-}" "${mean:-}" "$ticks" "$sticks"
}

# stud_loadgen: gRPC, its p50 in the mean column.
loadgen_row() {
  local label="$1" target="$2" conc="$3" channels="$4" ticks="" sticks
  [ "$target" = "$server" ] || ticks=$(gateway_ticks)
  sticks=$(server_ticks)
  "$BUILD_DIR/tools/loadgen/stud_loadgen" --target="$target" --rpc=apply_action --pool=64 --concurrency="$conc" \
    --channels="$channels" --duration="$DURATION" --warmup=1 >"$tmp/loadgen.out" 2>&1 || true
  local result qps p50
  result=$(grep '^RESULT' "$tmp/loadgen.out" | head -1 || true)
  qps=$(sed -n 's/.* qps=\([0-9.]*\).*/\1/p' <<<"$result")
  p50=$(sed -n 's/.* p50_us=\([0-9.]*\).*/\1/p' <<<"$result")
  record "$label" h2 "$conc" "${qps:-}" "${p50:-}" "$ticks" "$sticks"
}

# listener_rows CONNECTIONS: Connect JSON and binary on stud_server's listener,
# over HTTP/1.1 straight to it and over h2c through nginx.
listener_rows() {
  local label http base
  for route in "h1 $listener" "h2 $via_nginx"; do
    read -r http base <<<"$route"
    label="(stud_server)"
    [ "$http" = h1 ] || label="(stud_server via nginx)"
    h2load_row "Connect JSON $label" "$1" "$http" "$base" "$tmp/apply.json" application/json
    h2load_row "Connect binary $label" "$1" "$http" "$base" "$tmp/apply.bin" application/proto
  done
}

gw="$gateway"
# Warm-up, not recorded: the gateway's JavaScript compiled for every path
# before the first measured run (its first seconds cost several times more).
for warm in "--h1 apply.json application/json" "apply.bin application/proto" "--h1 apply.grpcmsg application/grpc-web+proto"; do
  read -r -a w <<<"$warm"
  [ "${w[0]}" = --h1 ] || w=("" "${w[@]}")
  h2load -D 3 -c "$CONNS" -m 1 ${w[0]:+"${w[0]}"} -d "$tmp/${w[1]}" -H "content-type: ${w[2]}" "$gw$path" >/dev/null 2>&1 || true
done
h2load -D 3 -c "$CONNS" -m 1 -d "$tmp/apply.grpcmsg" -H "content-type: application/grpc" -H "te: trailers" "$gw$path" >/dev/null 2>&1 || true
echo "# stud_server $server (Connect listener $listener, via nginx $via_nginx), stud_web $gw ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)), ${DURATION} s per run, $ROUNDS rounds"
for round in $(seq "$ROUNDS"); do
  echo "# round $round" >&2
  loadgen_row "gRPC direct (loadgen)" "$server" 32 4
  h2load_row "Connect JSON" "$CONNS" h1 "$gw" "$tmp/apply.json" application/json
  h2load_row "gRPC direct" 1 h2 "http://$server" "$tmp/apply.grpcmsg" application/grpc -H "te: trailers"
  for http in h1 h2; do
    h2load_row "Connect JSON" 1 "$http" "$gw" "$tmp/apply.json" application/json
    h2load_row "Connect binary" 1 "$http" "$gw" "$tmp/apply.bin" application/proto
    h2load_row "gRPC-Web" 1 "$http" "$gw" "$tmp/apply.grpcmsg" application/grpc-web+proto
  done
  h2load_row "gRPC via gateway" 1 h2 "$gw" "$tmp/apply.grpcmsg" application/grpc -H "te: trailers"
  listener_rows 1
  loadgen_row "gRPC via gateway (loadgen)" "${gw#http://}" 1 1
  loadgen_row "gRPC direct (loadgen)" "$server" 1 1
  h2load_row "gRPC direct" "$CONNS" h2 "http://$server" "$tmp/apply.grpcmsg" application/grpc -H "te: trailers"
  listener_rows "$CONNS"
  h2load_row "Connect binary" "$CONNS" h1 "$gw" "$tmp/apply.bin" application/proto
  h2load_row "gRPC-Web" "$CONNS" h1 "$gw" "$tmp/apply.grpcmsg" application/grpc-web+proto
  h2load_row "Connect JSON" "$CONNS" h2 "$gw" "$tmp/apply.json" application/json
  h2load_row "Connect binary" "$CONNS" h2 "$gw" "$tmp/apply.bin" application/proto
  h2load_row "gRPC-Web" "$CONNS" h2 "$gw" "$tmp/apply.grpcmsg" application/grpc-web+proto
  h2load_row "gRPC via gateway" "$CONNS" h2 "$gw" "$tmp/apply.grpcmsg" application/grpc -H "te: trailers"
  h2load_row "Connect JSON" 4x8 h2 "$gw" "$tmp/apply.json" application/json
  loadgen_row "gRPC via gateway (loadgen)" "${gw#http://}" 32 4
  loadgen_row "gRPC direct (loadgen)" "$server" 32 4
done

# Memory: one gateway process, MEMORY_CONNS HTTP/2 connections each after one call.
memory=""
if [ "$MEMORY_CONNS" -gt 0 ]; then
  start_gateway "$tmp/web1" --workers=1
  memory=$(cd web && node --input-type=module -e '
    import http2 from "node:http2";
    import fs from "node:fs";
    const [url, pid, count, body] = [process.argv[1], process.argv[2], Number(process.argv[3]), fs.readFileSync(process.argv[4])];
    const rss = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))[1]);
    const call = (session) => new Promise((resolve, reject) => {
      const stream = session.request({ ":method": "POST", ":path": "/stud.v1.StudService/ApplyAction", "content-type": "application/proto" });
      stream.on("response", (h) => (h[":status"] === 200 ? undefined : reject(new Error(`status ${h[":status"]}`))));
      stream.on("data", () => undefined);
      stream.on("end", resolve);
      stream.on("error", reject);
      stream.end(body);
    });
    const warm = http2.connect(url);
    for (let i = 0; i < 200; i++) await call(warm);
    await new Promise((r) => setTimeout(r, 500));
    const before = rss();
    const sessions = [];
    for (let i = 0; i < count; i += 50) {
      const batch = [];
      for (let j = i; j < Math.min(count, i + 50); j++) {
        const s = http2.connect(url);
        sessions.push(s);
        batch.push(call(s));
      }
      await Promise.all(batch);
    }
    await new Promise((r) => setTimeout(r, 1000));
    const after = rss();
    console.log(`${before} ${after} ${(((after - before) / count) * 1000 / 1024).toFixed(1)}`);
    for (const s of [warm, ...sessions]) s.destroy();
  ' "$gateway" "$gateway_pid" "$MEMORY_CONNS" "$tmp/apply.bin")
fi

python3 - "$runs" "$CONNS" "$memory" "$MEMORY_CONNS" "${CSV:-}" "${SUMMARY_CSV:-}" <<'EOF'
import csv, shutil, statistics, sys
runs_path, conns, memory, memory_conns, out_csv, summary_csv = sys.argv[1:7]
rows = list(csv.DictReader(open(runs_path)))
if out_csv:
    shutil.copyfile(runs_path, out_csv)
num = lambda v: float(v) if v not in ("", None) else None
groups = {}
for r in rows:
    groups.setdefault((r["path"], r["http"], r["conns"]), []).append(r)
def med(values):
    values = [v for v in values if v is not None]
    return (statistics.median(values), min(values), max(values)) if values else (None, None, None)
fmt = lambda v, d=0: "?" if v is None else f"{v:,.{d}f}"
print(f"{'path':38} {'http':4} {'conns':>5} {'calls/s median (range)':>26} {'mean/p50 us':>12} {'gateway CPU us/call':>20} {'server CPU':>10}")
summary = []
for (p, http, c), rs in groups.items():
    rps, lo, hi = med([num(r["req_s"]) for r in rs])
    mean = med([num(r["mean_us"]) for r in rs])[0]
    cpu = med([num(r["gateway_cpu_us_per_call"]) for r in rs])[0]
    server_cpu = med([num(r["server_cpu_us_per_call"]) for r in rs])[0]
    summary.append((p, http, c, rps, lo, hi, mean, cpu, server_cpu))
    print(f"{p:38} {http:4} {c:>5} {fmt(rps) + ' (' + fmt(lo) + '-' + fmt(hi) + ')':>26} {fmt(mean):>12} {fmt(cpu):>20} {fmt(server_cpu):>10}")
if summary_csv:
    with open(summary_csv, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["path", "http", "conns", "req_s_median", "req_s_min", "req_s_max", "mean_us_median", "gateway_cpu_us_per_call",
                    "server_cpu_us_per_call"])
        for s in summary:
            w.writerow([s[0], s[1], s[2]] + ["" if v is None else round(v, 1) for v in s[3:]])
by_round = {}
for r in rows:
    by_round.setdefault(r["round"], []).append(r)
json_paths = {"Connect JSON": "the gateway", "Connect JSON (stud_server)": "the listener"}
ratios, overheads = {}, {}
for rnd, rs in by_round.items():
    direct32 = [num(r["req_s"]) for r in rs if r["path"] == "gRPC direct (loadgen)" and r["conns"] == "32" and num(r["req_s"])]
    for jp in json_paths:
        json16 = [num(r["req_s"]) for r in rs if r["path"] == jp and r["http"] == "h1" and r["conns"] == conns and num(r["req_s"])]
        if direct32 and json16:
            ratios.setdefault(jp, []).append(json16[0] / statistics.mean(direct32))
    direct1 = [num(r["mean_us"]) for r in rs if r["path"] == "gRPC direct" and r["conns"] == "1" and num(r["mean_us"])]
    for r in rs:
        if r["conns"] == "1" and "direct" not in r["path"] and "loadgen" not in r["path"] and direct1 and num(r["mean_us"]):
            overheads.setdefault(f"{r['path']} {r['http']}", []).append(num(r["mean_us"]) - direct1[0])
for jp, where in json_paths.items():
    if jp in ratios:
        m, lo, hi = med(ratios[jp])
        print(f"\n{where}: {jp} HTTP/1.1 at {conns} connections / direct gRPC at 32 in flight: median {m:.3f} (rounds {', '.join(f'{x:.3f}' for x in ratios[jp])}; target 0.4)", end="")
print("\n\none call at a time, mean minus direct h2load's in the same round (target within 300 us):")
for k, v in overheads.items():
    m, lo, hi = med(v)
    print(f"  {k:42} median {m:6.0f} us (range {lo:.0f} to {hi:.0f})")
if memory:
    before, after, per = memory.split()
    print(f"\nmemory: one gateway process, VmRSS {int(before)/1024:.1f} MiB -> {int(after)/1024:.1f} MiB with {memory_conns} open HTTP/2 connections: {per} MiB per 1,000")
EOF
