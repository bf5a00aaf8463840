#!/usr/bin/env bash
# Sanitizer runs (docs/reliability.md):
#   tools/sanitize.sh asan   clang, AddressSanitizer + UndefinedBehaviorSanitizer
#                            (-DSTUD_SANITIZE=address,undefined) in build-asan:
#                            every engine and history test binary, and the
#                            service test binaries that reach every RPC and
#                            decoder with hostile, random and concurrent input
#                            (tests/sanitized_tests.txt)
#   tools/sanitize.sh tsan   clang, ThreadSanitizer (-DSTUD_SANITIZE=thread) in
#                            build-tsan: the service tests of the code that runs
#                            on many threads (tests/sanitized_tests.txt)
#   tools/sanitize.sh        both
# STUD_SANITIZE_ALL=1: every service test binary under ASan+UBSan, and the
# wider TSan list, as before CI had to fit in 25 minutes.
# build-asan also builds the libFuzzer harnesses (-DSTUD_FUZZ=ON): one
# instrumented build serves both (ctest -L fuzz runs them through
# tests/fuzz/run_fuzzer.sh; tools/test.sh does so in CI).
# The ASan build is compiled at -O1, the code under test too (ASan's
# recommended level; at -O0 the instrumented property tests ran 200-270 s
# each, at -O3 the instrumented library files cost twice the compile time).
# The TSan build at -O0: its tests wait on threads and sockets more than they
# compute, and -O0 compiles the service stack faster (stud_service.cc 15.2 ->
# 9.2 CPU-s). The TSan stage took 131 s instead of 157 (build 120 s against
# 151, tests 11 s against 6).
# Environment: JOBS (default 2), ASAN_BUILD_DIR, TSAN_BUILD_DIR, STUD_SANITIZE_ALL.
# Any sanitizer report aborts the test that triggered it, so the run fails.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS="${JOBS:-2}"
what="${1:-all}"
root=$PWD
supp="$root/tests/sanitizers"
all="${STUD_SANITIZE_ALL:-0}"
# The listed tests (tests/sanitized_tests.txt: every engine and history test,
# the service tests that reach every RPC and decoder, the threaded code).
listed() { awk -v s="$1" '$1 == s && $2 !~ /\*/ {print $2}' "$root/tests/sanitized_tests.txt"; }
mapfile -t ASAN_SERVICE_TESTS < <(listed asan)
mapfile -t TSAN_TESTS < <(listed tsan)
# The folders listed whole ("asan engine/*"): every test binary in them.
mapfile -t ASAN_FOLDERS < <(awk '$1 == "asan" && $2 ~ /\/\*$/ {sub(/\/\*$/, "", $2); print $2}' \
  "$root/tests/sanitized_tests.txt")
if [ "$all" = 1 ]; then TSAN_TESTS+=(service_test tenants_test ledger_watch_test); fi
# Ninja for a new build directory (its scheduling keeps both cores busy across
# targets); an existing one keeps the generator it was made with.
generator() { if [ ! -f "$1/CMakeCache.txt" ] && command -v ninja >/dev/null; then echo "-GNinja"; fi; }
# The level for the code under test (-O1 ASan, -O0 TSan, above); the tests'
# own code as in any build (tests/CMakeLists.txt: -O0, -O1 for the tests that
# compute).
asan_optimize=(-DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG")
tsan_optimize=(-DCMAKE_CXX_FLAGS_RELEASE="-O0 -DNDEBUG")

asan() {
  local dir="${ASAN_BUILD_DIR:-build-asan}"
  local t0=$SECONDS
  cmake -S . -B "$dir" $(generator "$dir") -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Release \
    -DSTUD_SANITIZE=address,undefined -DSTUD_FUZZ=ON -DSTUD_BUILD_BENCHMARKS=OFF \
    "${asan_optimize[@]}" >/dev/null
  # The test binaries and the fuzzers (not the server, CLI and load generator):
  # every test of the folders listed whole, the listed service tests (all of
  # them with STUD_SANITIZE_ALL=1).
  local targets=() t folder
  for folder in "${ASAN_FOLDERS[@]}"; do
    for t in "$root/tests/$folder"/*_test.cc; do targets+=("$(basename "$t" .cc)"); done
  done
  if [ "$all" = 1 ]; then
    for t in "$root"/tests/service/*_test.cc; do targets+=("$(basename "$t" .cc)"); done
  else
    targets+=("${ASAN_SERVICE_TESTS[@]}")
  fi
  for t in "$root"/tests/fuzz/fuzz_*.cc; do targets+=("$(basename "$t" .cc)"); done
  cmake --build "$dir" -j "$JOBS" --target "${targets[@]}"
  echo "sanitize: asan build $((SECONDS - t0)) s"
  t0=$SECONDS
  # gtest binaries only: the e2e, lint, docs and measuring tests exercise other
  # programs; a test binary not built here shows up as <target>_NOT_BUILT.
  local not_gtest='^(Proto|Docs|Examples|Loadgen|EnginePurity|Fuzz|Fairness|Reliability)\.|^Observability\.(MetricsE2E|TraceE2E|Promtool|GrafanaDashboard|OtlpSchema)'

  (cd "$dir" && \
    ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1" \
    LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    STUD_SHUFFLES=200000 \
    ctest -j "$JOBS" -L "engine|service|history" -LE "e2e" -E "$not_gtest|_NOT_BUILT" \
      --output-on-failure --timeout 900)
  echo "sanitize: asan tests $((SECONDS - t0)) s"
}

tsan() {
  local dir="${TSAN_BUILD_DIR:-build-tsan}"
  local t0=$SECONDS
  cmake -S . -B "$dir" $(generator "$dir") -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Release \
    -DSTUD_SANITIZE=thread -DSTUD_BUILD_BENCHMARKS=OFF "${tsan_optimize[@]}" >/dev/null
  local tests=("${TSAN_TESTS[@]}")
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
