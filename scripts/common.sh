# Shared by the scripts: install what is missing, configure, build (run.sh, test.sh, the
# bench-*.sh), and find a free TCP port (cluster.sh, launch-local.sh). Source it; it defines
# functions and ROOT_DIR, BUILD_DIR, and turns on `set -euo pipefail`.

set -euo pipefail
ROOT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${COLLBENCH_BUILD_DIR:-$ROOT_DIR/build}"
BUILD_TYPE="${COLLBENCH_BUILD_TYPE:-Release}"

# Debian packages the build and the tests need.
DEB_PACKAGES=(cmake ninja-build g++ pkg-config libopenmpi-dev openmpi-bin libhwloc-dev hwloc libhwloc-plugins
              nlohmann-json3-dev libcli11-dev libgtest-dev libbenchmark-dev
              iproute2 nftables)  # the last two: network-namespace tests of the TCP rendezvous

missing_packages() {
  local missing=()
  for p in "${DEB_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  echo "${missing[@]:-}"
}

install_dependencies() {
  [ -n "${COLLBENCH_NO_INSTALL:-}" ] && return 0  # a machine without a network (scripts/gpu-check.sh)
  command -v dpkg-query >/dev/null || { echo "collbench: not a Debian system; install: ${DEB_PACKAGES[*]}" >&2; return 0; }
  local missing
  missing="$(missing_packages)"
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "collbench: missing packages: $missing" >&2
    echo "collbench: run: sudo apt-get update && sudo apt-get install -y $missing" >&2
    exit 1
  fi
  echo "collbench: installing $missing" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
}

# CMake flags that put ccache in front of the compilers when it is installed (COLLBENCH_CCACHE=0:
# never). CI builds the same sources twice (the test build, then the GPU bundle's, which
# differ in include folders and adapters but not in most preprocessed sources); ccache's
# preprocessor mode hashes what the compiler sees, so the second build reuses those objects.
compiler_launcher_flags() {
  if [ "${COLLBENCH_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null; then
    echo "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache"
  fi
}

configure_and_build() {
  local generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  # COLLBENCH_WERROR=ON (CI) turns the project's own warnings into errors.
  [ -n "${COLLBENCH_WERROR:-}" ] && set -- "-DCOLLBENCH_WERROR=$COLLBENCH_WERROR" "$@"
  if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
    # shellcheck disable=SC2046
    cmake -S "$ROOT_DIR" -B "$BUILD_DIR" "${generator[@]}" -DCMAKE_BUILD_TYPE="$BUILD_TYPE" $(compiler_launcher_flags) \
      "$@" >/dev/null
  elif [ "$#" -gt 0 ]; then
    cmake "$BUILD_DIR" "$@" >/dev/null
  fi
  cmake --build "$BUILD_DIR" --parallel "$(nproc)"
}

collbench_setup() {
  install_dependencies
  configure_and_build "$@"
}

# mpirun flags this machine needs: root needs explicit permission; more ranks than cores
# need --oversubscribe.
mpirun_flags() {
  local flags=(--oversubscribe)
  [ "$(id -u)" -eq 0 ] && flags+=(--allow-run-as-root)
  echo "${flags[@]}"
}

# True when some socket in this network namespace (/proc/net/tcp is per namespace) uses TCP
# port $1: listening, connected or in TIME_WAIT.
port_in_use() {
  local hex
  hex=$(printf ':%04X' "$1")
  awk -v h="$hex" 'FNR > 1 && substr($2, length($2) - 4) == h { found = 1 } END { exit !found }' \
    /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

# Prints a TCP port in 20000-49999 that nothing here uses; returns 1 without output when 200
# tries found none, so that the caller says what to do instead (its own words and exit code:
# a `die` in here would only leave the $(...) that called it).
free_port() {
  local port tries
  for ((tries = 0; tries < 200; tries++)); do
    port=$((20000 + RANDOM % 30000))
    port_in_use "$port" || { echo "$port"; return 0; }
  done
  return 1
}
