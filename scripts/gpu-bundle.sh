#!/usr/bin/env bash
# Builds, on a development machine with CUDA and NCCL, a self-contained GPU bundle for a GPU
# machine that has neither the project's dev packages nor a network: the bundle needs there
# only the C library, the NVIDIA driver and a libnccl.so.2 (a CUDA install's, the system's or
# Python's nvidia-nccl-cu13 wheel's), whichever NCCL 2.x it is.
#
#   scripts/gpu-bundle.sh [DEST]        default DEST: build-gpu-bundle/ (git-ignored)
#
# DEST/bin/   collbench, nccl_bare_loop (ncclAllReduce with nothing around it) and
#             collbench_gpu_tests (the tests labelled gpu), with RUNPATH $ORIGIN/../lib
# DEST/lib/   libcudart.so.13 (the toolkit's, so the runtime matches the kernels built here)
# DEST/BUNDLE.txt  what was built, from which commit, against which CUDA and NCCL headers,
#             the newest glibc symbol version it needs, and its size
#
# MPI and hwloc are off (the target has neither; the runs then record no host topology, and
# say so in one line); nlohmann_json and CLI11 are header-only; GoogleTest is linked
# statically, so the closure is libc, libm, libstdc++, libgcc_s, the
# carried cudart and libnccl.so.2: ctest GpuBundle.closure checks it. The C++ runtime
# stays shared: a static one would need glibc 2.36 (arc4random), which Ubuntu 22.04 lacks,
# while GCC 12's libstdc++ is there; BUNDLE.txt names the newest glibc and libstdc++ symbol
# versions the binaries need.
# The build folder, with its configure.log and build.log, is DEST.build/ (or
# COLLBENCH_BUNDLE_BUILD_DIR); COLLBENCH_BUNDLE_JOBS sets its parallelism.
# Exit status: 0 when the bundle is complete, 1 otherwise (the reason on stderr).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"  # ROOT_DIR, install_dependencies
DEST="$(mkdir -p "${1:-$ROOT_DIR/build-gpu-bundle}" && cd "${1:-$ROOT_DIR/build-gpu-bundle}" && pwd)"
BUILD="${COLLBENCH_BUNDLE_BUILD_DIR:-$DEST.build}"  # beside the bundle: only the bundle travels
JOBS="${COLLBENCH_BUNDLE_JOBS:-$(nproc)}"
TARGETS=(collbench nccl_bare_loop collbench_gpu_tests)

die() { echo "gpu-bundle: $*" >&2; exit 1; }
install_dependencies
command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || die "nvcc not found (CUDA's bin folder on PATH)"
command -v nvcc >/dev/null || export PATH="/usr/local/cuda/bin:$PATH"

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
# The install RUNPATH is used in the build tree too, and the link folders are left out of it:
# an absolute /usr/local/cuda/lib64 would pick the target's own cudart (or NCCL) before ours.
# COLLBENCH_WERROR as for scripts/test.sh (CI sets it for both, so that the two builds share
# ccache objects, and the bundle's code is held to the same warnings).
werror=()
[ -n "${COLLBENCH_WERROR:-}" ] && werror=("-DCOLLBENCH_WERROR=$COLLBENCH_WERROR")
mkdir -p "$BUILD"
# shellcheck disable=SC2046
cmake -S "$ROOT_DIR" -B "$BUILD" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "${werror[@]}" $(compiler_launcher_flags) \
  -DCOLLBENCH_WITH_NCCL=ON -DCOLLBENCH_WITH_MPI=OFF -DCOLLBENCH_WITH_HWLOC=OFF \
  -DCOLLBENCH_BUILD_TESTS=ON -DCOLLBENCH_BUILD_BENCHMARKS=OFF \
  -DCMAKE_BUILD_WITH_INSTALL_RPATH=ON -DCMAKE_INSTALL_RPATH='$ORIGIN/../lib' -DCMAKE_EXE_LINKER_FLAGS= \
  >"$BUILD/configure.log" 2>&1 || die "configure failed: $(tail -3 "$BUILD/configure.log" | tr '\n' ' ')"
grep -q "NCCL  : ON" "$BUILD/configure.log" || die "the NCCL backend was not configured (see $BUILD/configure.log)"
cmake --build "$BUILD" --parallel "$JOBS" --target "${TARGETS[@]}" >"$BUILD/build.log" 2>&1 ||
  die "build failed: $(grep -m3 -i 'error' "$BUILD/build.log" | tr '\n' ' ')"

rm -rf "$DEST/bin" "$DEST/lib"
mkdir -p "$DEST/bin" "$DEST/lib"
cp "$BUILD/bench/collbench" "$BUILD/bench/tools/nccl_bare_loop" "$BUILD/tests/gpu/collbench_gpu_tests" "$DEST/bin/"
# The cudart that the binaries were linked against, found the way the loader found it here.
cudart="$(ldd "$DEST/bin/collbench" | awk '$1 ~ /^libcudart\.so/ { print $3; exit }')"
[ -f "$cudart" ] || die "libcudart.so not resolved for collbench: $(ldd "$DEST/bin/collbench" | grep cudart)"
cp -L "$cudart" "$DEST/lib/$(basename "$cudart")"

newest() { objdump -T "$DEST"/bin/* | { grep -o "$1_[0-9.]*" || true; } | sort -uV | tail -1; }
glibc="$(newest GLIBC)"
glibcxx="$(newest GLIBCXX)"
nccl_headers="$(sed -n 's/.*NCCL backend: NCCL \([0-9.]*\), CUDA \([0-9.]*\).*/NCCL headers \1, CUDA \2/p' "$BUILD/configure.log")"
{
  echo "collbench GPU bundle"
  echo "commit: $(git -C "$ROOT_DIR" describe --always --dirty 2>/dev/null || echo unknown)"
  echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname), $(c++ --version | head -1)"
  echo "against: ${nccl_headers:-unknown}; kernels for sm $(sed -n 's/^COLLBENCH_CUDA_ARCHITECTURES:STRING=//p' "$BUILD/CMakeCache.txt")"
  echo "needs on the target: glibc >= ${glibc#GLIBC_}, libstdc++ with $glibcxx, an NVIDIA driver for CUDA $(basename "$cudart" | sed 's/libcudart\.so\.//'), libnccl.so.2 (2.12 or newer)"
  echo "files:"
  (cd "$DEST" && find bin lib -type f -printf '  %p %s bytes\n' | sort)
  echo "size: $(du -sb "$DEST/bin" "$DEST/lib" | awk '{ s += $1 } END { printf "%.1f MiB", s / 1048576 }')"
} >"$DEST/BUNDLE.txt"
cat "$DEST/BUNDLE.txt"
