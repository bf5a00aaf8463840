#!/usr/bin/env bash
# Plots tools/bench/gateway_bench.sh's medians (its SUMMARY_CSV) as an SVG with
# gnuplot (Debian: apt-get install gnuplot-nox): left, calls per second at many
# connections (median, whiskers from the slowest to the fastest round), direct
# gRPC first; middle, the mean time of one call at a time; right, the
# gateway's CPU per call in each gateway row.
#
#   tools/bench/plot_gateway.sh [SUMMARY_CSV [OUT_SVG]]
#   (defaults docs/benchmarks/gateway_summary.csv, docs/benchmarks/gateway.svg)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
in="${1:-$root/docs/benchmarks/gateway_summary.csv}"
out="${2:-$root/docs/benchmarks/gateway.svg}"
command -v gnuplot >/dev/null || { echo "gnuplot missing (apt-get install gnuplot-nox)" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# label,median,min,max rows: the throughput rows (more than one call in flight)
# and the one-call rows, direct gRPC first. The HTTP version goes in the label.
awk -F, 'NR > 1 && $3 != 1 {
  label = $1 " " ($2 == "h1" ? "HTTP/1.1" : "h2c") " x" $3
  row = sprintf("\"%s\",%s,%s,%s", label, $4, $5, $6)
  if ($1 ~ /direct/) direct = direct row "\n"; else gw = gw row "\n"
} END { printf "%s%s", direct, gw }' "$in" >"$tmp/many.csv"
awk -F, '{ sub(/\r$/, "") } NR > 1 && $8 != "" {
  printf "\"%s %s x%s\",%s\n", $1, ($2 == "h1" ? "HTTP/1.1" : "h2c"), $3, $8
}' "$in" >"$tmp/cpu.csv"
awk -F, 'NR > 1 && $3 == 1 {
  label = $1 " " ($2 == "h1" ? "HTTP/1.1" : "h2c")
  row = sprintf("\"%s\",%s", label, $7)
  if ($1 ~ /direct/) direct = direct row "\n"; else gw = gw row "\n"
} END { printf "%s%s", direct, gw }' "$in" >"$tmp/one.csv"

# Horizontal bars: the labels read level. Bars are boxxyerror (x from 0 to the
# value, y the row +- 0.35), whiskers xerrorbars.
cat >"$tmp/plot.gp" <<'EOF'
set terminal svg size 1500,640 dynamic font "sans,11" background "white"
set output out
set datafile separator ","
set multiplot layout 1,3 title "stud\\_web against direct gRPC, one ApplyAction request (tools/bench/gateway\\_bench.sh)"
set style fill solid 0.6 border -1
set grid xtics
set key off
set lmargin 30
set yrange [*:*] reverse
set offsets 0, 0, 0.6, 0.6
set title "throughput (medians; whiskers: slowest to fastest round)"
set xlabel "calls/s"
set xrange [0:*]
plot many using ($2/2):0:($2/2):(0.35):ytic(1) with boxxyerror lc rgb "#4477aa", \
     many using 2:0:3:4 with xerrorbars lc rgb "black" pt -1
set title "one call at a time: mean (stud\\_loadgen rows: p50)"
set xlabel "µs per call"
plot one using ($2/2):0:($2/2):(0.35):ytic(1) with boxxyerror lc rgb "#cc6677"
set title "the gateway's CPU per call (all its processes)"
set xlabel "µs of CPU per call"
plot cpu using ($2/2):0:($2/2):(0.35):ytic(1) with boxxyerror lc rgb "#228833"
unset multiplot
EOF
gnuplot -e "out='$out'; many='$tmp/many.csv'; one='$tmp/one.csv'; cpu='$tmp/cpu.csv'" "$tmp/plot.gp"
echo "wrote $out"
