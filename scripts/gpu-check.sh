#!/usr/bin/env bash
# The NCCL backend's check on a GPU machine: one prepared script, no network.
#
# Needs there: CUDA (nvcc), NCCL, CMake >= 3.25, ninja, a C++20 compiler, and the folder that
# scripts/gpu-bundle.sh prepared on a development machine (.gpu-deps/: nlohmann_json, CLI11,
# optionally GoogleTest). MPI is used when mpicc exists. NCCL is looked for in NCCL_ROOT, the
# CUDA folder, the system (Debian's or NVIDIA's libnccl-dev), then Python's nvidia-nccl-cu13/
# -cu12 wheel (which ships libnccl.so.2 without the unversioned link).
#
#   scripts/gpu-check.sh            builds into build-gpu/, then runs every check below
#
# Checks: all_reduce sweeps 8 B - 4 GiB, every element checked, in each launch mode that fits
# one GPU (single process, env rendezvous with WORLD_SIZE=1, -g 1, mpirun -np 1); CUDA graphs
# (-G); grouped launches (-m); blocking modes (-z); registered buffers (-R 1, -R 2); per-
# iteration timing (-I 1) and timestamps (-S 1); every type and op; every collective with
# alltoallv; locate on one rank; one injected corrupted element (exit 7); the device checks
# (no visible GPU: exit 3, and auto falls back in one line); -g over all GPUs when there are
# several; the gpu/unit ctest suites when GoogleTest links here; and ncclAllReduce timed bare
# (bench/tools/nccl_bare_loop) against collbench: within 1% at 256 MiB and above.
#
# Limits, so that one lent machine is never wasted: the checks after the build never take more
# than COLLBENCH_GPU_BUDGET_S (default 480 s) in all; each step is killed at its own limit
# (COLLBENCH_GPU_STEP_LIMIT_S, default 150 s, or what is left of the budget); ctest runs with a
# per-test timeout. Results go to $OUT when the caller sets it (else build-gpu/gpu-check/):
# summary.md gains its row as each step ends, so a run killed from outside still returns what
# it had; summary.md's last line "Overall: ..." is written only by a run that finished.
#
# Rehearsal on a machine without a GPU: COLLBENCH_GPU_SKIP_BUILD=1 with COLLBENCH_GPU_BUILD_DIR
# naming an existing build runs every step against it, so each step's failure path reports.
# Exit status: 0 when every check passed, 1 otherwise.
set -uo pipefail

ROOT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${COLLBENCH_GPU_BUILD_DIR:-$ROOT_DIR/build-gpu}"
DEPS="${COLLBENCH_GPU_DEPS:-$ROOT_DIR/.gpu-deps}"
RESULTS="${OUT:-$BUILD_DIR/gpu-check}"
BUDGET_S="${COLLBENCH_GPU_BUDGET_S:-480}"  # every check after the build, together
STEP_LIMIT_S="${COLLBENCH_GPU_STEP_LIMIT_S:-150}"
SKIP_BUILD="${COLLBENCH_GPU_SKIP_BUILD:-0}"
GATE=1.01                                 # collbench time / bare time at the gated sizes
EXTRA_CMAKE_ARGS=(${COLLBENCH_GPU_CMAKE_ARGS:-})
SUMMARY="$RESULTS/summary.md"

log() { echo "gpu-check: $*" >&2; }

