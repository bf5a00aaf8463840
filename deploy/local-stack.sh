#!/usr/bin/env bash
# A local multi-replica stack on loopback: N stud_server replicas sharing one
# key ring, behind nginx grpc_pass (round robin per call, not per connection),
# and a Prometheus server scraping every replica's --metrics_listen port.
# Ports are picked at run time; nothing outside the state directory is touched.
#
#   deploy/local-stack.sh [up] [--server PATH | --image TAG] [--dir DIR] [--replicas N] [--no-prometheus] [--ledger]
#                         [--hand-affinity]
#       Starts everything, prints the addresses, and stays in the foreground;
#       Ctrl-C (or SIGTERM, or the exit of --parent-pid) stops everything.
#       --hand-affinity: nginx sends the calls that carry the same x-stud-hand-id
#       metadata to one replica (consistent hash), so each replica finds the
#       hands it answered still decoded (--hand_cache); calls without it (a
#       NewHand) stay round robin. The default proves statelessness: every
#       call may land anywhere.
#       --ledger: also a redis-server (Debian package) on a free loopback port,
#       append-only files in DIR/redis, and every replica started with
#       --ledger redis://127.0.0.1:PORT --ledger_password_file (docs/ledger.md); it is
#       stopped after the replicas.
#       --image TAG: every replica runs stud_server from the container image
#       TAG (deploy/build-image.sh) with buildah run --isolation chroot
#       --network host as uid 10001, the key ring mounted read-only, so the
#       restart and key-rotation runs exercise what ships.
#   deploy/local-stack.sh restart I --dir DIR   SIGTERM replica I (graceful drain), wait for
#                                               its exit, start it again on the same port
#   deploy/local-stack.sh kill I --dir DIR      SIGKILL replica I
#   deploy/local-stack.sh start I --dir DIR     start replica I again (after kill)
#   deploy/local-stack.sh status --dir DIR      print the addresses and which replicas run
#
# The state directory holds: stack.env (addresses, READY=1 last), keys (the key
# ring, mode 600), signing-keys (the receipt signing key, mode 600), replica-I.{pid,log,out,exit}, nginx/ (config, access.log with
# the upstream of every call), prometheus/, redis/ (with --ledger: config and
# password, mode 600, append-only files, log, pid). Without --dir a temporary directory
# is made and removed on exit. Requires nginx; Prometheus is optional.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
cmd="up"
case "${1:-}" in up|restart|kill|start|status) cmd="$1"; shift ;; esac
index=""
if [ "$cmd" = restart ] || [ "$cmd" = kill ] || [ "$cmd" = start ]; then
  index="${1:?replica number required}"; shift
fi
server="${STUD_SERVER:-$root/build/service/stud_server}"
dir=""
replicas=3
prometheus=1
parent_pid=""
ledger=0
image=""
hand_affinity=0
while [ $# -gt 0 ]; do
  case "$1" in
    --image) image="$2"; shift 2 ;;
    --server) server="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --replicas) replicas="$2"; shift 2 ;;
    --no-prometheus) prometheus=0; shift ;;
    --ledger) ledger=1; shift ;;
    --hand-affinity) hand_affinity=1; shift ;;
    --parent-pid) parent_pid="$2"; shift 2 ;;
    -h|--help) sed -n '2,37p' "$0"; exit 0 ;;
    *) echo "local-stack: unknown argument $1" >&2; exit 2 ;;
  esac
done

log() { echo "local-stack: $*" >&2; }

free_ports() {  # N free loopback TCP ports (held open together so they differ)
  /usr/bin/python3 - "$1" <<'EOF'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
EOF
}

