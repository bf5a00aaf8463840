#!/usr/bin/env bash
# tools/bench/plot_service.sh on the recorded CSVs in docs/benchmarks: it must
# write three well-formed SVGs that carry every series (one x label per row of
# instructions.csv, so a row added there shows), docs/benchmarks.md must show
# them, and a summary with no rows must be refused rather than plotted empty.
# Nothing here is timed.
#
#   tests/bench/plot_service_test.sh SOURCE_DIR
set -euo pipefail
src="${1:?usage: plot_service_test.sh SOURCE_DIR}"
data="$src/docs/benchmarks"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$src/tools/bench/plot_service.sh" "$data" "$tmp" || fail "plot_service.sh failed on $data"
for svg in service_throughput service_latency instructions; do
  [ -s "$tmp/$svg.svg" ] || fail "$svg.svg not written"
  python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$tmp/$svg.svg" \
    || fail "$svg.svg is not well-formed XML"
  grep -qF "(benchmarks/$svg.svg)" "$src/docs/benchmarks.md" || fail "docs/benchmarks.md does not show $svg.svg"
done

# Every shape of the summary has its panel and both series.
while IFS=, read -r rpc detail _; do
  case "$rpc:$detail" in
    apply_action:full) title="ApplyAction, full update" ;;
    apply_action:changes) title="ApplyAction, changes only" ;;
    new_hand:full) title="NewHand" ;;
    *) continue ;;
  esac
  grep -q "$title" "$tmp/service_throughput.svg" || fail "no panel for $rpc $detail"
done < <(tail -n +2 "$data/service_summary.csv")
for svg in service_throughput service_latency; do
  for series in "do-nothing twin" "stud_server"; do
    grep -q "$series" "$tmp/$svg.svg" || fail "$svg.svg lacks the series $series"
  done
done

# One x label per change, whatever the number of rows.
while IFS=, read -r change _; do
  change="${change//\"/}"
  grep -qF ">$change<" "$tmp/instructions.svg" || fail "instructions.svg lacks the change '$change'"
done < <(tail -n +2 "$data/instructions.csv")

# A summary without rows is an error, not an empty plot.
mkdir "$tmp/empty"
cp "$data"/service_latency_summary.csv "$data"/instructions.csv "$tmp/empty/"
head -1 "$data/service_summary.csv" >"$tmp/empty/service_summary.csv"
if "$src/tools/bench/plot_service.sh" "$tmp/empty" "$tmp/empty" 2>/dev/null; then
  fail "plot_service.sh accepted a summary without rows"
fi
echo "plots OK"
