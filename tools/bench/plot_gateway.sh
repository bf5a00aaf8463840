#!/usr/bin/env bash
# Plots tools/bench/gateway_bench.sh's medians (its SUMMARY_CSV) as an SVG with
# gnuplot (Debian: apt-get install gnuplot-nox): left, calls per second at many
# connections (median, whiskers from the slowest to the fastest round), direct
# gRPC first (grey), then stud_server's Connect listener (green), then the
# gateway (blue); middle, the mean time of one call at a time; right, the CPU
# per call of stud_server and, stacked on it, of the gateway (summaries
# without the server's column: the gateway's alone).
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

# label,color,median,min,max rows: the throughput rows (more than one call in
# flight) and the one-call rows, direct gRPC first, then the listener's (their
# path names "stud_server"), then the gateway's. The HTTP version goes in the
# label, its underscores escaped (gnuplot's enhanced text reads _ as a subscript).
# shellcheck disable=SC2016
order='function put(path, row) {
  gsub(/_/, "\\\\\\\\_", lab)
  if (path ~ /direct/) direct = direct sprintf("%s,0x888888,%s\n", lab, row)
  else if (path ~ /stud_server/) listener = listener sprintf("%s,0x228833,%s\n", lab, row)
  else gw = gw sprintf("%s,0x4477aa,%s\n", lab, row)
}
END { printf "%s%s%s", direct, listener, gw }'
awk -F, "$order"'{ sub(/\r$/, "") } NR > 1 && $3 != 1 {
  lab = sprintf("\"%s %s x%s\"", $1, ($2 == "h1" ? "HTTP/1.1" : "h2c"), $3)
  put($1, $4 "," $5 "," $6)
}' "$in" >"$tmp/many.csv"
awk -F, "$order"'{ sub(/\r$/, "") } NR > 1 && $3 == 1 {
  lab = sprintf("\"%s %s\"", $1, ($2 == "h1" ? "HTTP/1.1" : "h2c"))
  put($1, $7)
}' "$in" >"$tmp/one.csv"
# label,server,gateway: every row with a CPU figure (an empty one is 0).
awk -F, '{ sub(/\r$/, "") } NR > 1 && ($8 != "" || $9 != "") {
  lab = sprintf("%s %s x%s", $1, ($2 == "h1" ? "HTTP/1.1" : "h2c"), $3)
  gsub(/_/, "\\\\\\\\_", lab)
  printf "\"%s\",%s,%s\n", lab, $9 + 0, $8 + 0
}' "$in" >"$tmp/cpu.csv"

# Horizontal bars: the labels read level. Bars are boxxyerror (x from 0 to the
# value, y the row +- 0.35), whiskers xerrorbars.
cat >"$tmp/plot.gp" <<'EOF'
set terminal svg size 1700,860 dynamic font "sans,11" background "white"
set output out
set datafile separator ","
set multiplot layout 1,3 title "stud\\_web and stud\\_server's Connect listener against direct gRPC, one ApplyAction request (tools/bench/gateway\\_bench.sh)"
set style fill solid 0.6 border -1
set grid xtics
set key off
set lmargin 42
set yrange [*:*] reverse
set offsets 0, 0, 0.6, 0.6
set title "throughput (medians; whiskers: slowest to fastest round)\ngrey: direct gRPC, green: stud\\_server's Connect listener, blue: stud\\_web"
set xlabel "calls/s"
set xrange [0:*]
set format x "%.0s%c"
plot many using ($3/2):0:($3/2):(0.35):2:ytic(1) with boxxyerror lc rgb variable, \
     many using 3:0:4:5 with xerrorbars lc rgb "black" pt -1
set format x "%g"
set title "one call at a time: mean (stud\\_loadgen rows: p50)\ncolours as on the left"
set xlabel "µs per call"
plot one using ($3/2):0:($3/2):(0.35):2:ytic(1) with boxxyerror lc rgb variable
set title "CPU per call: stud\\_server (grey),\nand the gateway, all its processes (blue)"
set xlabel "µs of CPU per call"
plot cpu using ($2/2):0:($2/2):(0.35):ytic(1) with boxxyerror lc rgb "#888888", \
     cpu using ($2+$3/2):0:($3/2):(0.35) with boxxyerror lc rgb "#4477aa"
unset multiplot
EOF
gnuplot -e "out='$out'; many='$tmp/many.csv'; one='$tmp/one.csv'; cpu='$tmp/cpu.csv'" "$tmp/plot.gp"
echo "wrote $out"
