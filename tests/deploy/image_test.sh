#!/usr/bin/env bash
# The container image built and run (label "deploy"):
#   image_test.sh ROOT STUD_CLI STUD_SERVER
# Builds the image with deploy/build-image.sh --prebuilt STUD_SERVER
# (debootstrap + buildah here): deploy/Dockerfile's runtime stage around the
# server this build made, so the suite does not compile the server a second
# time in the builder stage (about 5 minutes of CPU; the builder stage is
# checked by Deploy.Dockerfile, and `deploy/build-image.sh` alone builds it).
# Then from the image: the user is 10001, no key material and no build tools are in
# the runtime stage, the server starts as uid 10001, plays a LIVE hand file
# driven by stud_cli from outside, and its metrics report the build's commit.
# Then deploy/local-stack.sh --image runs the stack's replicas from it: a hand
# through nginx, a replica restarted gracefully, another hand. Prints the
# runtime image's size and its size above the base.
# Exit 77 (skipped, with the reason) only when buildah cannot run at all.
set -euo pipefail
root="$1"
cli="$2"
server_binary="$3"
cd "$root"
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }
for tool in buildah podman debootstrap; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool missing (tools/install-deps.sh installs it)"; exit 77; }
done

t0=$SECONDS
tag="localhost/stud-server:test"
deploy/build-image.sh --prebuilt "$server_binary" "$tag" >/tmp/stud-image-build.$$.log 2>&1 \
  || { tail -40 /tmp/stud-image-build.$$.log; fail "deploy/build-image.sh"; }
rm -f /tmp/stud-image-build.$$.log
ok "image built in $((SECONDS - t0)) s"

c="$(buildah from "$tag")"
server="" port="" stack=""
cleanup() {  # on every exit, failures included: nothing is left running
  set +e  # a process already gone must not change the exit status
  [ -n "$server" ] && kill "$server" 2>/dev/null
  [ -n "$port" ] && pkill -f "stud_server --listen=127.0.0.1:$port" 2>/dev/null
  [ -n "$stack" ] && kill "$stack" 2>/dev/null && wait "$stack" 2>/dev/null
  buildah rm "$c" >/dev/null 2>&1
  true
}
trap cleanup EXIT
inside() { buildah run --isolation chroot --network host "$@"; }

[ "$(buildah inspect --format '{{.OCIv1.Config.User}}' "$tag")" = "10001:10001" ] \
  && ok "image user 10001:10001" || fail "image user is not 10001:10001"
tools="$(inside "$c" -- sh -c 'for t in g++ gcc cc c++ cmake make clang protoc git node npm; do command -v $t; done; true' 2>/dev/null)"
[ -z "$tools" ] && ok "no build tools in the runtime stage" || fail "build tools in the runtime stage: $tools"
keys="$(inside "$c" -- sh -c 'find / -xdev \( -name "*.keys" -o -name "*.pem" -o -name "keys" -o -path "/etc/stud*" \) \
  -not -path "/etc/ssl/*" -not -path "/usr/share/*" -not -path "/proc/*" 2>/dev/null; true' 2>/dev/null)"
[ -z "$keys" ] && ok "no key material in the image" || fail "key material in the image: $keys"

port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
mport="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
log="$(mktemp)"
inside --user 10001:10001 "$c" -- /usr/local/bin/stud_server "--listen=127.0.0.1:$port" \
  "--metrics_listen=127.0.0.1:$mport" >"$log" 2>&1 &
server=$!
for _ in $(seq 100); do grep -q "stud_server listening on" "$log" && break; sleep 0.1; done
grep -q "stud_server listening on" "$log" || { cat "$log"; fail "the server in the image did not start"; }
ok "server started from the image: $(grep -o 'stud_server listening on .*' "$log")"
uid="$(ps -o uid= -p "$(pgrep -n -f "stud_server --listen=127.0.0.1:$port")" | tr -d ' ')"
[ "$uid" = 10001 ] && ok "server runs as uid 10001" || fail "server runs as uid $uid"
played="$("$cli" --server "127.0.0.1:$port" --timeout 10 run tools/cli/examples/live_exposed_holecard.hand || true)"
grep -q "^PASS" <<<"$played" && ok "a LIVE hand file played through the image's server" \
  || fail "hand file through the image's server"
# The commit this build was configured at (the server's start-up line), a
# real one, reported by the metric too.
commit="$(grep -o '"commit":"[0-9a-f]*"' "$log" | head -1 | cut -d'"' -f4)"
[ "${#commit}" = 12 ] || fail "the start-up line names no 12-digit commit: $(grep -o '"commit":"[^"]*"' "$log")"
# Whole outputs first: grep -q closing a pipe early would fail it (pipefail).
metrics="$(curl -fsS "http://127.0.0.1:$mport/metrics")"
grep -q "stud_build_info{.*commit=\"$commit\"" <<<"$metrics" \
  && ok "metrics scraped: stud_build_info reports commit $commit" || fail "stud_build_info commit"
kill "$server" 2>/dev/null || true
pkill -f "stud_server --listen=127.0.0.1:$port" 2>/dev/null || true
wait "$server" 2>/dev/null || true
rm -f "$log"

# The local stack with its replicas running from the image: a hand through
# nginx, a graceful restart of one replica, another hand.
stackdir="$(mktemp -d)"
deploy/local-stack.sh --image "$tag" --dir "$stackdir" --no-prometheus >"$stackdir.log" 2>&1 &
stack=$!
for _ in $(seq 120); do grep -q '^READY=1' "$stackdir/stack.env" 2>/dev/null && break; sleep 0.5; done
grep -q '^READY=1' "$stackdir/stack.env" 2>/dev/null || { tail -20 "$stackdir.log"; fail "local-stack.sh --image did not start"; }
lb="$(sed -n 's/^LB_ADDR=//p' "$stackdir/stack.env")"
[ "$(pgrep -u 10001 -c -f "^/usr/local/bin/stud_server --listen" || true)" -ge 3 ] \
  && ok "local-stack.sh --image: three replicas from the image, as uid 10001" || fail "image replicas"
played="$("$cli" --server "$lb" --timeout 10 run tools/cli/examples/live_exposed_holecard.hand || true)"
grep -q "^PASS" <<<"$played" || fail "a hand through the image stack"
restarted="$(deploy/local-stack.sh restart 2 --dir "$stackdir" 2>/dev/null)"
grep -q "replica 2 exit 0" <<<"$restarted" \
  && ok "image replica 2 drained and exited 0 on SIGTERM" || fail "image replica restart: $restarted"
played="$("$cli" --server "$lb" --timeout 10 run tools/cli/examples/live_exposed_holecard.hand || true)"
grep -q "^PASS" <<<"$played" && ok "a hand through the image stack after the restart" || fail "a hand after the restart"
kill "$stack" 2>/dev/null || true
wait "$stack" 2>/dev/null || true
rm -rf "$stackdir" "$stackdir.log"

size() { podman image inspect --format '{{.Size}}' "$1"; }
rt="$(size "$tag")"
base="$(size localhost/debian:12.11-slim)"
echo "runtime image: $((rt / 1000000)) MB, $(((rt - base) / 1000000)) MB above its base (localhost/debian:12.11-slim, $((base / 1000000)) MB); test took $((SECONDS - t0)) s"
buildah rmi "$tag" >/dev/null 2>&1 || true
