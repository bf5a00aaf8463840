#!/usr/bin/env bash
# Installs dependencies, builds the server and the CLI client, and starts the rules service with embedded
# defaults on 127.0.0.1:50051 (no configuration, no external server), and its Connect listener (JSON or
# binary unary calls over HTTP/1.1, no Node needed) on http://127.0.0.1:8081 (CONNECT_LISTEN overrides
# the address; --connect_listen= turns it off):
#   tools/run.sh [stud_server flags...]
# Without a key file the server seals hands with an ephemeral key (it says so).
# The quick start is trusted mode and runs with --allow_deck_reveal, so stud_cli
# (and the playground) check each hand's deck commitment at its end
# (--allow_deck_reveal=false turns that off).
#
#   tools/run.sh --web [stud_server flags...]
# also builds the web gateway (web/, packages from the npm registry) and serves
# the playground page, JSON and gRPC-Web on http://127.0.0.1:8080 in front of
# that server (WEB_LISTEN overrides the address). Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "$0")/.."
web=false
if [ "${1:-}" = --web ]; then web=true; shift; fi
tools/install-deps.sh
BUILD_DIR="${BUILD_DIR:-build}"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)" --target stud_server stud_cli
# Before "$@": a --connect_listen given there wins (the last occurrence of a flag does).
connect="--connect_listen=${CONNECT_LISTEN-127.0.0.1:8081}"
if [ "$web" = false ]; then exec "$BUILD_DIR/service/stud_server" --allow_deck_reveal "$connect" "$@"; fi

upstream=127.0.0.1:50051
prev=""
for a in "$@"; do
  case "$a" in --listen=*) upstream="${a#--listen=}" ;; esac
  [ "$prev" = --listen ] && upstream="$a"
  prev="$a"
done
(cd web && npm install --no-audit --no-fund --loglevel=error && npm run --silent build)
"$BUILD_DIR/service/stud_server" --allow_deck_reveal "$connect" "$@" &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null' EXIT
node web/dist/gateway.mjs --listen="${WEB_LISTEN:-127.0.0.1:8080}" --upstream="$upstream" &
gateway=$!
trap 'kill "$gateway" "$server" 2>/dev/null; wait "$gateway" "$server" 2>/dev/null' EXIT INT TERM
wait "$gateway"
