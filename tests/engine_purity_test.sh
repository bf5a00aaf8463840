#!/usr/bin/env bash
# Fails when any engine source includes gRPC, protobuf or Prometheus headers,
# or reaches for I/O, clocks or randomness: the engine is a pure rules core.
set -u
dir="${1:?engine dir}"
bad=$(grep -nE '#include *[<"](grpc|grpcpp|google/protobuf|prometheus|iostream|fstream|cstdio|chrono|random|thread|sodium)' "$dir"/*.h "$dir"/*.cc)
if [ -n "$bad" ]; then
  echo "engine/ must stay pure; offending includes:"; echo "$bad"; exit 1
fi
echo "engine/ includes nothing from gRPC, protobuf, Prometheus, I/O, clocks or randomness"
