#!/usr/bin/env bash
# Installs every build and test dependency from Debian's packages (bookworm).
# Works as root or through sudo. Safe to run again.
#   tools/install-deps.sh            everything (build, tests, tools)
#   tools/install-deps.sh --server   only what building stud_server needs (the
#                                    image's builder stage, deploy/Dockerfile)
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

SERVER_PACKAGES=(
  g++ cmake make pkg-config ca-certificates
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libabsl-dev prometheus-cpp-dev libsodium-dev libgcrypt20-dev libhiredis-dev libjemalloc-dev libmicrohttpd-dev
)
PACKAGES=(
  g++ cmake make ninja-build pkg-config ca-certificates
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler grpc-proto
  libabsl-dev prometheus-cpp-dev libgtest-dev libgmock-dev libbenchmark-dev libsodium-dev libgcrypt20-dev
  # stud_server's allocator (STUD_MALLOC, service/CMakeLists.txt).
  libjemalloc-dev
  # stud_server's Connect listener (--connect_listen): HTTP/1.1 by GNU libmicrohttpd.
  libmicrohttpd-dev
  # The hand ledger's Redis client (stud_server --ledger) and the server its tests start.
  libhiredis-dev redis-server
  python3 python3-grpcio python3-grpc-tools python3-protobuf
  # Ed25519 for the receipt verifier (tools/fairness/verify.py).
  python3-nacl
  nodejs npm
  # Real components the tests start: Prometheus (and promtool), gRPC-aware load
  # balancers, YAML lint for manifests, h2load.
  prometheus nginx haproxy yamllint nghttp2-client
  # Reliability and security: certificates for the TLS tests; clang and its
  # runtimes for libFuzzer and the sanitizer builds.
  openssl clang libclang-rt-14-dev
  # LLVM's linker (CMake's STUD_USE_LLD): links in a third of GNU ld's time.
  lld
  # Formatting and lint are checked by ctest Format.ClangFormat
  # (tools/check-format.sh) and Lint.ClangTidy (tools/check-tidy.sh).
  clang-format clang-tidy-22 git
  # The container image is built and run by ctest Deploy.Image without a
  # registry or a Docker daemon (deploy/build-image.sh).
  buildah podman debootstrap uidmap curl
  # The playground page's browser tests (ctest Web.Playground).
  chromium fonts-dejavu-core
  # The benchmark plots (tools/bench/plot_gateway.sh, plot_service.sh; ctest Docs.BenchmarkPlots).
  gnuplot-nox
)

if [ "${1:-}" = --server ]; then PACKAGES=("${SERVER_PACKAGES[@]}"); fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# node/npm may come from elsewhere than Debian (the image may ship them); accept any working copy.
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=("${missing[@]/nodejs}"); missing=("${missing[@]/npm}")
fi
clean=()
for p in "${missing[@]}"; do [ -n "$p" ] && clean+=("$p"); done
if [ "${#clean[@]}" -gt 0 ]; then
  echo "install-deps: installing ${clean[*]}"
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends "${clean[@]}"
else
  echo "install-deps: all Debian packages present"
fi
