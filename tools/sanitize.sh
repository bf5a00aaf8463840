#!/usr/bin/env bash
# Sanitizer runs (docs/reliability.md):
#   tools/sanitize.sh asan   clang, AddressSanitizer + UndefinedBehaviorSanitizer
#                            (-DSTUD_SANITIZE=address,undefined) in build-asan:
#                            every engine, history and service test binary
#   tools/sanitize.sh tsan   clang, ThreadSanitizer (-DSTUD_SANITIZE=thread) in
#                            build-tsan: the service tests that run a real gRPC
#                            server with concurrent calls
#   tools/sanitize.sh        both
# build-asan also builds the libFuzzer harnesses (-DSTUD_FUZZ=ON): one
# instrumented build serves both (ctest -L fuzz runs them through
# tests/fuzz/run_fuzzer.sh; tools/test.sh does so in CI).
# The tests' own code is compiled at -O1 (STUD_TEST_OPTIMIZE's default; the
# code under test keeps -O3): at -O0 the instrumented property tests ran 200-270 s
# each instead of seconds, which cost far more than the compile time it saved.
# Environment: JOBS (default 2), ASAN_BUILD_DIR, TSAN_BUILD_DIR.
# Any sanitizer report aborts the test that triggered it, so the run fails.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS="${JOBS:-2}"
what="${1:-all}"
root=$PWD
supp="$root/tests/sanitizers"

asan() {
  local dir="${ASAN_BUILD_DIR:-build-asan}"
  local t0=$SECONDS
  cmake -S . -B "$dir" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Release \
    -DSTUD_SANITIZE=address,undefined -DSTUD_FUZZ=ON -DSTUD_BUILD_BENCHMARKS=OFF \
    -DSTUD_TEST_OPTIMIZE=-O1 >/dev/null
  # Only the test binaries and the fuzzers (not the server, CLI and load generator).
  local targets
  mapfile -t targets < <(cmake --build "$dir" --target help | sed -n 's/^\.\.\. \([A-Za-z0-9_]*_test\|fuzz_[a-z_]*\)$/\1/p')
  cmake --build "$dir" -j "$JOBS" --target "${targets[@]}"
  echo "sanitize: asan build $((SECONDS - t0)) s"
  t0=$SECONDS
  # gtest binaries only: the e2e, lint, docs and measuring tests exercise other programs.
  local not_gtest='^(Proto|Docs|Examples|Loadgen|EnginePurity|Fuzz|Reliability)\.|^Observability\.(MetricsE2E|TraceE2E|Promtool|GrafanaDashboard|OtlpSchema)'

  (cd "$dir" && \
    ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1" \
    LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    STUD_SHUFFLES=200000 \
    ctest -j "$JOBS" -L "engine|service|history" -LE "e2e" -E "$not_gtest" \
      --output-on-failure --timeout 900)
  echo "sanitize: asan tests $((SECONDS - t0)) s"
}

tsan() {
  local dir="${TSAN_BUILD_DIR:-build-tsan}"
  local t0=$SECONDS
  cmake -S . -B "$dir" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Release \
    -DSTUD_SANITIZE=thread -DSTUD_BUILD_BENCHMARKS=OFF -DSTUD_TEST_OPTIMIZE=-O1 >/dev/null
  local tests=(concurrency_test observability_test service_test tenants_test)
  cmake --build "$dir" -j "$JOBS" --target "${tests[@]}"
  echo "sanitize: tsan build $((SECONDS - t0)) s"
  t0=$SECONDS
  for t in "${tests[@]}"; do
    echo "sanitize: tsan $t"
    TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$supp/tsan.supp" \
      "$dir/tests/service/$t" --gtest_brief=1
  done
  echo "sanitize: tsan tests $((SECONDS - t0)) s"
}

case "$what" in
  asan) asan ;;
  tsan) tsan ;;
  all) asan; tsan ;;
  *) echo "usage: tools/sanitize.sh [asan|tsan|all]" >&2; exit 2 ;;
esac
