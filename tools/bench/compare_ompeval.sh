#!/usr/bin/env bash
# Our 7-card evaluator against OMPEval (github.com/zekyll/OMPEval, ISC licence)
# side by side: same hands, same process, same run; prints evaluations/s and
# the ratios (see tools/bench/ompeval_compare.cc).
#
# OMPEval is a comparison only. Its source is extracted from a git clone
# into a temporary directory, compiled there with the same flags as our
# Release engine (-O3 -DNDEBUG, no -march), and deleted afterwards; nothing of
# it is committed or installed. Not run by CI.
#
# Usage: tools/bench/compare_ompeval.sh [hands] [rounds] [round_ms] [modes]
#   modes         optional comma-separated mode numbers to time besides OMPEval's
#                 (e.g. 1,2 for the prepared HighRank/HighValue); default all
#   OMPEVAL_GIT   bare git dir or clone of OMPEval (default: ../OMPEval beside the project,
#                 e.g. git clone https://github.com/zekyll/OMPEval ../OMPEval)
#   CXXFLAGS_CMP  compile flags for both sides (default "-O3 -DNDEBUG")
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
src="${OMPEVAL_GIT:-$root/../OMPEval}"
flags=${CXXFLAGS_CMP:-"-O3 -DNDEBUG"}
if [ ! -e "$src" ]; then
  echo "OMPEval source not found at $src (set OMPEVAL_GIT)" >&2
  exit 2
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/ompeval"
git -C "$src" archive HEAD | tar -x -C "$tmp/ompeval"
echo "OMPEval commit $(git -C "$src" rev-parse --short HEAD); flags: $flags; $(g++ --version | head -1)"
# shellcheck disable=SC2086
g++ -std=c++20 $flags -I"$root" -I"$tmp/ompeval" -o "$tmp/ompeval_compare" \
  "$root/tools/bench/ompeval_compare.cc" "$root/engine/hand_eval.cc" "$root/engine/hand_key.cc" \
  "$root/engine/card.cc" \
  "$tmp/ompeval/omp/HandEvaluator.cpp" \
  $(pkg-config --libs absl_strings absl_str_format absl_status absl_statusor)
"$tmp/ompeval_compare" "$@"
