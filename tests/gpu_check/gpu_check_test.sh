#!/usr/bin/env bash
# gpu_check_test.sh <check> <source dir> <build dir>: see CMakeLists.txt beside it.
# The bundle checks read the bundle from COLLBENCH_GPU_BUNDLE (default: build-gpu-bundle/ in
# the source folder, as scripts/gpu-bundle.sh writes it); without one they skip (exit 77),
# unless COLLBENCH_GPU_BUNDLE_REQUIRED=1 (CI), where a missing bundle fails.
# No "producer | grep -q" below: under pipefail, grep's early exit fails the producer.
set -uo pipefail
check=$1
SRC=$2
BUILD=$3
BUNDLE="${COLLBENCH_GPU_BUNDLE:-$SRC/build-gpu-bundle}"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() {
  [ "${COLLBENCH_GPU_BUNDLE_REQUIRED:-0}" = 1 ] && fail "required, but: $*"
  echo "SKIP: $*"
  exit 77
}
need_bundle() { [ -x "$BUNDLE/bin/collbench" ] || skip "no GPU bundle in $BUNDLE (scripts/gpu-bundle.sh makes one)"; }

# The real libnccl.so.2 of this machine, if any.
real_nccl() {
  local lib
  lib=$(ldconfig -p | awk '/libnccl\.so\.2 /{ print $NF; exit }')
  [ -n "$lib" ] || lib=$(find /usr/local/cuda/lib64/ /usr/local/cuda/targets -name 'libnccl.so.2' 2>/dev/null | head -1)
  [ -n "$lib" ] && readlink -f "$lib"
}

# Every step gpu-check.sh runs on one GPU, in order.
STEPS=(device preflight sweep largest-fits collectives types-ops harness-overhead graph-G10 blocking-z1
       blocking-z3 register-R1 register-R2 timeout-T corrupt-one gpu-tests env-world1 g1 group-m4
       per-iteration-I1-S1 alltoallv two-ranks-one-gpu locate-one-rank no-gpu-nccl no-gpu-auto)

# A bundle whose collbench never returns: what the deadline and the interruption must stop.
hanging_bundle() {
  mkdir -p "$WORK/hang/bin"
  # Each process it starts writes its pid down, so that a check can see they all ended.
  printf '#!/bin/sh\necho $$ >>"%s/hang/pids"\nsleep 613 &\necho $! >>"%s/hang/pids"\nwait\n' "$WORK" "$WORK" \
    >"$WORK/hang/bin/collbench"
  chmod +x "$WORK/hang/bin/collbench"
  echo "$WORK/hang"
}

