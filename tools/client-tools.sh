#!/usr/bin/env bash
# The client tools a newcomer needs beside stud_cli, without building the
# tests: buf (gRPC curl, through server reflection) from the npm registry,
# pinned by tests/e2e/node/package-lock.json. Prints the path to run.
#   tools/client-tools.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v npm >/dev/null || { echo "client-tools: npm missing (apt-get install nodejs npm)" >&2; exit 1; }
(cd tests/e2e/node && npm install --no-audit --no-fund --loglevel=error >/dev/null)
buf="$(pwd)/tests/e2e/node/node_modules/.bin/buf"
"$buf" --version >/dev/null
echo "$buf"
