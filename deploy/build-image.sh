#!/usr/bin/env bash
# Builds the stud_server image from deploy/Dockerfile, tagged with the version
# and commit (which the image's stud_build_info metric reports too):
#   deploy/build-image.sh [TAG]         (default localhost/stud-server:VERSION-COMMIT)
#   deploy/build-image.sh --web [TAG]   the web gateway, deploy/web.Dockerfile
#                                       (default localhost/stud-web:VERSION-COMMIT)
#   deploy/build-image.sh --prebuilt BINARY [TAG]
#                                       deploy/Dockerfile's runtime stage alone, around
#                                       a stud_server already built on this Debian 12
#                                       machine (stripped, its libraries checked
#                                       against the stage's packages): the image the
#                                       test suite runs, without compiling the server
#                                       a second time in the builder stage
# With a docker daemon: docker build. Otherwise, where no registry can be
# reached (these machines): a Debian 12 base made with debootstrap from
# Debian's archive, imported with podman as localhost/debian:12.11 and
# localhost/debian:12.11-slim (cached as a tarball under $STUD_IMAGE_CACHE,
# default build/image-cache), then buildah build --isolation chroot
# --network host --pull=never. Prints the tag on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
version="$(sed -n 's/^set(STUD_VERSION "\([^"]*\)".*/\1/p' service/CMakeLists.txt)"
commit="$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
image=stud-server dockerfile=deploy/Dockerfile
secret=()
if [ "${1:-}" = --web ]; then
  image=stud-web dockerfile=deploy/web.Dockerfile
  shift
  # The npm registry's CA chain as this machine trusts it (a proxy's CA included).
  cafile="$(npm config get cafile 2>/dev/null || true)"
  [ -s "$cafile" ] || cafile=/etc/ssl/certs/ca-certificates.crt
  [ -s "$cafile" ] && secret=(--secret "id=npm_cafile,src=$cafile")
fi
prebuilt=""
if [ "${1:-}" = --prebuilt ]; then
  prebuilt="${2:?usage: build-image.sh --prebuilt BINARY [TAG]}"
  shift 2
fi
tag="${1:-localhost/${image}:${version}-${commit}}"
args=(--build-arg "STUD_GIT_COMMIT=$commit" --build-arg "STUD_VERSION=$version" "${secret[@]}"
      -f "$dockerfile" -t "$tag" .)
if [ -n "$prebuilt" ]; then
  # The runtime stage exactly as deploy/Dockerfile writes it, its one COPY
  # from the builder stage taking the given binary from the context instead.
  context="$(mktemp -d)"
  trap 'rm -rf "$context"' EXIT
  cp "$prebuilt" "$context/stud_server"
  strip "$context/stud_server"
  deploy/runtime-packages.sh --check "$dockerfile" "$context/stud_server" >&2
  sed -n '/^FROM debian:12.11-slim AS runtime/,$p' "$dockerfile" \
    | sed 's|^COPY --from=build /src/build/service/stud_server |COPY stud_server |' >"$context/Dockerfile"
  grep -q '^COPY stud_server /usr/local/bin/stud_server$' "$context/Dockerfile" || {
    echo "build-image: no runtime stage copying stud_server in $dockerfile" >&2
    exit 2
  }
  args=(-f "$context/Dockerfile" -t "$tag" "$context")
fi

if command -v docker >/dev/null && docker info >/dev/null 2>&1; then
  docker build "${args[@]}" >&2
  echo "$tag"
  exit 0
fi
for tool in buildah podman debootstrap; do
  command -v "$tool" >/dev/null || {
    echo "build-image: no docker daemon and no $tool (apt-get install buildah podman debootstrap uidmap)" >&2
    exit 2
  }
done
if ! podman image exists localhost/debian:12.11; then
  cache="${STUD_IMAGE_CACHE:-build/image-cache}"
  mkdir -p "$cache"
  if [ ! -s "$cache/bookworm-minbase.tar" ]; then
    rootfs="$(mktemp -d)"
    echo "build-image: debootstrap of Debian 12 (bookworm, minbase) ..." >&2
    debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >&2
    tar -C "$rootfs" -cf "$cache/bookworm-minbase.tar" .
    rm -rf "$rootfs"
  fi
  podman import "$cache/bookworm-minbase.tar" localhost/debian:12.11 >&2
  podman tag localhost/debian:12.11 localhost/debian:12.11-slim >&2
fi
buildah build --isolation chroot --network host --pull=never --layers=false "${args[@]}" >&2
echo "$tag"