case $check in
closure)
  # What the bundle needs on the target: glibc, the C++ runtime, libnccl.so.2; cudart is carried.
  need_bundle
  allowed='^(libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|ld-linux-x86-64\.so\.2|libstdc\+\+\.so\.6|libgcc_s\.so\.1|libcudart\.so\.13|libnccl\.so\.2)$'
  for f in "$BUNDLE"/bin/* "$BUNDLE"/lib/*; do
    while read -r lib; do
      [[ "$lib" =~ $allowed ]] || fail "$(basename "$f") needs $lib, which the GPU machine lacks"
    done < <(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  done
  for f in "$BUNDLE"/bin/*; do
    runpath=$(readelf -d "$f" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
    [ "$runpath" = '$ORIGIN/../lib' ] || fail "$(basename "$f") has RUNPATH '$runpath', not \$ORIGIN/../lib"
    grep -q "libcudart.so.13 => $BUNDLE/bin/../lib/libcudart.so.13" <<<"$(ldd "$f")" ||
      fail "$(basename "$f") does not load the carried cudart: $(ldd "$f" | grep cudart)"
  done
  size=$(du -sb "$BUNDLE/bin" "$BUNDLE/lib" | awk '{ s += $1 } END { print s }')
  echo "bundle: $((size / 1048576)) MiB"
  [ "$size" -lt $((32 * 1048576)) ] || fail "the bundle is $((size / 1048576)) MiB (the device tool carries 64 MiB with the tree)"
  grep -q '^needs on the target: glibc >= 2\.[0-9]*, libstdc++ with GLIBCXX_' "$BUNDLE/BUNDLE.txt" ||
    fail "BUNDLE.txt does not say what the target needs"
  ;;
nccl-versions)
  # The binary loads against an older and a newer libnccl.so.2 than its headers' (the calls
  # newer than 2.12 are weak), with every symbol bound at start (LD_BIND_NOW), and says which
  # NCCL it found. The stand-ins export NCCL 2.12's API, and every function of this machine's
  # NCCL, and answer ncclGetVersion only: they test the loader, nothing is measured with them.
  need_bundle
  real=$(real_nccl)
  [ -n "$real" ] || skip "no libnccl.so.2 on this machine to take the newer API from"
  command -v cc >/dev/null || skip "no C compiler for the stand-in libraries"
  api_2_12="ncclGetVersion ncclGetUniqueId ncclCommInitRank ncclCommInitAll ncclCommDestroy ncclCommAbort
    ncclGetErrorString ncclCommGetAsyncError ncclCommCount ncclCommCuDevice ncclCommUserRank
    ncclRedOpCreatePreMulSum ncclRedOpDestroy ncclReduce ncclBcast ncclBroadcast ncclAllReduce
    ncclReduceScatter ncclAllGather ncclSend ncclRecv ncclGroupStart ncclGroupEnd"
  api_new=$(nm -D --defined-only "$real" | awk '$3 ~ /^nccl[A-Z]/ { print $3 }' | sort -u)
  stand_in() {  # stand_in <folder> <version code> <functions...>
    mkdir -p "$1"
    {
      echo "int ncclGetVersion(int* v) { *v = $2; return 0; }"
      for fn in "${@:3}"; do [ "$fn" = ncclGetVersion ] || echo "int $fn(void) { return 1; }"; done
    } >"$1/nccl.c"
    cc -shared -fPIC -Wl,-soname,libnccl.so.2 -o "$1/libnccl.so.2" "$1/nccl.c" || fail "could not build $1"
  }
  stand_in "$WORK/old" 21205 $api_2_12
  stand_in "$WORK/new" 29901 $api_new
  for v in old:2.12.5 new:2.99.1; do
    out=$(env LD_BIND_NOW=1 LD_LIBRARY_PATH="$WORK/${v%%:*}" "$BUNDLE/bin/collbench" --version 2>&1) ||
      fail "collbench did not start against NCCL ${v#*:}: $out"
    grep -q "NCCL ${v#*:} loaded" <<<"$out" || fail "collbench --version does not name NCCL ${v#*:}: $out"
    # The other two binaries of the bundle load as well (their own answers need no NCCL call).
    out=$(env LD_BIND_NOW=1 LD_LIBRARY_PATH="$WORK/${v%%:*}" "$BUNDLE/bin/nccl_bare_loop" 2>&1)
    grep -q "usage: nccl_bare_loop" <<<"$out" || fail "nccl_bare_loop did not start against NCCL ${v#*:}: $out"
    out=$(env LD_BIND_NOW=1 LD_LIBRARY_PATH="$WORK/${v%%:*}" "$BUNDLE/bin/collbench_gpu_tests" --gtest_list_tests 2>&1) ||
      fail "collbench_gpu_tests did not start against NCCL ${v#*:}: $out"
  done
  ;;
rehearsal)
  # The GPU machine as the issue describes it, in a mount namespace: no hwloc, no Open MPI, no
  # CUDA folder (so no NCCL there and no nvcc), no dev headers or CMake packages; NCCL only as
  # Python's wheel lays it out. Every GPU step must end with collbench's exit 3 and say why,
  # inside the deadline, with at most 8 files in OUT and summary.md among them.
  need_bundle
  real=$(real_nccl)
  [ -n "$real" ] || skip "no libnccl.so.2 on this machine to lay out as a wheel"
  unshare --mount --propagation private true 2>/dev/null || skip "no mount namespaces here (needs root)"
  py=$(command -v python3) || skip "no python3 on PATH"
  unshare --mount --propagation private bash "$0" rehearsal-inside "$SRC" "$BUILD" "$real" "$py" "$WORK" || exit 1
  ;;
rehearsal-inside)
  rm -rf "$WORK"  # the outer check's folder is used, and removed by it
  trap - EXIT
  real=$4
  py=$5
  WORK=$6
  site="$WORK/site-packages"
  mkdir -p "$site/nvidia/nccl/lib" "$WORK/out" "$WORK/pybin"
  : >"$site/nvidia/nccl/__init__.py"
  : >"$site/nvidia/nccl/lib/libnccl.so.2"
  mount --bind "$real" "$site/nvidia/nccl/lib/libnccl.so.2" || fail "could not lay out the wheel"
  : >"$WORK/empty"
  for d in /usr/local/cuda "$(readlink -f /usr/local/cuda)" /usr/include /usr/lib/x86_64-linux-gnu/openmpi \
           /usr/lib/x86_64-linux-gnu/cmake /usr/share/cmake /usr/lib/x86_64-linux-gnu/hwloc; do
    [ -d "$d" ] && { mount -t tmpfs none "$d" || fail "could not hide $d"; }
  done
  while read -r f; do
    mount --bind "$WORK/empty" "$f" || fail "could not hide $f"
  done < <(find /usr/lib/x86_64-linux-gnu /usr/lib -maxdepth 1 -type f \
             \( -name 'libhwloc*' -o -name 'libmpi*' -o -name 'libopen-pal*' -o -name 'libopen-rte*' \
                -o -name 'libnccl*' -o -name 'libcudart*' \) 2>/dev/null)
  [ ! -e /usr/include/nlohmann/json.hpp ] || fail "the dev headers are still visible"
  ! nvcc --version >/dev/null 2>&1 || fail "nvcc still runs"
  hwloc=$(find /usr/lib/x86_64-linux-gnu -maxdepth 1 -name 'libhwloc.so.*' -type f | head -1)
  [ -z "$hwloc" ] || [ ! -s "$hwloc" ] || fail "$hwloc is still visible"
  # A python3 that imports the wheel, as the target's does.
  printf '#!/bin/sh\nPYTHONPATH=%s exec %s "$@"\n' "$site" "$py" >"$WORK/pybin/python3"
  chmod +x "$WORK/pybin/python3"
  PATH="$WORK/pybin:$(echo "$PATH" | tr ':' '\n' | grep -v cuda | paste -sd:)"
  python3 -c 'import nvidia.nccl' || fail "the fake wheel does not import"
  start=$SECONDS
  env -u NCCL_ROOT -u NCCL_HOME -u LD_LIBRARY_PATH PATH="$PATH" OUT="$WORK/out" COLLBENCH_GPU_WORK="$WORK/logs" \
    bash "$SRC/scripts/gpu-check.sh" --prebuilt "$BUNDLE" --deadline 150 >"$WORK/stdout" 2>"$WORK/stderr"
  rc=$?
  took=$((SECONDS - start))
  summary="$WORK/out/summary.md"
  [ -f "$summary" ] || fail "no summary.md; stderr: $(tail -5 "$WORK/stderr")"
  [ "$rc" -eq 3 ] || fail "exit $rc, expected 3 (no GPU): $(cat "$summary")"
  [ "$took" -le 150 ] || fail "took $took s, past the 150 s deadline"
  files=$(find "$WORK/out" -type f | wc -l)
  [ "$files" -le 8 ] || fail "$files files in OUT: $(ls -a "$WORK/out")"
  [ "$(cd "$WORK/out" && ls -A | sort | paste -sd' ')" = "gpu-check-logs.tar.gz summary.md" ] ||
    fail "OUT holds $(ls -A "$WORK/out")"
  grep -qF -- "- NCCL found: $site/nvidia/nccl/lib/libnccl.so.2 (Python wheel, no nccl.h)" "$summary" ||
    fail "NCCL was not taken from the wheel: $(grep 'NCCL found' "$summary")"
  grep -qF "libcudart.so.13 => $BUNDLE/bin/../lib/libcudart.so.13; libnccl.so.2 => $site/nvidia/nccl/lib/libnccl.so.2" "$summary" ||
    fail "collbench did not load the carried cudart and the wheel's NCCL: $(grep 'loaded by' "$summary")"
  listed=$(tar -tzf "$WORK/out/gpu-check-logs.tar.gz")
  for step in "${STEPS[@]}"; do
    case $step in
      no-gpu-nccl) want="PASS | 3" ;;
      no-gpu-auto) want="PASS | 0" ;;
      *) want="NO-GPU | 3" ;;
    esac
    grep -q "^| $step | $want |" "$summary" || fail "row of $step is not '$want': $(grep "^| $step |" "$summary")"
    grep -qx "$step.log" <<<"$listed" || fail "no $step.log in the tarball"
  done
  grep -q "^| device | NO-GPU | 3 | .*no CUDA device visible (driver error" "$summary" || fail "the device row lacks the reason"
  tail -1 "$summary" | grep -q "^Overall: NO GPU: every GPU step ended with collbench's exit 3" ||
    fail "last line: $(tail -1 "$summary")"
  echo "rehearsal: $took s, $files files"
  ;;
deadline)
  # A step that never returns is killed where the deadline falls; the steps after it are
  # skipped; the summary and the tarball are there, and the script ends in time.
  hang=$(hanging_bundle)
  start=$SECONDS
  env OUT="$WORK/out" COLLBENCH_GPU_WORK="$WORK/logs" bash "$SRC/scripts/gpu-check.sh" --prebuilt "$hang" \
    --deadline 30 >"$WORK/stdout" 2>"$WORK/stderr"
  rc=$?
  took=$((SECONDS - start))
  summary="$WORK/out/summary.md"
  [ "$rc" -eq 1 ] || fail "exit $rc, expected 1: $(cat "$summary" 2>/dev/null)"
  [ "$took" -le 36 ] || fail "took $took s with a deadline of 30 s"
  grep -q "^| device | FAIL | 124 | .*killed at its limit" "$summary" || fail "the hanging step: $(grep '^| device' "$summary")"
  grep -q "^| sweep | SKIP | - | 0 s | deadline of 30 s reached" "$summary" || fail "later steps: $(grep '^| sweep' "$summary")"
  [ -f "$WORK/out/gpu-check-logs.tar.gz" ] || fail "no tarball"
  tail -1 "$summary" | grep -q "^Overall: FAIL" || fail "last line: $(tail -1 "$summary")"
  ;;
interrupted)
  # Stopped from outside while a step runs: at once, with the summary saying so.
  hang=$(hanging_bundle)
  (exec env OUT="$WORK/out" COLLBENCH_GPU_WORK="$WORK/logs" bash "$SRC/scripts/gpu-check.sh" --prebuilt "$hang" \
     >"$WORK/stdout" 2>"$WORK/stderr") &
  pid=$!
  for _ in $(seq 1 300); do  # until the first step's collbench and its child run
    [ "$(wc -l <"$hang/pids" 2>/dev/null)" = 2 ] && break
    sleep 0.1
  done
  kill -TERM "$pid"
  start=$SECONDS
  wait "$pid"
  rc=$?
  [ "$rc" -eq 130 ] || fail "an interrupted run exited $rc, expected 130"
  [ $((SECONDS - start)) -lt 10 ] || fail "the script took $((SECONDS - start)) s to stop"
  tail -1 "$WORK/out/summary.md" | grep -q "^Overall: INTERRUPTED after" || fail "last line: $(tail -1 "$WORK/out/summary.md")"
  [ -f "$WORK/out/gpu-check-logs.tar.gz" ] || fail "no tarball"
  [ -s "$hang/pids" ] || fail "the hanging collbench never started"
  grep -q "^| device |" "$WORK/out/summary.md" && fail "the interrupted step has a row"
  # Killed processes go at once, but are reaped when their new parent gets to it: a zombie
  # (state Z) has ended. 5 s for the others to go.
  running() { while read -r p; do ps -o stat= -p "$p" 2>/dev/null | grep -qv Z && echo "$p"; done <"$hang/pids"; }
  for _ in $(seq 1 50); do
    [ -z "$(running)" ] && break
    sleep 0.1
  done
  [ -z "$(running)" ] || fail "processes $(running | paste -sd' ') of the step outlived the script"
  ;;
wheel-layout)
  # A build with the wheel's NCCL: nvidia/nccl/{include/nccl.h,lib/libnccl.so.2}, no libnccl.so.
  header=$(find /usr/local/cuda/include /usr/include -maxdepth 1 -name nccl.h 2>/dev/null | head -1)
  library=$(real_nccl)
  [ -n "$header" ] && [ -n "$library" ] || { echo "SKIP: no NCCL here to lay out as a wheel"; exit 77; }
  wheel="$WORK/site-packages/nvidia/nccl"
  mkdir -p "$wheel/include" "$wheel/lib" "$WORK/project"
  ln -s "$header" "$wheel/include/nccl.h"
  ln -s "$library" "$wheel/lib/libnccl.so.2"
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
  grep -q "NEEDED.*libcudart\.so" <<<"$(readelf -d "$binary")" || fail "collbench does not load libcudart.so"
  defined=$(nm "$binary" | grep -cE " [TW] cuda(Malloc|GetDeviceCount|StreamCreate)$")
  [ "$defined" -eq 0 ] || fail "collbench defines CUDA runtime functions itself (cudart_static linked)"
  ;;
*) fail "unknown check $check" ;;
esac
echo "PASS: $check"
