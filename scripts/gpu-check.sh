#!/usr/bin/env bash
# The NCCL backend's check on a GPU machine: one prepared script, no network.
#
# Needs there: CUDA (nvcc), NCCL (in the CUDA folder, or NCCL_ROOT), CMake >= 3.25, ninja, a
# C++20 compiler, and the folder that scripts/gpu-bundle.sh prepared on a development machine
# (.gpu-deps/: nlohmann_json, CLI11, optionally GoogleTest). MPI is used when mpicc exists.
#
#   scripts/gpu-check.sh            builds into build-gpu/, then runs every check below
#
# Checks (about three minutes on one H200, five at most; a step that hangs is killed):
#   all_reduce sweeps 8 B - 4 GiB, every element checked, in each launch mode that fits one
#   GPU (single process, env rendezvous with WORLD_SIZE=1, -g 1, mpirun -np 1); CUDA graphs
#   (-G); grouped launches (-m); blocking modes (-z); registered buffers (-R 1); every type
#   and op; every collective; one injected corrupted element (must end with exit 7); the
#   device checks (two ranks on one GPU; no visible GPU: exit 3, and auto falls back in one
#   line); -g over all GPUs when there are several; the gpu/unit ctest suites when GoogleTest
#   links here; and ncclAllReduce timed bare (bench/tools/nccl_bare_loop) against collbench at
#   the same sizes: collbench must be within 1% at 256 MiB and above.
# Prints a summary table last and writes it to build-gpu/gpu-check/summary.md, for
# docs/gpu-validation.md. Exit status: 0 when every check passed, 1 otherwise.
set -uo pipefail

ROOT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${COLLBENCH_GPU_BUILD_DIR:-$ROOT_DIR/build-gpu}"
DEPS="${COLLBENCH_GPU_DEPS:-$ROOT_DIR/.gpu-deps}"
OUT="$BUILD_DIR/gpu-check"
BUDGET_S="${COLLBENCH_GPU_BUDGET_S:-300}"  # for the checks, after the build
STEP_LIMIT_S="${COLLBENCH_GPU_STEP_LIMIT_S:-150}"
GATE=1.01                                 # collbench time / bare time at the gated sizes
EXTRA_CMAKE_ARGS=(${COLLBENCH_GPU_CMAKE_ARGS:-})

log() { echo "gpu-check: $*" >&2; }

