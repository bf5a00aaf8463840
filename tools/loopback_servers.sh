# Sourced by the scripts that run servers for a test or a benchmark
# (tools/bench/run_all.sh, tools/bench/lb_bench.sh,
# tools/loadgen/loadgen_smoke_test.sh, tests/service/overload_soak_test.sh): a
# scratch directory $tmp, servers started on loopback port 0, and everything
# stopped and removed when the script exits.
#
#   start NAME BINARY [ARGS...]   runs BINARY --listen 127.0.0.1:0 ARGS..., waits
#                                 (at most 10 s) for its "listening on" line and
#                                 sets $addr (host:port) and $pid
tmp="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

start() {
  local name="$1"; shift
  "$@" --listen 127.0.0.1:0 >"$tmp/$name.out" 2>"$tmp/$name.err" &
  pid=$!
  pids+=("$pid")
  for _ in $(seq 200); do grep -q "listening on" "$tmp/$name.out" && break; sleep 0.05; done
  addr=$(sed -n 's/.* listening on //p' "$tmp/$name.out")
  [ -n "$addr" ] || { echo "$name did not start"; cat "$tmp/$name.err"; exit 1; }
}
