#!/usr/bin/env bash
# Plots the service's recorded series as SVGs with gnuplot (Debian: apt-get
# install gnuplot-nox), for docs/benchmarks.md ("The service in plots"):
#   service_throughput.svg  calls/s against calls in flight (log x), the
#                           service and its do-nothing twin, medians with
#                           whiskers from the slowest to the fastest round; below,
#                           the per-round ratio service / baseline
#   service_latency.svg     latency percentiles at half load, service and
#                           baseline (medians, whiskers over the rounds)
#   instructions.svg        instructions and mallocs per in-process call across
#                           the recorded changes, one point per row of
#                           instructions.csv (adding a row is all a new
#                           measurement needs)
# The inputs are tools/bench/service_series.sh's service_summary.csv and
# service_latency_summary.csv and the hand-kept instructions.csv (columns:
# change, then instructions and mallocs per call of ApplyAction full update,
# ApplyAction changes only and NewHand, from tools/bench/instructions_per_call.py).
#
#   tools/bench/plot_service.sh [IN_DIR [OUT_DIR]]   (defaults: docs/benchmarks for both)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
in="${1:-$root/docs/benchmarks}"
out="${2:-$in}"
command -v gnuplot >/dev/null || { echo "gnuplot missing (apt-get install gnuplot-nox)" >&2; exit 2; }
for f in service_summary.csv service_latency_summary.csv instructions.csv; do
  [ -s "$in/$f" ] || { echo "$in/$f missing or empty" >&2; exit 1; }
done
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# One file per shape (rpc detail), in the summary's order; gnuplot reads each.
awk -F, 'NR > 1 { sub(/\r$/, ""); print > (dir "/tp_" $1 "_" $2 ".csv") }' dir="$tmp" \
  "$in/service_summary.csv"
awk -F, 'NR > 1 { sub(/\r$/, ""); print > (dir "/lat_" $1 "_" $2 "_" $3 ".csv") }' dir="$tmp" \
  "$in/service_latency_summary.csv"
shapes=$(awk -F, 'NR > 1 && !seen[$1 "_" $2]++ { print $1 "_" $2 }' "$in/service_summary.csv")
lat_shapes=$(awk -F, 'NR > 1 && !seen[$1 "_" $2]++ { print $1 "_" $2 }' "$in/service_latency_summary.csv")
[ -n "$shapes" ] || { echo "$in/service_summary.csv has no rows" >&2; exit 1; }
n=$(echo "$shapes" | wc -l)
nl=$(echo "$lat_shapes" | grep -c . || true)
title() { case "$1" in
  apply_action_full) echo "ApplyAction, full update" ;;
  apply_action_changes) echo "ApplyAction, changes only" ;;
  new_hand_full) echo "NewHand" ;;
  new_hand_changes) echo "NewHand, changes only" ;;
  *) echo "${1//_/\\\\_}" ;;
esac; }

# Throughput: columns of service_summary.csv: 3 concurrency, 5-7 service
# median/min/max, 8-10 baseline, 13-15 ratio median/min/max.
{
  echo "set terminal svg size $((520 * n)),760 dynamic font 'sans,11' background 'white'"
  echo "set output '$out/service_throughput.svg'; set encoding utf8"
  echo "set datafile separator ','"
  # shellcheck disable=SC2028 # the backslashes are for gnuplot
  echo "set multiplot layout 2,$n title \"stud\\\\_server against the do-nothing twin, closed loop, same run (tools/bench/service\\\\_series.sh)\""
  echo "set logscale x 2; set grid; set key top left; set xlabel 'calls in flight'"
  echo "set offsets graph 0.04, graph 0.04, 0, 0"
  for s in $shapes; do
    echo "set title '$(title "$s"): calls/s (median; whiskers: slowest to fastest round)'"
    echo "set ylabel 'calls/s'; set yrange [0:*]"
    echo "plot '$tmp/tp_$s.csv' using 3:8:9:10 with yerrorlines lw 2 pt 7 lc rgb '#999999' title 'do-nothing twin', \\"
    echo "     '$tmp/tp_$s.csv' using 3:5:6:7 with yerrorlines lw 2 pt 5 lc rgb '#4477aa' title 'stud\\_server'"
  done
  for s in $shapes; do
    echo "set title '$(title "$s"): service / twin, per round'"
    echo "set ylabel 'throughput ratio'; set yrange [0:*]"
    echo "set arrow 1 from graph 0, first 0.8 to graph 1, first 0.8 nohead dt 2 lc rgb 'black'"
    echo "plot '$tmp/tp_$s.csv' using 3:13:14:15 with yerrorlines lw 2 pt 7 lc rgb '#cc6677' title 'median ratio (dashed: 0.8)'"
  done
  echo "unset multiplot"
} >"$tmp/throughput.gp"
gnuplot "$tmp/throughput.gp"

