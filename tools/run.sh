#!/usr/bin/env bash
# Installs dependencies, builds the server and the CLI client, and starts the rules service with embedded
# defaults on 127.0.0.1:50051 (no configuration, no external server):
#   tools/run.sh [stud_server flags...]
# Without a key file the server seals hands with an ephemeral key (it says so).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
BUILD_DIR="${BUILD_DIR:-build}"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)" --target stud_server stud_cli
exec "$BUILD_DIR/service/stud_server" "$@"
