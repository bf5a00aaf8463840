#!/usr/bin/env bash
# The service against its do-nothing twin over a range of concurrency, the
# series plotted by tools/bench/plot_service.sh (docs/benchmarks.md, "The
# service in plots").
#
# ROUNDS rounds, one after the other; in each, for every RPC shape in SHAPES, a
# fresh stud_server and a fresh loadgen_echo_server, then for every
# concurrency in CONCURRENCY one stud_loadgen call that measures the service
# and then the echo twin (same requests' sizes, same client, closed loop, that
# many calls in flight over 4 connections). At HALF_AT calls in flight the same
# call then runs both open loop at half the service's closed-loop throughput
# (as tools/bench/service_ratio.sh does): the latency distribution at half
# load. So every service figure has a baseline figure measured seconds apart
# in the same round, and a machine whose load drifts moves both.
#
# Writes, into OUT_DIR:
#   service_runs.csv            every closed-loop measurement: round, rpc,
#                               detail, target (service|baseline), concurrency,
#                               calls/s, p50/p90/p99/p99.9 in µs, the server's
#                               CPU µs per call, errors
#   service_summary.csv         per rpc, detail and concurrency: median, min and
#                               max over the rounds of each target's calls/s,
#                               the median server CPU µs per call, and the
#                               per-round ratio service/baseline (median, min,
#                               max)
#   service_latency.csv         the half-load measurements, one row per round
#                               and target (rate, calls/s, percentiles, CPU)
#   service_latency_summary.csv per rpc, detail, target and percentile: median,
#                               min and max over the rounds
# and prints `uptime` before and after (the machine's load during the run).
#
#   tools/bench/service_series.sh
#   BUILD_DIR    build with stud_server, loadgen_echo_server, stud_loadgen (default build)
#   ROUNDS       rounds (default 5)
#   DURATION     seconds measured per phase (default 2)
#   WARMUP       seconds of warm-up per phase (default 0.5)
#   CONCURRENCY  calls in flight (default "1 2 4 8 16 32 64")
#   HALF_AT      the concurrency whose call also measures half load (default 32)
#   SHAPES       rpc:detail pairs (default "apply_action:full apply_action:changes";
#                add new_hand:full for NewHand, about 90 s more per round)
#   OUT_DIR      where the CSVs go (default docs/benchmarks)
# Extra arguments go to stud_server. The default run takes about 9 minutes.
# Every process it starts listens on loopback port 0 and stops when it exits.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
BUILD_DIR="${BUILD_DIR:-build}"
ROUNDS="${ROUNDS:-5}"
DURATION="${DURATION:-2}"
WARMUP="${WARMUP:-0.5}"
CONCURRENCY="${CONCURRENCY:-1 2 4 8 16 32 64}"
HALF_AT="${HALF_AT:-32}"
SHAPES="${SHAPES:-apply_action:full apply_action:changes}"
OUT_DIR="${OUT_DIR:-docs/benchmarks}"
for bin in service/stud_server tools/loadgen/loadgen_echo_server tools/loadgen/stud_loadgen; do
  [ -x "$BUILD_DIR/$bin" ] || {
    echo "$BUILD_DIR/$bin missing: cmake --build $BUILD_DIR --target stud_server loadgen_echo_server stud_loadgen" >&2
    exit 2
  }
done
mkdir -p "$OUT_DIR"

# shellcheck source=tools/loopback_servers.sh
. tools/loopback_servers.sh

echo "# before: $(uptime)"
runs="$tmp/runs.csv" half="$tmp/latency.csv"
echo "round,rpc,detail,target,concurrency,calls_s,p50_us,p90_us,p99_us,p999_us,server_cpu_us_per_call,errors" >"$runs"
echo "round,rpc,detail,target,rate,calls_s,p50_us,p90_us,p99_us,p999_us,server_cpu_us_per_call,errors" >"$half"

# record ROUND RPC DETAIL CONCURRENCY < stud_loadgen output: its RESULT lines
# as CSV rows (closed loop into $runs, open loop into $half). server_cpu is
# the share of one core the server used while measuring, so per call it is
# server_cpu / qps seconds.
record() {
  awk -v round="$1" -v rpc="$2" -v detail="$3" -v c="$4" -v runs="$runs" -v half="$half" '
    $1 == "RESULT" {
      delete f
      for (i = 2; i <= NF; ++i) { split($i, kv, "="); f[kv[1]] = substr($i, length(kv[1]) + 2) }
      target = (f["label"] ~ /^baseline:/) ? "baseline" : "service"
      cpu = f["qps"] > 0 ? sprintf("%.1f", f["server_cpu"] * 1e6 / f["qps"]) : ""
      tail = sprintf("%s,%s,%s,%s,%s,%s,%s", f["qps"], f["p50_us"], f["p90_us"], f["p99_us"],
                     f["p999_us"], cpu, f["errors"])
      if (f["mode"] ~ /^open@/) {
        rate = f["mode"]; gsub(/^open@|\/s$/, "", rate)
        print round "," rpc "," detail "," target "," rate "," tail >> half
      } else {
        print round "," rpc "," detail "," target "," c "," tail >> runs
      }
    }'
}

