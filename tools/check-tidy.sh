#!/usr/bin/env bash
# clang-tidy with the project's .clang-tidy over the project's own sources
# (engine/, text/, history/, service/; tests and tools are not linted). Fails on any
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
db=$(mktemp -d)
trap 'rm -rf "$out" "$db"' EXIT
# The build's compile commands for clang-tidy: its own precompiled header in
# place of GCC's, the generated headers as system headers (the script says why).
files="$(pwd)/(engine|text|history|service)/.*\.cc$"
python3 tools/tidy_compile_commands.py "$build" "$db" "$files"
# clang-tidy 22 (Debian's clang-tidy-22, tools/install-deps.sh): it no longer
# runs its checks over the system headers' declarations, which was most of
# clang-tidy 14's time (15 CPU-s for a service file, 7.7 then). The whole tree
# took 451 CPU-s before the compile commands above, about 250 with them.
tidy=run-clang-tidy-22
command -v "$tidy" >/dev/null || { echo "check-tidy: $tidy missing (tools/install-deps.sh)" >&2; exit 1; }
# run-clang-tidy exits non-zero when any file has a finding.
if ! "$tidy" -p "$db" -j "${JOBS:-$(nproc)}" -quiet -clang-tidy-binary clang-tidy-22 \
    "$files" >"$out" 2>/dev/null; then
  grep -E "(warning|error):" "$out" | sort -u
  echo "check-tidy: findings above (.clang-tidy)" >&2
  exit 1
fi
echo "check-tidy: engine, history and service are clean"
