#!/usr/bin/env bash
# Sealing-key rotation for stud_server: add a new key, roll, retire the old one.
#
#   deploy/rotate-keys.sh add    (--dir STACK_DIR | --key-file FILE) [--no-roll]
#   deploy/rotate-keys.sh retire (--dir STACK_DIR | --key-file FILE) [--no-roll] [--min-age SECONDS]
#   deploy/rotate-keys.sh show   (--dir STACK_DIR | --key-file FILE)
#
# add     appends a fresh random key with id = largest id + 1. Every replica
#         restarted with the new ring seals with it (the largest id seals) and
#         still opens tokens of every older key, so hands in play continue.
# retire  keeps only the newest key. Run it once no hand sealed with an older
#         key can still come back: every call reseals with the newest key, so a
#         hand moves to the new key at its first call after the add roll; wait
#         at least the longest a hand may sit idle (--min-age refuses to retire
#         before the newest key is that old).
# --dir   works on a running deploy/local-stack.sh stack: edits its key ring
#         and restarts its replicas one by one (graceful drain each time).
# --key-file edits only that file (e.g. before updating the Kubernetes Secret;
#         deploy/README.md gives the kubectl steps), and never rolls anything.
#
# During the add roll, replicas briefly hold different rings: a token sealed
# with the new key that reaches a replica not yet restarted is refused with
# UNAUTHENTICATED / ErrorInfo.reason TOKEN_UNKNOWN_KEY. Nothing happened on the
# server, so the client retries the same call (another replica, or a moment
# later). See deploy/README.md, "Key rotation".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cmd="${1:-}"; shift || true
dir=""; key_file=""; roll=1; min_age=0
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --key-file) key_file="$2"; shift 2 ;;
    --no-roll) roll=0; shift ;;
    --min-age) min_age="$2"; shift 2 ;;
    -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "rotate-keys: unknown argument $1" >&2; exit 2 ;;
  esac
done
log() { echo "rotate-keys: $*" >&2; }
case "$cmd" in add|retire|show) ;; *) sed -n '2,27p' "$0" >&2; exit 2 ;; esac
if [ -n "$dir" ]; then
  key_file="$dir/keys"
  [ -f "$dir/stack.env" ] || { log "no running local stack in $dir"; exit 2; }
else
  roll=0
fi
[ -n "$key_file" ] && [ -f "$key_file" ] || { log "key ring not found (--dir or --key-file)"; exit 2; }

ids() { grep -oE '(^|[[:space:],])[0-9]+:[0-9a-fA-F]{64}' "$key_file" | tr -d ' ,\t' | cut -d: -f1 | sort -n; }
newest="$(ids | tail -1)"
[ -n "$newest" ] || { log "$key_file holds no key"; exit 2; }

roll_replicas() {
  # shellcheck disable=SC1091
  . "$dir/stack.env"
  for i in $(seq 1 "$REPLICAS"); do
    log "rolling replica $i of $REPLICAS"
    "$here/local-stack.sh" restart "$i" --dir "$dir"
  done
}

write_ring() {  # write_ring CONTENT: atomic replace, mode 600
  local tmp
  tmp="$(mktemp "$key_file.XXXXXX")"
  chmod 600 "$tmp"
  printf '%s\n' "$1" > "$tmp"
  mv "$tmp" "$key_file"
}

case "$cmd" in
  show)
    echo "key ids in $key_file: $(ids | tr '\n' ' ')(seals with $newest)"
    grep -E '^# key [0-9]+ added' "$key_file" || true
    ;;
  add)
    new=$((newest + 1))
    hex="$(head -c32 /dev/urandom | od -An -tx1 | tr -d ' \n')"
    write_ring "$(cat "$key_file")
# key $new added $(date -u +%Y-%m-%dT%H:%M:%SZ) epoch $(date +%s)
$new:$hex"
    log "added key $new to $key_file (ids now: $(ids | tr '\n' ' '))"
    if [ $roll = 1 ]; then roll_replicas; else log "now roll every replica to apply it"; fi
    log "rolled replicas seal with key $new and still open keys $(ids | grep -vx "$new" | tr '\n' ' ')"
    ;;
  retire)
    if [ "$(ids | wc -l)" -lt 2 ]; then log "only key $newest: nothing to retire"; exit 0; fi
    added="$(grep -E "^# key $newest added .* epoch [0-9]+" "$key_file" | grep -oE '[0-9]+$' || echo 0)"
    age=$(( $(date +%s) - added ))
    if [ "$added" -gt 0 ] && [ "$age" -lt "$min_age" ]; then
      log "key $newest was added ${age}s ago, less than --min-age ${min_age}s: hands may still hold older keys"
      exit 1
    fi
    line="$(grep -oE "(^|[[:space:],])$newest:[0-9a-fA-F]{64}" "$key_file" | tr -d ' ,\t')"
    old="$(ids | grep -vx "$newest" | tr '\n' ' ')"
    write_ring "# stud key ring
# key $newest added at epoch $added (retired: $old)
$line"
    log "retired keys $old from $key_file"
    if [ $roll = 1 ]; then roll_replicas; else log "now roll every replica to apply it"; fi
    log "rolled replicas hold only key $newest"
    ;;
esac