for round in $(seq "$ROUNDS"); do
  for shape in $SHAPES; do
    rpc="${shape%%:*}" detail="${shape##*:}"
    start "server$round$rpc$detail" "$BUILD_DIR/service/stud_server" --metrics_listen= "$@"
    server_addr=$addr server_pid=$pid
    start "echo$round$rpc$detail" "$BUILD_DIR/tools/loadgen/loadgen_echo_server"
    for c in $CONCURRENCY; do
      log="$tmp/r$round-$rpc-$detail-c$c.log"
      half_load=false
      [ "$c" != "$HALF_AT" ] || half_load=true
      # A failed call is counted in the row's errors column; the run goes on.
      "$BUILD_DIR/tools/loadgen/stud_loadgen" --target="$server_addr" --server_pid="$server_pid" \
        --baseline_target="$addr" --baseline_pid="$pid" --rpc="$rpc" --detail="$detail" \
        --duration="$DURATION" --warmup="$WARMUP" --concurrency="$c" --channels=4 \
        --half_load="$half_load" >"$log" 2>&1 || true
      grep -q '^RESULT' "$log" || { echo "stud_loadgen gave no result:"; cat "$log"; exit 1; }
      record "$round" "$rpc" "$detail" "$c" <"$log"
      echo "round $round $rpc/$detail c=$c: $(sed -n 's/^RATIO .*mode=closed throughput=\([^ ]*\).*/ratio \1/p' "$log")"
    done
    kill "$server_pid" "$pid"
    wait "$server_pid" "$pid" 2>/dev/null || true
  done
done
echo "# after: $(uptime)"

# Medians and ranges over the rounds (the median of an even count is the mean
# of the middle two).
python3 - "$runs" "$half" "$OUT_DIR" <<'EOF'
import csv, statistics, sys
from collections import defaultdict
runs, half, out = sys.argv[1:4]
def fmt(x, d=1):
    return "" if x is None else f"{x:.{d}f}"
def stats(xs):
    xs = [x for x in xs if x is not None]
    return (statistics.median(xs), min(xs), max(xs)) if xs else (None, None, None)
def num(s):
    return float(s) if s not in ("", None) else None

rows = list(csv.DictReader(open(runs)))
keys, by = [], defaultdict(dict)  # (rpc, detail, c) -> {(round, target): row}
for r in rows:
    k = (r["rpc"], r["detail"], int(r["concurrency"]))
    if k not in by: keys.append(k)
    by[k][(r["round"], r["target"])] = r
with open(f"{out}/service_summary.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["rpc", "detail", "concurrency", "rounds",
                "service_calls_s_median", "service_calls_s_min", "service_calls_s_max",
                "baseline_calls_s_median", "baseline_calls_s_min", "baseline_calls_s_max",
                "service_cpu_us_median", "baseline_cpu_us_median",
                "ratio_median", "ratio_min", "ratio_max"])
    for k in keys:
        m = by[k]
        rounds = sorted({rd for rd, _ in m}, key=int)
        qps = {t: [num(m[(rd, t)]["calls_s"]) for rd in rounds if (rd, t) in m]
               for t in ("service", "baseline")}
        cpu = {t: [num(m[(rd, t)]["server_cpu_us_per_call"]) for rd in rounds if (rd, t) in m]
               for t in ("service", "baseline")}
        ratio = [num(m[(rd, "service")]["calls_s"]) / num(m[(rd, "baseline")]["calls_s"])
                 for rd in rounds if (rd, "service") in m and (rd, "baseline") in m
                 and num(m[(rd, "baseline")]["calls_s"])]
        s, b, rt = stats(qps["service"]), stats(qps["baseline"]), stats(ratio)
        w.writerow([*k, len(rounds), *map(fmt, s), *map(fmt, b),
                    fmt(stats(cpu["service"])[0]), fmt(stats(cpu["baseline"])[0]),
                    *(fmt(x, 3) for x in rt)])

lat = list(csv.DictReader(open(half)))
with open(f"{out}/service_latency.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(lat[0].keys() if lat else [])
    for r in lat: w.writerow(r.values())
groups = defaultdict(list)
for r in lat: groups[(r["rpc"], r["detail"], r["target"])].append(r)
with open(f"{out}/service_latency_summary.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["rpc", "detail", "target", "percentile", "rounds", "us_median", "us_min", "us_max"])
    for (rpc, detail, target), rs in groups.items():
        for p, col in (("50", "p50_us"), ("90", "p90_us"), ("99", "p99_us"), ("99.9", "p999_us")):
            w.writerow([rpc, detail, target, p, len(rs),
                        *map(fmt, stats([num(r[col]) for r in rs]))])
EOF
cp "$runs" "$OUT_DIR/service_runs.csv"
echo "wrote $OUT_DIR/service_runs.csv service_summary.csv service_latency.csv service_latency_summary.csv"