# Latency at half load: percentile p at x = -log10(1 - p/100) (50 -> 0.3,
# 90 -> 1, 99 -> 2, 99.9 -> 3), so the tail gets the room it needs.
if [ "$nl" -gt 0 ]; then
  {
    echo "set terminal svg size $((520 * nl)),440 dynamic font 'sans,11' background 'white'"
    echo "set output '$out/service_latency.svg'; set encoding utf8"
    echo "set datafile separator ','"
    echo "set multiplot layout 1,$nl title \"Latency at half the service's closed-loop throughput, open loop, same rate for both (medians; whiskers: over the rounds)\""
    echo "set logscale y; set format y '%g'; set grid; set key top left"
    echo "set xtics ('p50' log10(2), 'p90' 1, 'p99' 2, 'p99.9' 3); set xrange [0.1:3.2]"
    echo "set xlabel 'percentile'; set ylabel 'µs'"
    echo "px(p) = -log10(1 - p / 100.0)"
    for s in $lat_shapes; do
      echo "set title '$(title "$s")'"
      echo "plot '$tmp/lat_${s}_baseline.csv' using (px(\$4)):6:7:8 with yerrorlines lw 2 pt 7 lc rgb '#999999' title 'do-nothing twin', \\"
      echo "     '$tmp/lat_${s}_service.csv' using (px(\$4)):6:7:8 with yerrorlines lw 2 pt 5 lc rgb '#4477aa' title 'stud\\_server'"
    done
    echo "unset multiplot"
  } >"$tmp/latency.gp"
  gnuplot "$tmp/latency.gp"
fi

# Instructions and mallocs per call, one x position per row of
# instructions.csv, labelled with its first column (no commas in it). The
# dashed lines are issue 31's targets (ApplyAction full 32k instructions,
# changes only 22k, NewHand 60k; at most 4, 4 and 10 mallocs).
awk -F, 'NR > 1 && NF >= 7 { sub(/\r$/, ""); gsub(/"/, "", $1); print }' OFS=, \
  "$in/instructions.csv" >"$tmp/instr.csv"
[ -s "$tmp/instr.csv" ] || { echo "$in/instructions.csv has no rows" >&2; exit 1; }
rows=$(wc -l <"$tmp/instr.csv")
cat >"$tmp/instr.gp" <<EOF
set terminal svg size 1200,520 dynamic font 'sans,11' background 'white'
set output '$out/instructions.svg'; set encoding utf8
set datafile separator ','
set multiplot layout 1,2 title "Per in-process call, callgrind's exact counts (tools/bench/instructions\\\\_per\\\\_call.py); dashed: the targets"
set grid; set key top left; set logscale y; set format y '%g'
set xtics rotate by -30 noenhanced
set xrange [-0.5:$rows - 0.5]
set bmargin 7
target(n, y, color) = sprintf("set arrow %d from graph 0, first %g to graph 1, first %g nohead dt 2 lc rgb '%s'", n, y, y, color)
set title 'instructions per call (thousands, log scale)'
eval target(1, 32, '#4477aa'); eval target(2, 22, '#228833'); eval target(3, 60, '#cc6677')
set yrange [10:*]
plot '$tmp/instr.csv' using 0:(\$2/1000):xtic(1) with linespoints lw 2 pt 5 lc rgb '#4477aa' title 'ApplyAction full', \
     '' using 0:(\$4/1000) with linespoints lw 2 pt 7 lc rgb '#228833' title 'ApplyAction changes', \
     '' using 0:(\$6/1000) with linespoints lw 2 pt 9 lc rgb '#cc6677' title 'NewHand'
unset arrow
set title 'mallocs per call (log scale)'
set yrange [1:*]
eval target(1, 4, '#4477aa'); eval target(2, 10, '#cc6677')
plot '$tmp/instr.csv' using 0:3:xtic(1) with linespoints lw 2 pt 5 lc rgb '#4477aa' title 'ApplyAction full', \
     '' using 0:5 with linespoints lw 2 pt 7 lc rgb '#228833' title 'ApplyAction changes', \
     '' using 0:7 with linespoints lw 2 pt 9 lc rgb '#cc6677' title 'NewHand'
unset multiplot
EOF
gnuplot "$tmp/instr.gp"
echo "wrote $out/service_throughput.svg $([ "$nl" -gt 0 ] && echo "$out/service_latency.svg ")$out/instructions.svg"
