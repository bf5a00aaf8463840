#!/usr/bin/env bash
# clang-tidy with the project's .clang-tidy over the project's own sources
# (engine/, history/, service/; tests and tools are not linted). Fails on any
# finding (WarningsAsErrors). ctest Lint.ClangTidy runs it, so CI checks it.
#   tools/check-tidy.sh BUILD_DIR     (needs BUILD_DIR/compile_commands.json)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
if [ ! -f "$build/compile_commands.json" ]; then
  echo "check-tidy: $build/compile_commands.json missing (configure with CMake first)" >&2
  exit 1
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# run-clang-tidy exits non-zero when any file has a finding.
if ! run-clang-tidy -p "$build" -j "${JOBS:-$(nproc)}" -quiet \
    "$(pwd)/(engine|history|service)/.*\.cc$" >"$out" 2>/dev/null; then
  grep -E "(warning|error):" "$out" | sort -u
  echo "check-tidy: findings above (.clang-tidy)" >&2
  exit 1
fi
echo "check-tidy: engine, history and service are clean"