mkdir -p "$OUT"
[ -x "$(command -v nvcc)" ] || { [ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"; }
command -v nvcc >/dev/null || { log "nvcc not found (add CUDA's bin folder to PATH)"; exit 1; }
[ -f "$DEPS/share/cmake/nlohmann_json/nlohmann_jsonConfig.cmake" ] ||
  log "warning: $DEPS has no bundle (run scripts/gpu-bundle.sh on a development machine); trying the system"

# ---------------------------------------------------------------- build
MPI=OFF
command -v mpicc >/dev/null && MPI=AUTO
NGPUS="$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)"

build() {  # build <dir> <tests ON|OFF> <prefix path>
  cmake -S "$ROOT_DIR" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOLLBENCH_WITH_NCCL=ON \
    -DCOLLBENCH_WITH_MPI="$MPI" -DCOLLBENCH_BUILD_TESTS="$2" -DCOLLBENCH_BUILD_BENCHMARKS=OFF \
    -DCMAKE_PREFIX_PATH="$3" ${NCCL_ROOT:+-DNCCL_ROOT="$NCCL_ROOT"} "${EXTRA_CMAKE_ARGS[@]}" \
    >"$OUT/configure.log" 2>&1 &&
    cmake --build "$1" --parallel "$(nproc)" >"$OUT/build.log" 2>&1
}

TESTS_BUILT=no
build_start=$SECONDS
# With tests when GoogleTest is there (bundled or installed). The bundled static libraries
# come from another machine's compiler: a build that cannot link them is redone without tests.
if build "$BUILD_DIR" ON "$DEPS;$DEPS/gtest"; then
  grep -q "tests : ON" "$OUT/configure.log" && TESTS_BUILT=yes
else
  log "build with tests failed (kept as $OUT/build-with-tests.log); building without them"
  mv "$OUT/build.log" "$OUT/build-with-tests.log" 2>/dev/null
  rm -rf "$BUILD_DIR/CMakeCache.txt" "$BUILD_DIR/CMakeFiles"
  build "$BUILD_DIR" OFF "$DEPS" || {
    log "build failed: see $OUT/configure.log and $OUT/build.log"
    tail -30 "$OUT/build.log" >&2
    exit 1
  }
fi
BUILD_S=$((SECONDS - build_start))
grep -q "NCCL  : ON" "$OUT/configure.log" || { log "the NCCL backend was not configured: see $OUT/configure.log"; exit 1; }
CB="$BUILD_DIR/bench/collbench"
BARE="$BUILD_DIR/bench/tools/nccl_bare_loop"
log "built in ${BUILD_S}s (tests: $TESTS_BUILT, MPI: $MPI, GPUs: $NGPUS)"

# ---------------------------------------------------------------- checks
ROWS=()
FAILED=0
checks_start=$SECONDS

record() {  # record <name> <PASS|FAIL|SKIP> <exit> <seconds> <note>
  ROWS+=("| $1 | $2 | $3 | $4 s | $5 |")
  [ "$2" = FAIL ] && FAILED=1
  log "$1: $2 $5"
}

# check <name> <expected exit> <text that must appear ('' for none)> -- command...
check() {
  local name="$1" expect="$2" text="$3"
  shift 4
  if [ $((SECONDS - checks_start)) -ge "$BUDGET_S" ]; then
    record "$name" SKIP - 0 "time budget of ${BUDGET_S} s used up"
    return
  fi
  local start=$SECONDS rc note="" verdict=PASS
  timeout --signal=KILL "$STEP_LIMIT_S" "$@" >"$OUT/$name.log" 2>&1
  rc=$?
  if [ "$rc" -ne "$expect" ]; then
    verdict=FAIL
    note="exit $rc, expected $expect: $(grep -m1 'error' "$OUT/$name.log" | cut -c1-160)"
  elif [ -n "$text" ] && ! grep -qF -- "$text" "$OUT/$name.log"; then
    verdict=FAIL
    note="output lacks '$text'"
  else
    note="$(grep -m1 '^# Peak bus bandwidth' "$OUT/$name.log" | sed 's/^# Peak bus bandwidth *: *//')"
    local skipped
    skipped="$(grep -c 'skipped:' "$OUT/$name.log" || true)"
    [ "$skipped" != 0 ] && note="$note; $skipped rows skipped (see log)"
  fi
  record "$name" "$verdict" "$rc" "$((SECONDS - start))" "$note"
}

RUN=(run -T 60 --no-progress)
SWEEP=(-b 8 -e 4G -f 2 -n 20 -w 1 -c 1)
OK_TEXT="# Out of bounds values : 0 OK"

check single 0 "$OK_TEXT" -- "$CB" "${RUN[@]}" "${SWEEP[@]}" --backend nccl -J "$OUT/single.json" --force
check env-world1 0 "$OK_TEXT" -- env RANK=0 WORLD_SIZE=1 LOCAL_RANK=0 LOCAL_WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 \
  MASTER_PORT=29517 "$CB" "${RUN[@]}" "${SWEEP[@]}" --backend nccl --bootstrap env -J "$OUT/env.json" --force
check g1 0 "$OK_TEXT" -- "$CB" "${RUN[@]}" "${SWEEP[@]}" --backend nccl -g 1
if [ "$MPI" = AUTO ] && command -v mpirun >/dev/null && grep -q "MPI   : TRUE" "$OUT/configure.log"; then
  root_flag=()
  [ "$(id -u)" -eq 0 ] && root_flag=(--allow-run-as-root)
  check mpirun-np1 0 "$OK_TEXT" -- mpirun -np 1 "${root_flag[@]}" "$CB" "${RUN[@]}" "${SWEEP[@]}" --backend nccl
else
  record mpirun-np1 SKIP - 0 "no MPI on this machine"
fi
check graph-G10 0 "graph: 10" -- "$CB" "${RUN[@]}" -b 8 -e 1G -n 10 -G 10 --backend nccl
check group-m4 0 "agg iters: 4" -- "$CB" "${RUN[@]}" -b 8 -e 256M -n 10 -m 4 --backend nccl
check blocking-z1 0 "$OK_TEXT" -- "$CB" "${RUN[@]}" -b 8 -e 64M -n 5 -z 1 --backend nccl
check blocking-z3 0 "$OK_TEXT" -- "$CB" "${RUN[@]}" -b 8 -e 64M -n 5 -z 3 --backend nccl
check register-R1 0 "$OK_TEXT" -- "$CB" "${RUN[@]}" -b 8 -e 256M -n 10 -R 1 --backend nccl
check types-ops 0 "$OK_TEXT" -- "$CB" "${RUN[@]}" -b 8 -e 1M -n 3 -d all -o all --backend nccl -J "$OUT/types.json" --force
check collectives 0 "$OK_TEXT" -- "$CB" "${RUN[@]}" all -b 8 -e 16M -n 5 -d float,bfloat16,int8 --backend nccl
check corrupt-one 7 "element 12345" -- "$CB" "${RUN[@]}" -b 1M -e 1M -n 2 --backend nccl --fault corrupt-rank=0,index=12345
if [ "${NGPUS:-0}" -ge 2 ]; then
  check "g$NGPUS-all-gpus" 0 "$OK_TEXT" -- "$CB" "${RUN[@]}" -b 8 -e 1G -n 10 -g "$NGPUS" --backend nccl
else
  check two-ranks-one-gpu 8 "share the GPU" -- "$CB" "${RUN[@]}" -e 8 -g 2 --backend nccl
fi
check no-gpu-nccl 3 "no CUDA device visible (driver error" -- env CUDA_VISIBLE_DEVICES= "$CB" "${RUN[@]}" -e 8 --backend nccl
check no-gpu-auto 0 "# no CUDA device visible" -- env CUDA_VISIBLE_DEVICES= "$CB" "${RUN[@]}" -e 8 -n 2

# ---------------------------------------------------------------- harness overhead
# The same sizes, iterations and warm-up through nccl_bare_loop and collbench (out of place),
# three rounds each, interleaved; the best of each is compared.
SIZES=(1048576 4194304 16777216 67108864 268435456 1073741824 4294967296)
GATED_FROM=268435456
OVERHEAD=()
if [ $((SECONDS - checks_start)) -lt "$BUDGET_S" ]; then
  : >"$OUT/bare.txt"
  : >"$OUT/harness.txt"
  start=$SECONDS
  for round in 1 2 3; do
    timeout --signal=KILL "$STEP_LIMIT_S" "$BARE" -n 50 -w 5 "${SIZES[@]}" >>"$OUT/bare.txt" 2>>"$OUT/overhead.log"
    timeout --signal=KILL "$STEP_LIMIT_S" "$CB" "${RUN[@]}" -b 1M -e 4G -f 4 -n 50 -w 5 -c 0 --backend nccl \
      >"$OUT/harness.$round.log" 2>>"$OUT/overhead.log"
    awk '$1 ~ /^[0-9]+$/ && $3 == "float" { print $1, $6 }' "$OUT/harness.$round.log" >>"$OUT/harness.txt"
  done
  verdict=PASS
  worst=""
  for size in "${SIZES[@]}"; do
    bare="$(awk -v s="$size" '$1 == s { print $2 }' "$OUT/bare.txt" | sort -g | head -1)"
    mine="$(awk -v s="$size" '$1 == s { print $2 }' "$OUT/harness.txt" | sort -g | head -1)"
    if [ -z "$bare" ] || [ -z "$mine" ]; then
      OVERHEAD+=("| $size | ${bare:-missing} | ${mine:-missing} | - | - |")
      verdict=FAIL
      continue
    fi
    ratio="$(awk -v a="$mine" -v b="$bare" 'BEGIN { printf "%.4f", a / b }')"
    gated=no
    if [ "$size" -ge "$GATED_FROM" ]; then
      gated=yes
      awk -v r="$ratio" -v g="$GATE" 'BEGIN { exit !(r <= g) }' || verdict=FAIL
      worst="$ratio"
    fi
    OVERHEAD+=("| $size | $bare | $mine | $ratio | $gated |")
  done
  record harness-overhead "$verdict" - "$((SECONDS - start))" "collbench / bare ncclAllReduce <= $GATE from 256 MiB (last: ${worst:-n/a})"
else
  record harness-overhead SKIP - 0 "time budget used up"
fi

# The test suites last: they repeat some of the above in finer detail.
if [ "$TESTS_BUILT" = yes ]; then
  STEP_LIMIT_S=$((STEP_LIMIT_S * 2)) check ctest-gpu 0 "" -- ctest --test-dir "$BUILD_DIR" -L gpu --output-on-failure --timeout 120
  check ctest-unit 0 "" -- ctest --test-dir "$BUILD_DIR" -L unit --output-on-failure --timeout 60
else
  record ctest SKIP - 0 "GoogleTest did not build here"
fi

# ---------------------------------------------------------------- summary
library="$(sed -n 's/.*"library": "\([^"]*\)".*/\1/p' "$OUT/single.json" 2>/dev/null | head -1)"
{
  echo "## collbench GPU check"
  echo
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- host: $(hostname)"
  echo "- commit: $(git -C "$ROOT_DIR" describe --always --dirty 2>/dev/null || echo unknown)"
  echo "- GPUs: ${NGPUS:-?} x $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null | head -1)"
  echo "- driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)"
  echo "- nvcc: $(nvcc --version | tail -1)"
  echo "- collbench's libraries: ${library:-unknown}"
  echo "- build: ${BUILD_S} s (tests: $TESTS_BUILT, MPI: $MPI); checks: $((SECONDS - checks_start)) s"
  echo
  echo "| check | result | exit | time | note |"
  echo "|---|---|---|---|---|"
  printf '%s\n' "${ROWS[@]}"
  if [ "${#OVERHEAD[@]}" -gt 0 ]; then
    echo
    echo "ncclAllReduce float sum, one GPU, out of place, 50 iterations after 5 warm-up, best of 3 (us per op):"
    echo
    echo "| bytes | bare loop | collbench | ratio | gated |"
    echo "|---|---|---|---|---|"
    printf '%s\n' "${OVERHEAD[@]}"
  fi
  echo
  echo "Overall: $([ "$FAILED" -eq 0 ] && echo PASS || echo FAIL). Logs: $OUT/"
} >"$OUT/summary.md"
echo
cat "$OUT/summary.md"
exit "$FAILED"