wait_tcp() {  # wait_tcp PORT SECONDS
  local deadline=$((SECONDS + $2))
  while [ $SECONDS -lt $deadline ]; do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

# --- one replica -------------------------------------------------------------
start_replica() {  # start_replica I   (reads stack.env)
  local i="$1" port_var="REPLICA_${1}_PORT" mport_var="METRICS_${1}_PORT"
  local port="${!port_var}" mport="${!mport_var}"
  local args=(--listen "127.0.0.1:$port" --key_file "$dir/keys" --signing_keys_file "$dir/signing-keys")
  [ "$METRICS_FLAG" = 1 ] && args+=(--metrics_listen "127.0.0.1:$mport")
  # The password from its file, never on the command line (in Kubernetes a
  # Secret mounted as a file, k8s/components/ledger).
  [ -n "${LEDGER_PORT:-}" ] && args+=(--ledger "redis://127.0.0.1:$LEDGER_PORT" --ledger_password_file "$dir/redis/password")
  rm -f "$dir/replica-$i.out" "$dir/replica-$i.exit"
  # A small keeper shell records the server's exit code; signals go to the
  # server itself (its pid is in replica-I.pid). setsid: a restarted replica
  # outlives the command that restarted it.
  OUT="$dir/replica-$i.out" ERR="$dir/replica-$i.log" PIDF="$dir/replica-$i.pid" EXITF="$dir/replica-$i.exit" \
    setsid bash -c '"$@" >"$OUT" 2>>"$ERR" </dev/null & echo $! >"$PIDF"; wait $!; echo $? >"$EXITF"' \
    keeper "$SERVER" "${args[@]}" </dev/null >/dev/null 2>&1 &
  local deadline=$((SECONDS + 15))
  while [ $SECONDS -lt $deadline ]; do
    if grep -q "^stud_server listening on " "$dir/replica-$i.out" 2>/dev/null; then return 0; fi
    if [ -f "$dir/replica-$i.exit" ]; then break; fi
    sleep 0.05
  done
  log "replica $i did not start; its log:"; tail -5 "$dir/replica-$i.log" >&2 || true
  return 1
}

stop_replica() {  # stop_replica I SIGNAL: signal it, wait for its exit, print the exit code
  local i="$1" sig="$2" pid
  pid="$(cat "$dir/replica-$i.pid" 2>/dev/null || true)"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || { log "replica $i is not running"; return 0; }
  kill "-$sig" "$pid"
  local deadline=$((SECONDS + 60))
  while [ $SECONDS -lt $deadline ] && [ ! -f "$dir/replica-$i.exit" ]; do sleep 0.05; done
  echo "replica $i exit $(cat "$dir/replica-$i.exit" 2>/dev/null || echo unknown)"
}

load_env() {
  [ -n "$dir" ] && [ -f "$dir/stack.env" ] || { log "no stack in ${dir:-?} (use --dir)"; exit 2; }
  # shellcheck disable=SC1091
  . "$dir/stack.env"
}

case "$cmd" in
  restart) load_env; stop_replica "$index" TERM; start_replica "$index"
           log "replica $index serving again on 127.0.0.1:$(eval echo "\$REPLICA_${index}_PORT")"; exit 0 ;;
  kill) load_env; stop_replica "$index" KILL; exit 0 ;;
  start) load_env; start_replica "$index"; exit 0 ;;
  status) load_env; cat "$dir/stack.env"
          for i in $(seq 1 "$REPLICAS"); do
            pid="$(cat "$dir/replica-$i.pid" 2>/dev/null || true)"
            if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then echo "replica $i running (pid $pid)"
            else echo "replica $i stopped"; fi
          done
          if [ -n "${LEDGER_PORT:-}" ]; then
            pid="$(cat "$dir/redis/pid" 2>/dev/null || true)"
            if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then echo "ledger redis running (pid $pid)"
            else echo "ledger redis stopped"; fi
          fi; exit 0 ;;
esac

# --- up ----------------------------------------------------------------------
if [ -n "$image" ]; then
  # A stand-in for the binary: runs it from the image, and passes TERM and
  # KILL on to it so restarts drain as they do in Kubernetes.
  command -v buildah >/dev/null || { log "--image needs buildah (tools/install-deps.sh installs it)"; exit 2; }
  buildah inspect --type image "$image" >/dev/null 2>&1 || { log "no image $image (deploy/build-image.sh)"; exit 2; }
  if [ -z "$dir" ]; then dir="$(mktemp -d -t stud-stack.XXXXXX)"; image_made_dir=1; fi
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd)"
  cat >"$dir/image-server.sh" <<WRAP
#!/usr/bin/env bash
c="\$(buildah from $image)"
buildah run --isolation chroot --network host --user 10001:10001 --volume "$dir:$dir:ro" "\$c" \\
  -- /usr/local/bin/stud_server "\$@" &
