#!/usr/bin/env bash
# Offline checks of deploy/Dockerfile and deploy/web.Dockerfile (no container engine here):
#   npm dockerfilelint (exit code = number of issues), then project rules:
#   pinned base images, builder = tools/install-deps.sh + tools/test.sh's
#   configure line, non-root USER in the last stage, no secrets, EXPOSE present,
#   every runtime package exists in apt (apt-cache policy), and every library
#   the built stud_server loads comes from a package the runtime stage installs.
#   The web gateway's image gets the checks that are not about stud_server.
# Usage: dockerfile_test.sh REPO_ROOT STUD_SERVER_BINARY
set -uo pipefail
root="$1"; bin="$2"
df="$root/deploy/Dockerfile"
lint="$root/tests/deploy/node_modules/.bin/dockerfilelint"
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# The checks every image of the project passes.
image_checks() {
  local df="$1" last user pkgs cand
  echo "== $df"
  if [ ! -x "$lint" ]; then
    bad "dockerfilelint missing: run npm install in tests/deploy (tools/test.sh does)"
  elif "$lint" "$df"; then ok "dockerfilelint"; else bad "dockerfilelint found issues"; fi

  # Base images: a tag with a version number (or a digest), never latest or bare.
  while read -r _ image _; do
    case "$image" in
      *@sha256:*) ok "base $image pinned by digest" ;;
      *:latest|*:*latest*) bad "base $image uses latest" ;;
      *:*[0-9]*) ok "base $image pinned" ;;
      *) bad "base $image is not pinned to a version" ;;
    esac
  done < <(grep -E '^FROM ' "$df")

  last="$(awk '/^FROM /{s=""} {s=s $0 "\n"} END{printf "%s", s}' "$df")"
  user="$(grep -E '^USER ' <<<"$last" | tail -1 | awk '{print $2}')"
  case "${user%%:*}" in
    ""|root|0) bad "last stage must switch to a non-root USER (got '${user}')" ;;
    *) ok "runs as USER $user" ;;
  esac
  grep -Eiq '^(ENV|ARG) .*(KEY|SECRET|PASSWORD|TOKEN)' "$df" && bad "no secrets in ENV/ARG" || ok "no secret ENV/ARG"
  grep -Eiq '^(COPY|ADD) .*(keys|\.pem|\.key)' "$df" && bad "no key files copied in" || ok "no key files copied"
  grep -Eq '^EXPOSE ' <<<"$last" && ok "EXPOSE $(grep -E '^EXPOSE ' <<<"$last" | cut -d' ' -f2-)" || bad "no EXPOSE"

  # Runtime packages exist in the archive.
  pkgs="$(sed 's/\\$//' <<<"$last" | tr '\n' ' ' | grep -o 'apt-get install[^&]*' | tr ' ' '\n' \
    | grep -v -e '^-' -e '^apt-get$' -e '^install$' -e '^$' | sort -u)"
  [ -n "$pkgs" ] || bad "no runtime apt-get install found"
  for p in $pkgs; do
    cand="$(apt-cache policy "$p" 2>/dev/null | awk '/Candidate:/{print $2}')"
    if [ -z "$cand" ] || [ "$cand" = "(none)" ]; then bad "runtime package $p has no candidate in apt"
    else ok "runtime package $p $cand"; fi
  done
}
image_checks "$df"
# Same build as CI.
grep -q 'RUN tools/install-deps.sh' "$df" && ok "builder runs tools/install-deps.sh" \
  || bad "builder must run tools/install-deps.sh"
# (The generator tools/test.sh may pick, Ninja for a new directory, does not matter.)
configure="$(grep -o 'cmake -S \. -B "\$BUILD_DIR" .*' "$root/tools/test.sh" | head -1 \
  | sed 's/ "\${generator\[@\]}"//' | grep -o 'cmake -S \. -B "\$BUILD_DIR" [^ ]*' \
  | sed 's/"\$BUILD_DIR"/build/')"
if [ -n "$configure" ] && grep -qF -- "$configure" "$df"; then ok "builder configures like tools/test.sh ($configure)"
else bad "builder must configure like tools/test.sh (${configure:-not found})"; fi

if "$root/deploy/runtime-packages.sh" --check "$df" "$bin"; then ok "runtime libraries cover $bin"
else bad "runtime stage lacks libraries of $bin"; fi

image_checks "$root/deploy/web.Dockerfile"

echo "dockerfile_test: $fails failure(s)"
[ "$fails" -eq 0 ]
