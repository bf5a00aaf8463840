#!/bin/sh
# The public API (proto/stud/v1) stays wire- and source-compatible with the last
# release: `buf breaking` against the committed image of that release
# (proto/releases/v<latest>.binpb, FILE rules from proto/buf.yaml). Also checks
# that the check bites: a copy of the proto with one field renumbered must fail.
# Usage: buf_breaking_test.sh BUF PROTO_DIR
set -eu
BUF="$1"
PROTO="$2"
BASE=$(ls "$PROTO"/releases/v*.binpb | sort -V | tail -n 1)
echo "baseline: $BASE"
cd "$PROTO"
"$BUF" breaking --against "$BASE" --path stud/v1
echo "ok: stud/v1 is compatible with $(basename "$BASE")"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cp -r "$PROTO"/. "$TMP"/
sed -i 's/^  int64 stack = 2;$/  int64 stack = 20;/' "$TMP/stud/v1/stud.proto"
grep -q 'int64 stack = 20;' "$TMP/stud/v1/stud.proto"
cd "$TMP"
if "$BUF" breaking --against "$BASE" --path stud/v1 >"$TMP/out.txt" 2>&1; then
  echo "FAIL: renumbering SeatConfig.stack was not reported as breaking"
  exit 1
fi
echo "ok: an incompatible change is reported: $(head -n 1 "$TMP/out.txt")"
