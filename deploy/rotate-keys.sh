#!/usr/bin/env bash
# Sealing-key rotation for stud_server in three steps, none of which makes a
# replica refuse a token another replica sealed:
#
#   deploy/rotate-keys.sh add     (--dir STACK_DIR | --key-file FILE) [--no-roll]
#   deploy/rotate-keys.sh promote (--dir STACK_DIR | --key-file FILE) [--no-roll]
#   deploy/rotate-keys.sh retire  (--dir STACK_DIR | --key-file FILE) [--no-roll] [--min-age SECONDS]
#   deploy/rotate-keys.sh show    (--dir STACK_DIR | --key-file FILE)
#
# add     appends a fresh random key, id = largest id + 1, marked ":open": a
#         replica restarted with it opens tokens sealed with it but keeps
#         sealing with the current key. Roll every replica before promoting.
# promote drops the mark: restarted replicas seal with the new key. Replicas
#         not yet restarted already hold it (open-only), so they open the new
#         tokens; nothing is refused while the roll is under way.
# retire  keeps only the sealing key. Run it once no hand sealed with an older
#         key can still come back: every call reseals with the sealing key, so a
#         hand moves to the new key at its first call after the promote roll;
#         wait at least the longest a hand may sit idle (--min-age refuses to
#         retire before the promotion is that old).
# --dir   works on a running deploy/local-stack.sh stack: edits its key ring
#         and restarts its replicas one by one (graceful drain each time).
# --key-file edits only that file (e.g. before updating the Kubernetes Secret;
#         deploy/README.md gives the kubectl steps), and never rolls anything.
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
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "rotate-keys: unknown argument $1" >&2; exit 2 ;;
  esac
done
log() { echo "rotate-keys: $*" >&2; }
case "$cmd" in add|promote|retire|show) ;; *) sed -n '2,24p' "$0" >&2; exit 2 ;; esac
if [ -n "$dir" ]; then
  key_file="$dir/keys"
  [ -f "$dir/stack.env" ] || { log "no running local stack in $dir"; exit 2; }
else
  roll=0
fi
[ -n "$key_file" ] && [ -f "$key_file" ] || { log "key ring not found (--dir or --key-file)"; exit 2; }

entries() { grep -oE '(^|[[:space:],])[0-9]+:[0-9a-fA-F]{64}(:open)?' "$key_file" | tr -d ' ,\t'; }
ids() { entries | cut -d: -f1 | sort -n; }
sealing_ids() { entries | grep -v ':open$' | cut -d: -f1 | sort -n; }
newest="$(ids | tail -1)"
sealing="$(sealing_ids | tail -1)"
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
    echo "key ids in $key_file: $(ids | tr '\n' ' ')(seals with ${sealing:-none}; open-only: $(entries | grep ':open$' | cut -d: -f1 | tr '\n' ' '))"
    grep -E '^# key [0-9]+ (added|promoted)' "$key_file" || true
    ;;
  add)
    if [ "$newest" != "$sealing" ]; then
      log "key $newest is already waiting, open-only: promote it first"; exit 1
    fi
    new=$((newest + 1))
    hex="$(head -c32 /dev/urandom | od -An -tx1 | tr -d ' \n')"
    write_ring "$(cat "$key_file")
# key $new added $(date -u +%Y-%m-%dT%H:%M:%SZ) epoch $(date +%s)
$new:$hex:open"
    log "added key $new, open-only, to $key_file (ids now: $(ids | tr '\n' ' '))"
    if [ $roll = 1 ]; then roll_replicas; else log "now roll every replica, then promote"; fi
    log "replicas open key $new and still seal with key $sealing"
    ;;
  promote)
    if [ "$newest" = "$sealing" ]; then log "key $newest already seals: nothing to promote"; exit 0; fi
    write_ring "$(sed -E "s/(^|[[:space:],])($newest:[0-9a-fA-F]{64}):open/\1\2/" "$key_file")
# key $newest promoted $(date -u +%Y-%m-%dT%H:%M:%SZ) epoch $(date +%s)"
    log "key $newest now seals in $key_file"
    if [ $roll = 1 ]; then roll_replicas; else log "now roll every replica to apply it"; fi
    log "replicas seal with key $newest and still open keys $(ids | grep -vx "$newest" | tr '\n' ' ')"
    ;;
  retire)
    if [ "$newest" != "$sealing" ]; then
      log "key $newest is open-only: promote it (and roll) before retiring older keys"; exit 1
    fi
    if [ "$(ids | wc -l)" -lt 2 ]; then log "only key $newest: nothing to retire"; exit 0; fi
    promoted="$(grep -E "^# key $newest (added|promoted) .* epoch [0-9]+" "$key_file" | tail -1 | grep -oE '[0-9]+$' || echo 0)"
    age=$(( $(date +%s) - promoted ))
    if [ "$promoted" -gt 0 ] && [ "$age" -lt "$min_age" ]; then
      log "key $newest has sealed for ${age}s, less than --min-age ${min_age}s: hands may still hold older keys"
      exit 1
    fi
    line="$(entries | grep -E "^$newest:")"
    old="$(ids | grep -vx "$newest" | tr '\n' ' ')"
    write_ring "# stud key ring
# key $newest promoted at epoch $promoted (retired: $old)
$line"
    log "retired keys $old from $key_file"
    if [ $roll = 1 ]; then roll_replicas; else log "now roll every replica to apply it"; fi
    log "rolled replicas hold only key $newest"
    ;;
esac
