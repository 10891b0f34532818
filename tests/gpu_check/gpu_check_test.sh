#!/usr/bin/env bash
# gpu_check_test.sh <check> <source dir> <build dir>: see CMakeLists.txt beside it.
set -uo pipefail
check=$1
SRC=$2
BUILD=$3
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Every step the script runs, in order; each must leave a row in the summary.
STEPS=(single env-world1 g1 mpirun-np1 graph-G10 group-m4 blocking-z1 blocking-z3 register-R1 register-R2
       per-iteration-I1-S1 types-ops collectives alltoallv locate-one-rank corrupt-one two-ranks-one-gpu
       no-gpu-nccl no-gpu-auto harness-overhead ctest-gpu ctest-unit)

rehearse() {  # rehearse <results dir> [extra env...]
  env OUT="$1" COLLBENCH_GPU_SKIP_BUILD=1 COLLBENCH_GPU_BUILD_DIR="$BUILD" COLLBENCH_GPU_BUDGET_S=300 \
    COLLBENCH_GPU_STEP_LIMIT_S=60 "${@:2}" bash "$SRC/scripts/gpu-check.sh"
}

case $check in
rehearsal)
  # No driver here: every GPU step fails with collbench's own one-line reason, the no-GPU
  # steps pass, and the summary says FAIL with a row per step.
  rehearse "$WORK/out" >"$WORK/stdout" 2>"$WORK/stderr"
  rc=$?
  [ "$rc" -eq 1 ] || fail "exit $rc, expected 1: $(tail -5 "$WORK/stderr")"
  summary="$WORK/out/summary.md"
  for step in "${STEPS[@]}"; do
    grep -q "^| $step | \(PASS\|FAIL\|SKIP\) |" "$summary" || fail "no row for $step in $(cat "$summary")"
    [ "$step" = harness-overhead ] || [ -f "$WORK/out/$step.log" ] || fail "no log for $step"
  done
  grep -q "^| single | FAIL | 3 | .*no CUDA device visible" "$summary" || fail "single's row lacks the reason"
  grep -q "^| no-gpu-nccl | PASS | 3 |" "$summary" || fail "no-gpu-nccl did not pass"
  grep -q "^| no-gpu-auto | PASS | 0 |" "$summary" || fail "no-gpu-auto did not pass"
  grep -q "^| harness-overhead | FAIL | .*no figures" "$summary" || fail "harness-overhead hid its failure"
  grep -q "What one GPU cannot prove" "$summary" || fail "the one-GPU limits are not stated"
  [ "$(tail -1 "$summary")" = "Overall: FAIL. Logs: $WORK/out/" ] || fail "last line: $(tail -1 "$summary")"
  ;;
interrupted)
  # Killed from outside once a step has reported: the rows so far stay, and the last line
  # says the run was interrupted, at once rather than after the running step.
  # exec: the signal must reach the script itself, not a subshell around it.
  (exec env OUT="$WORK/out" COLLBENCH_GPU_SKIP_BUILD=1 COLLBENCH_GPU_BUILD_DIR="$BUILD" \
     bash "$SRC/scripts/gpu-check.sh" >"$WORK/stdout" 2>"$WORK/stderr") &
  pid=$!
  for _ in $(seq 1 600); do
    grep -q "^| single |" "$WORK/out/summary.md" 2>/dev/null && break
    sleep 0.1
  done
  kill -TERM "$pid"
  start=$SECONDS
  wait "$pid"
  rc=$?
  [ "$rc" -ne 0 ] || fail "an interrupted run exited 0"
  [ $((SECONDS - start)) -lt 30 ] || fail "the script took $((SECONDS - start)) s to stop"
  grep -q "^| single | FAIL |" "$WORK/out/summary.md" || fail "the finished row was lost"
  tail -1 "$WORK/out/summary.md" | grep -q "^Overall: INTERRUPTED after" || fail "last line: $(tail -1 "$WORK/out/summary.md")"
  ;;
wheel-layout)
  # nvidia-nccl-cu13 ships nvidia/nccl/{include/nccl.h,lib/libnccl.so.2}, no libnccl.so.
  header=$(find /usr/local/cuda/include /usr/include -maxdepth 1 -name nccl.h 2>/dev/null | head -1)
  library=$(ldconfig -p | awk '/libnccl\.so\.2 /{ print $NF; exit }')
  [ -n "$library" ] || library=$(find /usr/local/cuda/lib64 /usr/local/cuda/targets -name 'libnccl.so.2' 2>/dev/null | head -1)
  [ -n "$header" ] && [ -n "$library" ] || { echo "SKIP: no NCCL here to lay out as a wheel"; exit 0; }
  wheel="$WORK/site-packages/nvidia/nccl"
  mkdir -p "$wheel/include" "$wheel/lib" "$WORK/project"
  ln -s "$header" "$wheel/include/nccl.h"
  ln -s "$(readlink -f "$library")" "$wheel/lib/libnccl.so.2"
  cat >"$WORK/project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(find_nccl LANGUAGES CXX)
list(APPEND CMAKE_MODULE_PATH "$SRC/cmake")
find_package(NCCL REQUIRED)
message(STATUS "found NCCL \${NCCL_VERSION} at \${NCCL_LIBRARY}")
CMAKE
  cmake -S "$WORK/project" -B "$WORK/build" -DNCCL_ROOT="$wheel" >"$WORK/configure.log" 2>&1 ||
    fail "FindNCCL refused the wheel layout: $(tail -5 "$WORK/configure.log")"
  grep -q "found NCCL [0-9.]* at $wheel/lib/libnccl.so.2" "$WORK/configure.log" ||
    fail "FindNCCL did not take the wheel's library: $(grep 'found NCCL' "$WORK/configure.log")"
  ;;
one-cuda-runtime)
  # The shared runtime only: cudart_static linked beside it would be a second runtime.
  binary="$BUILD/bench/collbench"
  readelf -d "$binary" | grep -q "NEEDED.*libcudart\.so" || fail "collbench does not load libcudart.so"
  defined=$(nm "$binary" | grep -cE " [TW] cuda(Malloc|GetDeviceCount|StreamCreate)$")
  [ "$defined" -eq 0 ] || fail "collbench defines CUDA runtime functions itself (cudart_static linked)"
  ;;
*) fail "unknown check $check" ;;
esac
echo "PASS: $check"