runner=\$!
args="\$*"
inner() { pgrep -u 10001 -f "^/usr/local/bin/stud_server \$args\$" | head -1; }
trap 'kill -TERM "\$(inner)" 2>/dev/null' TERM
trap 'kill -KILL "\$(inner)" 2>/dev/null' INT
wait "\$runner"; code=\$?
while kill -0 "\$runner" 2>/dev/null; do wait "\$runner"; code=\$?; done
buildah rm "\$c" >/dev/null 2>&1
exit \$code
WRAP
  chmod +x "$dir/image-server.sh"
  server="$dir/image-server.sh"
fi
server="$(readlink -f "$server" 2>/dev/null || echo "$server")"
[ -x "$server" ] || { log "no stud_server at $server (build it: cmake --build build --target stud_server, or --server)"; exit 2; }
if [ $ledger = 1 ]; then
  command -v redis-server >/dev/null || [ -x /usr/bin/redis-server ] || {
    log "redis-server missing (tools/install-deps.sh installs Debian's redis-server)"; exit 2; }
  grep -q -- '--ledger' <<<"$("$server" --helpfull 2>&1 || true)" || { log "this stud_server has no --ledger"; exit 2; }
fi
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { log "nginx missing (tools/install-deps.sh installs it)"; exit 2; }
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
own_dir=0
if [ -z "$dir" ]; then dir="$(mktemp -d -t stud-stack.XXXXXX)"; own_dir=1; fi
[ "${image_made_dir:-0}" = 1 ] && own_dir=1
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
[ -f "$dir/stack.env" ] && { log "$dir already holds a stack; use another --dir"; exit 2; }

