#!/usr/bin/env bash
# Fails when any of the project's C++ files differs from .clang-format
# (ctest Format.ClangFormat, so CI checks it). To fix: tools/check-format.sh --fix
set -euo pipefail
cd "$(dirname "$0")/.."
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cc' '*.h' | grep -v '^proto/')
else
  mapfile -t files < <(find engine service history tools tests examples -name '*.cc' -o -name '*.h' | sort)
fi
if [ "${1:-}" = --fix ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
clang-format --dry-run --Werror "${files[@]}"
echo "check-format: ${#files[@]} files match .clang-format"
