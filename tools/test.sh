#!/usr/bin/env bash
# The one command that installs every dependency, builds everything and runs
# every test (engine, sweeps, service, end-to-end clients):
#   tools/test.sh
# Environment: BUILD_DIR (default build), JOBS (default: number of cores);
# CI=true or STUD_RELIABILITY=1 adds the sanitizer and fuzzing runs.
# Each stage prints "stage NAME took N s" (docs/reliability.md, "CI time"), and
# the run ends with all of them together.
set -euo pipefail
cd "$(dirname "$0")/.."
stage_t0=$SECONDS
# CPU seconds used by the finished children of this script (user + system,
# /proc/PID/stat cutime and cstime): unlike wall time, other load on the
# machine does not change it. A background job counts once waited for.
ticks=$(getconf CLK_TCK)
cpu_s() { local f; read -ra f </proc/$$/stat; echo $(((f[15] + f[16]) / ticks)); }
stage_cpu0=$(cpu_s)
stages=()
stage_done() {
  local wall=$((SECONDS - stage_t0)) cpu=$(($(cpu_s) - stage_cpu0))
  stages+=("$(printf '%-44s %5d s %6d CPU-s' "$1" "$wall" "$cpu")")
  echo "stage $1 took $wall s ($cpu CPU-s)"
  stage_t0=$SECONDS
  stage_cpu0=$(cpu_s)
}
reliability=false
if [ "${CI:-}" = true ] || [ "${STUD_RELIABILITY:-}" = 1 ]; then reliability=true; fi

tools/install-deps.sh
stage_done deps
# The Node client and buf (proto lint) come from the npm registry, pinned by the lockfile.
# (npm install, not npm ci: npm 11 wants lock entries for every platform of buf's optional
# binaries; package.json pins exact versions and the lockfile pins the tree.)
# The web gateway and its browser tests (Connect, esbuild, playwright-core driving Debian's chromium).
# Manifest schema validation and Dockerfile lint (kubernetes-models, dockerfilelint).
# The three at once (they wait on the registry, not the CPU); all before CMake,
# which looks for buf.
npm_pids=()
for tree in tests/e2e/node web tests/deploy; do
  (cd "$tree" && npm install --no-audit --no-fund --loglevel=error) &
  npm_pids+=($!)
done
for pid in "${npm_pids[@]}"; do wait "$pid"; done
stage_done npm
BUILD_DIR="${BUILD_DIR:-build}"
JOBS="${JOBS:-$(nproc)}"
# Ninja for a new build directory (its scheduling keeps both cores busy across
# targets); an existing one keeps the generator it was made with.
generator=()
if [ ! -f "$BUILD_DIR/CMakeCache.txt" ] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
# With the sanitizer runs to follow, the tests they run (tests/sanitized_tests.txt:
# every engine and history test, the hostile-input and codec service tests) are
# built and run there only, instrumented, not a second time here; the sweeps,
# which play a fraction of their hands there, run here too at full size.
cmake -S . -B "$BUILD_DIR" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DSTUD_TESTS_SANITIZED_ELSEWHERE="$($reliability && echo ON || echo OFF)"
cmake --build "$BUILD_DIR" -j "$JOBS"
stage_done build

# Reliability (docs/reliability.md), in CI (CI=true) or when STUD_RELIABILITY=1:
# the engine and history tests and the listed service tests under ASan+UBSan, the concurrent
# service tests under TSan (tools/sanitize.sh: build-asan, build-tsan), then
# every fuzz harness's committed findings and seeds once and FUZZ_SECONDS
# (default 10) of fuzzing each, in the ASan build.
# The sanitizer builds and runs start now, at nice 19, beside the Release
# tests: most of those wait on servers, sockets and timers and leave the cores
# idle, and at nice 19 a compiler yields the CPU to any test that wants it.
# Their own process group (set -m), so a failed Release test, which ends the
# run, ends them with it; the same session (not setsid): with the kernel's
# autogroups a new session would get a scheduling group of its own and share
# the CPU equally with the tests whatever its nice value. The fuzzers run
# after, alone, since they fuzz for a set time.
san_pid=""
san_log="$BUILD_DIR/sanitize.log"
if $reliability; then
  set -m
  JOBS="$JOBS" nice -n 19 tools/sanitize.sh all >"$san_log" 2>&1 &
  san_pid=$!
  set +m
  trap '[ -n "$san_pid" ] && kill -- "-$san_pid" 2>/dev/null; true' EXIT
fi
(cd "$BUILD_DIR" && ctest --output-on-failure -j "$JOBS" --timeout 900)
stage_done ctest

if $reliability; then
  t0=$SECONDS
  # What is left of them now has the cores to itself: back to this script's
  # priority (on a shared machine nice 19 would starve it; needs permission).
  renice -n "$(nice)" -g "$san_pid" >/dev/null 2>&1 || true
  san_rc=0
  wait "$san_pid" || san_rc=$?
  san_pid=""
  cat "$san_log"
  [ "$san_rc" -eq 0 ] || { echo "tools/sanitize.sh failed (exit $san_rc)"; exit 1; }
  stage_done "sanitizers (what was left after ctest)"
  # One fuzzer per core (each harness is single-threaded).
  (cd "${ASAN_BUILD_DIR:-build-asan}" && FUZZ_SECONDS="${FUZZ_SECONDS:-10}" FUZZ_SEED="${FUZZ_SEED:-1}" \
     ctest -L fuzz -V -j "$JOBS" --timeout 900)
  stage_done fuzz
  echo "reliability: sanitizers and fuzzing took $((SECONDS - t0)) s after the Release tests"
fi
echo "stage times:"
printf '  %s\n' "${stages[@]}"
if $reliability; then grep '^sanitize: .* [0-9]* s$' "$BUILD_DIR/sanitize.log" | sed 's/^/  /' || true; fi
echo "tools/test.sh took $SECONDS s ($(cpu_s) CPU-s)"