cleanup() {
  trap - EXIT INT TERM
  local pid
  for f in "$dir"/replica-*.pid "$dir/nginx/nginx.pid" "$dir/prometheus/pid"; do
    [ -f "$f" ] || continue
    pid="$(cat "$f" 2>/dev/null || true)"
    [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null || true
  done
  # Replicas drain for up to --drain_seconds; wait a little, then insist.
  for _ in $(seq 1 50); do
    local alive=0
    for f in "$dir"/replica-*.pid "$dir/nginx/nginx.pid" "$dir/prometheus/pid"; do
      [ -f "$f" ] && pid="$(cat "$f" 2>/dev/null)" && kill -0 "$pid" 2>/dev/null && alive=1
    done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  for f in "$dir"/replica-*.pid "$dir/nginx/nginx.pid" "$dir/prometheus/pid"; do
    [ -f "$f" ] && pid="$(cat "$f" 2>/dev/null)" && kill -KILL "$pid" 2>/dev/null || true
  done
  # The ledger last, once no replica can call it: SIGTERM flushes the
  # append-only file and exits.
  if [ -f "$dir/redis/pid" ] && pid="$(cat "$dir/redis/pid" 2>/dev/null)" && [ -n "$pid" ]; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    rm -f "$dir/redis/pid"
  fi
  if [ $own_dir = 1 ]; then rm -rf "$dir"; else rm -f "$dir/stack.env"; fi
  log "stopped"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Key ring shared by every replica (one key, id 1; deploy/rotate-keys.sh adds more).
if [ ! -f "$dir/keys" ]; then
  (umask 077; printf '# stud key ring (local stack)\n1:%s\n' \
    "$(head -c32 /dev/urandom | od -An -tx1 | tr -d ' \n')" > "$dir/keys")
fi
# Hand receipt signing key shared by every replica, so they all sign alike
# (docs/fairness.md; in Kubernetes the Secret stud-signing-keys).
if [ ! -f "$dir/signing-keys" ]; then
  (umask 077; printf '# stud receipt signing keys (local stack)\nlocal-1:%s\n' \
    "$(head -c32 /dev/urandom | base64 -w0)" > "$dir/signing-keys")
fi
# The image's server runs as uid 10001: the ring stays mode 600, owned by it,
# and the state directory (mktemp makes it 700) must let it reach the ring.
if [ -n "$image" ]; then
  chown 10001:10001 "$dir/keys" "$dir/signing-keys"
  chmod o+x "$dir"
fi

read -r -a ports <<<"$(free_ports $((2 * replicas + 3)))"
LB_PORT="${ports[0]}"; PROM_PORT="${ports[1]}"; REDIS_PORT="${ports[$((2 * replicas + 2))]}"
METRICS_FLAG=0
help="$("$server" --helpfull 2>&1 || true)"
grep -q -- '--metrics_listen' <<<"$help" && METRICS_FLAG=1
{
  printf 'SERVER=%q\n' "$server"
  echo "REPLICAS=$replicas"
  echo "METRICS_FLAG=$METRICS_FLAG"
  echo "LB_ADDR=127.0.0.1:$LB_PORT"
  [ $ledger = 1 ] && echo "LEDGER_PORT=$REDIS_PORT"
  for i in $(seq 1 "$replicas"); do
    echo "REPLICA_${i}_PORT=${ports[$((2 * i))]}"
    echo "METRICS_${i}_PORT=${ports[$((2 * i + 1))]}"
  done
} > "$dir/stack.env"
. "$dir/stack.env"

# The hand ledger: one redis-server on loopback, password and config mode 600,
# append-only persistence in DIR/redis (docs/ledger.md, "Running Redis for it").
ledger_line=""
if [ $ledger = 1 ]; then
  mkdir -p "$dir/redis"
  [ -f "$dir/redis/password" ] || (umask 077; head -c24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$dir/redis/password")
  (umask 077; cat > "$dir/redis/redis.conf" <<EOF
port $LEDGER_PORT
bind 127.0.0.1
dir $dir/redis
logfile $dir/redis/log
daemonize no
save ""
appendonly yes
appendfsync everysec
maxmemory 128mb
maxmemory-policy noeviction
requirepass $(cat "$dir/redis/password")
EOF
  )
  REDIS_SERVER="$(command -v redis-server || echo /usr/bin/redis-server)"
  "$REDIS_SERVER" "$dir/redis/redis.conf" </dev/null >/dev/null 2>&1 &
  echo $! > "$dir/redis/pid"
  wait_tcp "$LEDGER_PORT" 10 || { log "redis-server did not start:"; tail -5 "$dir/redis/log" >&2; exit 1; }
  ledger_line="ledger: redis://127.0.0.1:$LEDGER_PORT (redis-server pid $(cat "$dir/redis/pid"), password $dir/redis/password, log $dir/redis/log)"
fi

for i in $(seq 1 "$replicas"); do start_replica "$i"; done

# Does the server actually serve metrics on --metrics_listen (not only accept the flag)?
metrics=0
if [ "$METRICS_FLAG" = 1 ] && curl -sf -m 2 "http://127.0.0.1:$METRICS_1_PORT/metrics" >/dev/null 2>&1; then
  metrics=1
fi

# nginx: HTTP/2 cleartext in, grpc_pass out, round robin per call (or by hand).
mkdir -p "$dir/nginx"
balance="round robin per call"
hash_line=""
if [ "$hand_affinity" = 1 ]; then
  balance="by x-stud-hand-id (consistent hash), round robin without it"
  # A routing hint only: the replicas never read it. An empty key (no
  # metadata) falls back to round robin in nginx's hash module.
  hash_line="    hash \$http_x_stud_hand_id consistent;"
fi
{
  cat <<EOF
worker_processes 1;
daemon off;
pid $dir/nginx/nginx.pid;
error_log $dir/nginx/error.log warn;
events { worker_connections 1024; }
http {
  # One line per call: the replica that answered, its gRPC status, the
  # client's x-stud-hand-id metadata (the tests use it to show the spread).
  log_format calls '\$msec \$request_uri \$status upstream=\$upstream_addr '
                   'upstream_status=\$upstream_status grpc_status=\$upstream_trailer_grpc_status '
                   'hand=\$http_x_stud_hand_id';
  access_log $dir/nginx/access.log calls;
  client_body_temp_path $dir/nginx/body; proxy_temp_path $dir/nginx/proxy;
  fastcgi_temp_path $dir/nginx/fastcgi; uwsgi_temp_path $dir/nginx/uwsgi; scgi_temp_path $dir/nginx/scgi;
  # max_fails=0: never mark a replica down. A restarted replica is back long
  # before any fail_timeout ends, and with marks a rolling restart can leave
  # every replica marked at once ("no live upstreams"). A refused connect to a
  # dead replica costs nothing on loopback: the call goes to the next one.
  upstream stud_replicas {
EOF
  [ -z "$hash_line" ] || echo "$hash_line"
  for i in $(seq 1 "$replicas"); do
    echo "    server 127.0.0.1:$(eval echo "\$REPLICA_${i}_PORT") max_fails=0;"
  done
  cat <<EOF
    keepalive 32;
  }
  server {
    listen 127.0.0.1:$LB_PORT http2;
    # nginx's default (1000) ends a client connection with GOAWAY after 1000
    # calls; clients reconnect, but load generators count failures. Raise it.
    keepalive_requests 1000000;
    location / {
      grpc_pass grpc://stud_replicas;
      grpc_connect_timeout 1s;
      grpc_read_timeout 30s;
      # Retry on another replica when one is down or draining. Safe for every
      # stud call, POSTs included ("non_idempotent"): a call is a pure function
      # of its request and the key ring, so a repeat gives the same answer.
      # invalid_header: nginx 1.22 reuses a kept-alive connection a draining
      # replica is closing and may then log "upstream violated connection flow
      # control" before any answer came; without it the client got INTERNAL.
      grpc_next_upstream error timeout invalid_header non_idempotent;
      grpc_next_upstream_tries 3;
    }
  }
}
EOF
} > "$dir/nginx/nginx.conf"
"$NGINX" -t -q -c "$dir/nginx/nginx.conf" -p "$dir/nginx/" -e "$dir/nginx/error.log"
"$NGINX" -c "$dir/nginx/nginx.conf" -p "$dir/nginx/" -e "$dir/nginx/error.log" &
wait_tcp "$LB_PORT" 10 || { log "nginx did not start:"; tail -5 "$dir/nginx/error.log" >&2; exit 1; }

prom_line="prometheus: not started"
if [ $prometheus = 0 ]; then
  prom_line="prometheus: not started (--no-prometheus)"
elif [ $metrics = 0 ]; then
  prom_line="prometheus: not started (this stud_server serves no metrics on --metrics_listen yet)"
  log "$prom_line"
elif ! command -v prometheus >/dev/null; then
  prom_line="prometheus: not started (not installed; tools/install-deps.sh installs it)"
  log "$prom_line"
else
  mkdir -p "$dir/prometheus"
  {
    echo "global: {scrape_interval: 1s, evaluation_interval: 1s}"
    echo "scrape_configs:"
    echo "  - job_name: stud"
    echo "    static_configs:"
    for i in $(seq 1 "$replicas"); do
      echo "      - targets: ['127.0.0.1:$(eval echo "\$METRICS_${i}_PORT")']"
      echo "        labels: {replica: 'replica-$i'}"
    done
  } > "$dir/prometheus/prometheus.yml"
  prometheus --config.file="$dir/prometheus/prometheus.yml" --storage.tsdb.path="$dir/prometheus/data" \
    --web.listen-address="127.0.0.1:$PROM_PORT" > "$dir/prometheus/log" 2>&1 &
  echo $! > "$dir/prometheus/pid"
  if wait_tcp "$PROM_PORT" 20; then
    prom_line="prometheus: http://127.0.0.1:$PROM_PORT (scrapes the $replicas metrics ports)"
    echo "PROM_ADDR=127.0.0.1:$PROM_PORT" >> "$dir/stack.env"
  else
    prom_line="prometheus: failed to start, see $dir/prometheus/log"
    log "$prom_line"
  fi
fi

{
  echo "stud local stack (state in $dir)"
  echo "  load balancer: 127.0.0.1:$LB_PORT  (nginx grpc_pass, $balance; log $dir/nginx/access.log)"
  for i in $(seq 1 "$replicas"); do
    p="$(eval echo "\$REPLICA_${i}_PORT")"; m="$(eval echo "\$METRICS_${i}_PORT")"
    mtext="metrics 127.0.0.1:$m"; [ $metrics = 1 ] || mtext="no metrics"
    echo "  replica $i: 127.0.0.1:$p  $mtext  pid $(cat "$dir/replica-$i.pid")  log $dir/replica-$i.log"
  done
  echo "  $prom_line"
  [ -n "$ledger_line" ] && echo "  $ledger_line"
  echo "  key ring: $dir/keys (ids: $(grep -oE '^[0-9]+:' "$dir/keys" | tr -d : | tr '\n' ' '))"
  echo "Try: tools/cli/stud_cli --server 127.0.0.1:$LB_PORT   (or any gRPC client, plaintext h2c)"
  echo "Restart a replica: $0 restart 2 --dir $dir   Rotate keys: deploy/rotate-keys.sh add --dir $dir"
  echo "Ctrl-C stops everything."
} 
echo "READY=1" >> "$dir/stack.env"

while :; do
  if [ -n "$parent_pid" ] && ! kill -0 "$parent_pid" 2>/dev/null; then log "parent $parent_pid gone"; exit 0; fi
  sleep 1 & wait $! || true
done
