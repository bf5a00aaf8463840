#!/usr/bin/env bash
# The engine's figures of docs/benchmarks.md: builds in Release and runs the
# engine's Google Benchmark binaries (eval_bench, engine_bench); every other
# figure comes from tools/bench/run_all.sh and the scripts it names. Output goes
# to stdout and to build/bench-*.json.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${BUILD_DIR:-build}"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)" --target eval_bench engine_bench
for b in eval_bench engine_bench; do
  "$BUILD_DIR/tests/$b" --benchmark_min_time=1 --benchmark_out="$BUILD_DIR/bench-$b.json" \
    --benchmark_out_format=json
done
