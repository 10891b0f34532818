#!/usr/bin/env bash
# Builds the fuzz preset (clang, libFuzzer + ASan + UBSan) and runs every fuzz target for a
# bounded time. Exits non-zero when a fuzzer finds a crash, leak, timeout or property violation;
# the input that did it is kept under build-fuzz/artifacts/<target>/.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]      # default: 60 seconds each, every target
#
# FUZZ_JOBS (default 1) fuzzers run at a time, each under nice -n FUZZ_NICE (default 19), so that
# fuzzing never slows down other work on the machine. New inputs go to build-fuzz/corpus/<target>/;
# the committed seeds in tests/fuzz/corpus/<target>/ are only read. FUZZ_SEED fixes libFuzzer's
# random seed (CI sets one, so that its pass repeats and its failure reproduces; unset, each run
# explores anew, which is how new findings are made before a change goes in). Docs: docs/testing.md.
set -euo pipefail
ROOT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT_DIR"

SECONDS_EACH="${1:-60}"
shift || true
JOBS="${FUZZ_JOBS:-1}"
NICE="${FUZZ_NICE:-19}"
BUILD="$ROOT_DIR/build-fuzz"
FUZZ_DIR="$ROOT_DIR/tests/fuzz"

# name:max_len:dictionary. Lengths are above the largest seed and keep each execution cheap.
TARGETS=(
  units:64:units.dict
  types:64:
  fault:96:units.dict
  run_flags:512:run_flags.dict
  run_json:24576:run_json.dict
  document_json:24576:run_json.dict
  topo_nccl_xml:4096:nccl_xml.dict
  topo_hwloc_xml:8192:hwloc_xml.dict
  topo_json:16384:topo_json.dict
  rendezvous:1100:
  fabric:1024:fabric.dict
)

if [ "$#" -gt 0 ]; then
  selected=()
  for want in "$@"; do
    found=""
    for t in "${TARGETS[@]}"; do [ "${t%%:*}" = "$want" ] && found="$t"; done
    [ -n "$found" ] || { echo "fuzz: unknown target '$want'" >&2; exit 2; }
    selected+=("$found")
  done
  TARGETS=("${selected[@]}")
fi

command -v clang++ >/dev/null || { echo "fuzz: clang++ is needed (Debian: apt-get install clang)" >&2; exit 1; }
[ -f "$BUILD/CMakeCache.txt" ] || cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --parallel "${COLLBENCH_BUILD_JOBS:-2}"

# ASan/UBSan report and stop at the first error; libFuzzer turns that into a crash artifact.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:detect_stack_use_after_return=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# hwloc prints its own complaints about the XML it rejects; our error is the one that matters.
export HWLOC_HIDE_ERRORS=2

run_one() {
  local name="$1" max_len="$2" dict="$3"
  local corpus="$BUILD/corpus/$name" artifacts="$BUILD/artifacts/$name/" log="$BUILD/logs/$name.log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  # -timeout is wall-clock: 30 s, as a niced fuzzer on a busy machine can be starved for seconds
  # (the slowest input of any target takes well under a second when it has a core).
  local args=(-max_total_time="$SECONDS_EACH" -max_len="$max_len" -timeout=30 -rss_limit_mb=2048
              -print_final_stats=1 -artifact_prefix="$artifacts")
  [ -n "$dict" ] && args+=(-dict="$FUZZ_DIR/dict/$dict")
  [ -n "${FUZZ_SEED:-}" ] && args+=(-seed="$FUZZ_SEED")
  local inputs=("$corpus" "$FUZZ_DIR/corpus/$name")
  [ -d "$FUZZ_DIR/regressions/$name" ] && inputs+=("$FUZZ_DIR/regressions/$name")
  local rc=0 start=$SECONDS
  nice -n "$NICE" "$BUILD/tests/fuzz/collbench_fuzz_$name" "${args[@]}" "${inputs[@]}" >"$log" 2>&1 || rc=$?
  local execs
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
  printf 'fuzz: %-15s %4ss  %10s execs  corpus %5s  %s\n' "$name" "$((SECONDS - start))" "${execs:-?}" \
    "$(find "$corpus" -type f | wc -l)" "$([ "$rc" -eq 0 ] && echo ok || echo "FAILED (rc $rc): see $log")"
  if [ "$rc" -ne 0 ]; then
    grep -E "^(==[0-9]+==ERROR|SUMMARY|.*runtime error|.*fuzz property violated|artifact_prefix|Test unit written)" "$log" |
      head -8 | sed 's/^/fuzz:   /' >&2
    echo "fuzz:   reproduce: $BUILD/tests/fuzz/collbench_fuzz_$name ${artifacts}<crash file>" >&2
  fi
  return "$rc"
}

failed=0
running=0
for t in "${TARGETS[@]}"; do
  IFS=: read -r name max_len dict <<<"$t"
  run_one "$name" "$max_len" "$dict" &
  running=$((running + 1))
  if [ "$running" -ge "$JOBS" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
exit "$failed"
