#!/usr/bin/env bash
# The one command that installs every dependency, builds everything and runs
# every test (engine, sweeps, service, end-to-end clients):
#   tools/test.sh
# Environment: BUILD_DIR (default build), JOBS (default: number of cores);
# CI=true or STUD_RELIABILITY=1 adds the sanitizer and fuzzing runs.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
# The Node client and buf (proto lint) come from the npm registry, pinned by the lockfile.
# (npm install, not npm ci: npm 11 wants lock entries for every platform of buf's optional
# binaries; package.json pins exact versions and the lockfile pins the tree.)
(cd tests/e2e/node && npm install --no-audit --no-fund --loglevel=error)
# The web gateway and its browser tests (Connect, esbuild, playwright-core driving Debian's chromium).
(cd web && npm install --no-audit --no-fund --loglevel=error)
# Manifest schema validation and Dockerfile lint (kubernetes-models, dockerfilelint).
(cd tests/deploy && npm install --no-audit --no-fund --loglevel=error)
BUILD_DIR="${BUILD_DIR:-build}"
JOBS="${JOBS:-$(nproc)}"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
cmake --build "$BUILD_DIR" -j "$JOBS"
(cd "$BUILD_DIR" && ctest --output-on-failure -j "$JOBS" --timeout 900)

# Reliability (docs/reliability.md), in CI (CI=true) or when STUD_RELIABILITY=1:
# the engine, history and service tests under ASan+UBSan, the concurrent
# service tests under TSan (tools/sanitize.sh: build-asan, build-tsan), then
# every fuzz harness's committed findings and seeds once and FUZZ_SECONDS
# (default 20) of fuzzing each, in the ASan build.
if [ "${CI:-}" = true ] || [ "${STUD_RELIABILITY:-}" = 1 ]; then
  t0=$SECONDS
  JOBS="$JOBS" tools/sanitize.sh all
  (cd "${ASAN_BUILD_DIR:-build-asan}" && FUZZ_SECONDS="${FUZZ_SECONDS:-20}" FUZZ_SEED="${FUZZ_SEED:-1}" \
     ctest -L fuzz -V --timeout 900)
  echo "reliability: sanitizers and fuzzing took $((SECONDS - t0)) s"
fi
