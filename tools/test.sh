#!/usr/bin/env bash
# The one command that installs every dependency, builds everything and runs
# every test (engine, sweeps, service, end-to-end clients):
#   tools/test.sh
# Environment: BUILD_DIR (default build), JOBS (default: number of cores).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
# The Node client and buf (proto lint) come from the npm registry, pinned by the lockfile.
# (npm install, not npm ci: npm 11 wants lock entries for every platform of buf's optional
# binaries; package.json pins exact versions and the lockfile pins the tree.)
(cd tests/e2e/node && npm install --no-audit --no-fund --loglevel=error)
# Manifest schema validation and Dockerfile lint (kubernetes-models, dockerfilelint).
(cd tests/deploy && npm install --no-audit --no-fund --loglevel=error)
BUILD_DIR="${BUILD_DIR:-build}"
JOBS="${JOBS:-$(nproc)}"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
cmake --build "$BUILD_DIR" -j "$JOBS"
cd "$BUILD_DIR"
ctest --output-on-failure -j "$JOBS" --timeout 900
