#!/usr/bin/env bash
# Prints the Debian packages that provide the shared libraries a binary loads:
#   deploy/runtime-packages.sh BINARY
# With --check DOCKERFILE BINARY, fails (exit 1) when one of them is missing
# from the apt-get install list of the Dockerfile's last stage, so the runtime
# image cannot lack a library the build linked.
set -euo pipefail
check=""
if [ "${1:-}" = "--check" ]; then check="$2"; shift 2; fi
bin="${1:?usage: runtime-packages.sh [--check Dockerfile] BINARY}"

needed() {
  # ldd lines "libx.so.N => /path (0x...)"; dpkg knows the path as installed
  # (/lib/... on merged-/usr systems) or its resolved form, so both are asked,
  # in one dpkg -S (it reads its file lists once per call: one call per
  # library took 40 CPU-s for the server's 75 libraries).
  local libs=() paths=() owned lib
  mapfile -t libs < <(ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// {print $3}')
  [ "${#libs[@]}" -gt 0 ] || return 0
  for lib in "${libs[@]}"; do paths+=("$lib" "$(readlink -f "$lib")"); done
  # "pkg[:arch]: /path" for each path a package owns; a path no package owns
  # is only reported on stderr (and dpkg exits 1), which is the other form.
  owned="$(dpkg -S "${paths[@]}" 2>/dev/null | grep -E '^[^ ]+: /' || true)"
  local owned_paths
  owned_paths="$(awk '{ sub(/^[^ ]*: /, ""); print }' <<<"$owned")"
  for lib in "${libs[@]}"; do
    if ! grep -qxF -e "$lib" -e "$(readlink -f "$lib")" <<<"$owned_paths"; then
      echo "runtime-packages: no package owns $lib" >&2
    fi
  done
  cut -d: -f1 <<<"$owned" | sort -u
}
# In every Debian image already (Essential or required by apt itself).
base_re='^(libc6|libgcc-s1|libstdc\+\+6|libzstd1|zlib1g|libgcrypt20|libgpg-error0|liblz4-1|liblzma5|libsystemd0|libcap2)$'

pkgs="$(needed)"
if [ -z "$check" ]; then echo "$pkgs"; exit 0; fi

# Packages installed by the last stage: words after "apt-get install" up to the
# next "&&", options dropped.
listed="$(awk '/^FROM /{stage=""} {stage=stage $0 "\n"} END{printf "%s", stage}' "$check" \
  | sed 's/\\$//' | tr '\n' ' ' | grep -o 'apt-get install[^&]*' | tr ' ' '\n' \
  | grep -v -e '^-' -e '^apt-get$' -e '^install$' -e '^$' | sort -u)"
missing=0
for p in $pkgs; do
  if ! grep -qx -- "$p" <<<"$listed" && ! grep -Eq "$base_re" <<<"$p"; then
    echo "runtime-packages: $bin needs $p, which $check does not install" >&2
    missing=1
  fi
done
[ "$missing" -eq 0 ] && echo "runtime-packages: every library of $bin comes from a listed or base package"
exit "$missing"