mkdir -p "$RESULTS"
: >"$SUMMARY"
[ -x "$(command -v nvcc)" ] || { [ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"; }
command -v nvcc >/dev/null || { log "nvcc not found (add CUDA's bin folder to PATH)"; echo "Overall: FAIL (no nvcc)" >>"$SUMMARY"; exit 1; }
[ -f "$DEPS/share/cmake/nlohmann_json/nlohmann_jsonConfig.cmake" ] ||
  log "warning: $DEPS has no bundle (run scripts/gpu-bundle.sh on a development machine); trying the system"

# NCCL_ROOT for the build and LD_LIBRARY_PATH for the runs, from the first place that has NCCL.
find_nccl() {
  if [ -n "${NCCL_ROOT:-}" ]; then echo "NCCL_ROOT=$NCCL_ROOT"; return; fi
  local cuda_root
  cuda_root="$(dirname "$(dirname "$(command -v nvcc)")")"
  for root in "$cuda_root" /usr/local/cuda /usr; do
    if [ -f "$root/include/nccl.h" ]; then echo "$root (system or CUDA folder)"; return; fi
  done
  local dir=""
  for py in python3 /usr/bin/python3; do
    command -v "$py" >/dev/null || continue
    dir="$("$py" -c 'import nvidia.nccl as n; print(list(n.__path__)[0])' 2>/dev/null)" && break
  done
  if [ -n "$dir" ] && [ -f "$dir/include/nccl.h" ] && ls "$dir"/lib/libnccl.so* >/dev/null 2>&1; then
    export NCCL_ROOT="$dir"
    export LD_LIBRARY_PATH="$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    echo "$dir (Python wheel)"
    return
  fi
  echo "not found (set NCCL_ROOT)"
}

# ---------------------------------------------------------------- build
MPI=OFF
command -v mpicc >/dev/null && MPI=AUTO
NGPUS="$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)"
NCCL_FROM="$(find_nccl)"
log "NCCL: $NCCL_FROM"

build() {  # build <dir> <tests ON|OFF> <prefix path>
  cmake -S "$ROOT_DIR" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOLLBENCH_WITH_NCCL=ON \
    -DCOLLBENCH_WITH_MPI="$MPI" -DCOLLBENCH_BUILD_TESTS="$2" -DCOLLBENCH_BUILD_BENCHMARKS=OFF \
    -DCMAKE_PREFIX_PATH="$3" ${NCCL_ROOT:+-DNCCL_ROOT="$NCCL_ROOT"} "${EXTRA_CMAKE_ARGS[@]}" \
    >"$RESULTS/configure.log" 2>&1 &&
    cmake --build "$1" --parallel "$(nproc)" >"$RESULTS/build.log" 2>&1
}

TESTS_BUILT=no
build_start=$SECONDS
if [ "$SKIP_BUILD" = 1 ]; then
  log "using the existing build in $BUILD_DIR (COLLBENCH_GPU_SKIP_BUILD=1)"
  [ -x "$BUILD_DIR/bench/collbench" ] || { log "no collbench in $BUILD_DIR"; echo "Overall: FAIL (no build)" >>"$SUMMARY"; exit 1; }
  ctest --test-dir "$BUILD_DIR" -N -L gpu 2>/dev/null | grep -q "Total Tests: [1-9]" && TESTS_BUILT=yes
# With tests when GoogleTest is there (bundled or installed). The bundled static libraries
# come from another machine's compiler: a build that cannot link them is redone without tests.
elif build "$BUILD_DIR" ON "$DEPS;$DEPS/gtest"; then
  grep -q "tests : ON" "$RESULTS/configure.log" && TESTS_BUILT=yes
else
  log "build with tests failed (kept as $RESULTS/build-with-tests.log); building without them"
  mv "$RESULTS/build.log" "$RESULTS/build-with-tests.log" 2>/dev/null
  rm -rf "$BUILD_DIR/CMakeCache.txt" "$BUILD_DIR/CMakeFiles"
  build "$BUILD_DIR" OFF "$DEPS" || {
    log "build failed: see $RESULTS/configure.log and $RESULTS/build.log"
    tail -30 "$RESULTS/build.log" >&2
    echo "Overall: FAIL (build; NCCL: $NCCL_FROM)" >>"$SUMMARY"
    exit 1
  }
fi
BUILD_S=$((SECONDS - build_start))
if [ "$SKIP_BUILD" != 1 ] && ! grep -q "NCCL  : ON" "$RESULTS/configure.log"; then
  log "the NCCL backend was not configured: see $RESULTS/configure.log"
  echo "Overall: FAIL (NCCL backend not configured; NCCL: $NCCL_FROM)" >>"$SUMMARY"
  exit 1
fi
CB="$BUILD_DIR/bench/collbench"
BARE="$BUILD_DIR/bench/tools/nccl_bare_loop"
log "built in ${BUILD_S}s (tests: $TESTS_BUILT, MPI: $MPI, GPUs: $NGPUS)"

{
  echo "## collbench GPU check"
  echo
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- host: $(hostname)"
  echo "- commit: $(git -C "$ROOT_DIR" describe --always --dirty 2>/dev/null || echo unknown)"
  echo "- GPUs: ${NGPUS:-0} x $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null | head -1)"
  echo "- driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)"
  echo "- nvcc: $(nvcc --version | tail -1)"
  echo "- NCCL found: $NCCL_FROM"
  echo "- build: ${BUILD_S} s (tests: $TESTS_BUILT, MPI: $MPI); checks limited to ${BUDGET_S} s, ${STEP_LIMIT_S} s per step"
  echo
  echo "| check | result | exit | time | note |"
  echo "|---|---|---|---|---|"
} >>"$SUMMARY"

# ---------------------------------------------------------------- checks
FAILED=0
checks_start=$SECONDS
OVERHEAD=()

# Seconds this step may take: its own limit, or what is left of the budget.
step_limit() {
  local left=$((BUDGET_S - (SECONDS - checks_start)))
  [ "$left" -lt "$1" ] && echo "$left" || echo "$1"
}

record() {  # record <name> <PASS|FAIL|SKIP> <exit> <seconds> <note>
  echo "| $1 | $2 | $3 | $4 s | $5 |" >>"$SUMMARY"
  [ "$2" = FAIL ] && FAILED=1
  log "$1: $2 $5"
}

# A run killed from outside (the lender's limit, Ctrl-C) says so in the summary it leaves, at
# once: steps run in the background and the script waits, which a signal interrupts.
STEP_PID=""
interrupted() {
  [ -n "$STEP_PID" ] && kill -TERM "$STEP_PID" 2>/dev/null
  echo "Overall: INTERRUPTED after $((SECONDS - checks_start)) s of checks" >>"$SUMMARY"
  exit 1
}
trap interrupted TERM INT

# check <name> <expected exit> <text that must appear ('' for none)> -- command...
check() {
  local name="$1" expect="$2" text="$3"
  shift 4
  local limit
  limit="$(step_limit "$STEP_LIMIT_S")"
  if [ "$limit" -lt 5 ]; then
    record "$name" SKIP - 0 "time budget of ${BUDGET_S} s used up"
    return
  fi
  local start=$SECONDS rc note="" verdict=PASS
  timeout --kill-after=5 "$limit" "$@" >"$RESULTS/$name.log" 2>&1 &
  STEP_PID=$!
  wait "$STEP_PID"
  rc=$?
  STEP_PID=""
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    verdict=FAIL
    note="killed at its limit of $limit s"
  elif [ "$rc" -ne "$expect" ]; then
    verdict=FAIL
    note="exit $rc, expected $expect: $(grep -m1 -i 'error\|collbench:' "$RESULTS/$name.log" | cut -c1-160 | tr '|' '/')"
  elif [ -n "$text" ] && ! grep -qF -- "$text" "$RESULTS/$name.log"; then
    verdict=FAIL
    note="output lacks '$text'"
  else
    note="$(grep -m1 '^# Peak bus bandwidth' "$RESULTS/$name.log" | sed 's/^# Peak bus bandwidth *: *//')"
    local skipped
    skipped="$(grep -c 'skipped:' "$RESULTS/$name.log" || true)"
    [ "$skipped" != 0 ] && note="$note; $skipped rows skipped (see log)"
  fi
  record "$name" "$verdict" "$rc" "$((SECONDS - start))" "$note"
}

RUN=(run -T 60 --no-progress)
SWEEP=(-b 8 -e 4G -f 2 -n 20 -w 1 -c 1)
OK_TEXT="# Out of bounds values : 0 OK"

check single 0 "$OK_TEXT" -- "$CB" "${RUN[@]}" "${SWEEP[@]}" --backend nccl -J "$RESULTS/single.json" --force
check env-world1 0 "$OK_TEXT" -- env RANK=0 WORLD_SIZE=1 LOCAL_RANK=0 LOCAL_WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 \
  MASTER_PORT=29517 "$CB" "${RUN[@]}" "${SWEEP[@]}" --backend nccl --bootstrap env -J "$RESULTS/env.json" --force
check g1 0 "$OK_TEXT" -- "$CB" "${RUN[@]}" "${SWEEP[@]}" --backend nccl -g 1
if command -v mpirun >/dev/null && ldd "$CB" 2>/dev/null | grep -q libmpi; then
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
check register-R2 0 "$OK_TEXT" -- "$CB" "${RUN[@]}" -b 8 -e 256M -n 10 -R 2 --backend nccl
check per-iteration-I1-S1 0 "i_cv%" -- "$CB" "${RUN[@]}" -b 8 -e 64M -n 20 -I 1 -S 1 --backend nccl
check types-ops 0 "$OK_TEXT" -- "$CB" "${RUN[@]}" -b 8 -e 1M -n 3 -d all -o all --backend nccl -J "$RESULTS/types.json" --force
check collectives 0 "$OK_TEXT" -- "$CB" "${RUN[@]}" all -b 8 -e 16M -n 5 -d float,bfloat16,int8 --backend nccl
check alltoallv 0 "$OK_TEXT" -- "$CB" "${RUN[@]}" alltoallv -b 8 -e 16M -n 5 --backend nccl
check locate-one-rank 0 "" -- "$CB" locate --budget 20 --backend nccl
check corrupt-one 7 "element 12345" -- "$CB" "${RUN[@]}" -b 1M -e 1M -n 2 --backend nccl --fault corrupt-rank=0,index=12345
if [ "${NGPUS:-0}" -ge 2 ]; then
  check "g$NGPUS-all-gpus" 0 "$OK_TEXT" -- "$CB" "${RUN[@]}" -b 8 -e 1G -n 10 -g "$NGPUS" --backend nccl
else
  # NCCL refuses two ranks on one device ("Duplicate GPU detected"): collbench must say so
  # in one line before NCCL does.
  check two-ranks-one-gpu 8 "share the GPU" -- "$CB" "${RUN[@]}" -e 8 -g 2 --backend nccl
fi
check no-gpu-nccl 3 "no CUDA device visible (driver error" -- env CUDA_VISIBLE_DEVICES= "$CB" "${RUN[@]}" -e 8 --backend nccl
check no-gpu-auto 0 "# no CUDA device visible" -- env CUDA_VISIBLE_DEVICES= "$CB" "${RUN[@]}" -e 8 -n 2

# ---------------------------------------------------------------- harness overhead
# The same sizes, iterations and warm-up through nccl_bare_loop and collbench (out of place),
# three rounds each, interleaved; the best of each is compared.
SIZES=(1048576 4194304 16777216 67108864 268435456 1073741824 4294967296)
GATED_FROM=268435456
limit="$(step_limit "$STEP_LIMIT_S")"
if [ "$limit" -ge 20 ] && [ -x "$BARE" ]; then
  : >"$RESULTS/bare.txt"
  : >"$RESULTS/harness.txt"
  start=$SECONDS
  per_run=$((limit / 6))
  for round in 1 2 3; do
    timeout --signal=KILL "$per_run" "$BARE" -n 50 -w 5 "${SIZES[@]}" >>"$RESULTS/bare.txt" 2>>"$RESULTS/overhead.log"
    timeout --signal=KILL "$per_run" "$CB" "${RUN[@]}" -b 1M -e 4G -f 4 -n 50 -w 5 -c 0 --backend nccl \
      >"$RESULTS/harness.$round.log" 2>>"$RESULTS/overhead.log"
    awk '$1 ~ /^[0-9]+$/ && $3 == "float" { print $1, $6 }' "$RESULTS/harness.$round.log" >>"$RESULTS/harness.txt"
  done
  verdict=PASS
  worst=""
  for size in "${SIZES[@]}"; do
    bare="$(awk -v s="$size" '$1 == s { print $2 }' "$RESULTS/bare.txt" | sort -g | head -1)"
    mine="$(awk -v s="$size" '$1 == s { print $2 }' "$RESULTS/harness.txt" | sort -g | head -1)"
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
  note="collbench / bare ncclAllReduce <= $GATE from 256 MiB (last: ${worst:-n/a})"
  [ "$verdict" = FAIL ] && [ -z "$worst" ] && note="no figures: $(grep -m1 -i 'error\|collbench:' "$RESULTS/overhead.log" | cut -c1-160 | tr '|' '/')"
  record harness-overhead "$verdict" - "$((SECONDS - start))" "$note"
elif [ ! -x "$BARE" ]; then
  record harness-overhead FAIL - 0 "no $BARE in the build"
else
  record harness-overhead SKIP - 0 "time budget used up"
fi

# The test suites last: they repeat some of the above in finer detail. ctest's own per-test
# timeout, inside the step's limit.
if [ "$TESTS_BUILT" = yes ]; then
  STEP_LIMIT_S=$((STEP_LIMIT_S * 2)) check ctest-gpu 0 "" -- ctest --test-dir "$BUILD_DIR" -L gpu --output-on-failure --timeout 120
  check ctest-unit 0 "" -- ctest --test-dir "$BUILD_DIR" -L unit --output-on-failure --timeout 60 -j "$(nproc)"
else
  record ctest SKIP - 0 "GoogleTest did not build here"
fi

# ---------------------------------------------------------------- summary
trap - TERM INT
library="$(sed -n 's/.*"library": "\([^"]*\)".*/\1/p' "$RESULTS/single.json" 2>/dev/null | head -1)"
{
  if [ "${#OVERHEAD[@]}" -gt 0 ]; then
    echo
    echo "ncclAllReduce float sum, one GPU, out of place, 50 iterations after 5 warm-up, best of 3 (us per op):"
    echo
    echo "| bytes | bare loop | collbench | ratio | gated |"
    echo "|---|---|---|---|---|"
    printf '%s\n' "${OVERHEAD[@]}"
  fi
  echo
  echo "- collbench's libraries: ${library:-unknown}; checks took $((SECONDS - checks_start)) s"
  if [ "${NGPUS:-0}" -lt 2 ]; then
    echo "- What one GPU cannot prove: reductions across ranks (NCCL refuses two ranks on one device), the"
    echo "  NVLink, PCIe peer and network transports, -g threads over several GPUs, locate's pair and group phases."
  fi
  echo
  echo "Overall: $([ "$FAILED" -eq 0 ] && echo PASS || echo FAIL). Logs: $RESULTS/"
} >>"$SUMMARY"
echo
cat "$SUMMARY"
exit "$FAILED"
