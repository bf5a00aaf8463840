#!/usr/bin/env bash
# run_fuzzer.sh replay|fuzz <harness binary> <seed corpus dir> <regressions dir>
#   replay  runs every committed seed and regression input once (-runs=0)
#   fuzz    fuzzes for FUZZ_SECONDS (default 25) from the seeds in a scratch
#           corpus (the source tree is never written), then prints one line:
#           FUZZ harness=<name> seconds=<s> execs=<n> execs_per_s=<n> cov=<edges> ft=<features> corpus=<n>
# A crash, leak, sanitizer report, timeout (10 s per input) or out-of-memory
# (2 GB) fails the run; the input is saved as $FUZZ_ARTIFACTS/<harness>-crash-*
# (default ./fuzz-artifacts): copy it into the regressions dir with the fix.
set -euo pipefail
mode=$1 bin=$2 seeds=$3 regressions=$4
name=$(basename "$bin")
artifacts="${FUZZ_ARTIFACTS:-$PWD/fuzz-artifacts}"
mkdir -p "$artifacts"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
lsan_supp="$(dirname "$0")/../sanitizers/lsan.supp"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$lsan_supp:print_suppressions=0}"
common=(-timeout=10 -rss_limit_mb=2048 "-artifact_prefix=$artifacts/$name-")

inputs=()
for d in "$seeds" "$regressions"; do
  if [ -d "$d" ]; then
    while IFS= read -r -d '' f; do inputs+=("$f"); done < <(find "$d" -type f ! -name '*.md' -print0 | sort -z)
  fi
done

if [ "$mode" = replay ]; then
  if [ "${#inputs[@]}" -eq 0 ]; then echo "$name: no inputs"; exit 0; fi
  "$bin" "${common[@]}" -runs=0 "${inputs[@]}" 2>&1 | tail -3
  echo "$name: replayed ${#inputs[@]} inputs"
  exit "${PIPESTATUS[0]}"
fi

seconds="${FUZZ_SECONDS:-25}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
for f in "${inputs[@]}"; do cp "$f" "$work/corpus/"; done
set +e
# FUZZ_SEED fixes libFuzzer's random choices (CI sets it, so two runs of the
# same code explore the same inputs and a red run can be reproduced).
seed_arg=()
if [ -n "${FUZZ_SEED:-}" ]; then seed_arg=(-seed="$FUZZ_SEED"); fi
"$bin" "${common[@]}" "${seed_arg[@]}" -max_total_time="$seconds" -print_final_stats=1 \
  -max_len=4096 "$work/corpus" >"$work/log" 2>&1
rc=$?
set -e
if [ $rc -ne 0 ]; then
  tail -60 "$work/log"
  echo "FUZZ harness=$name FAILED (exit $rc); the input is in $artifacts"
  exit 1
fi
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log" | tail -1)
last=$(grep -E '^#[0-9]+' "$work/log" | tail -1)
cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
corpus=$(find "$work/corpus" -type f | wc -l)
echo "FUZZ harness=$name seconds=$seconds execs=$execs execs_per_s=$rate cov=$cov ft=$ft corpus=$corpus"
