#!/usr/bin/env bash
# Run on a development machine (Debian, with nlohmann-json3-dev, libcli11-dev and, optionally,
# libgtest-dev installed): copies the headers and CMake package files that a GPU machine
# without Debian dev packages or network needs into .gpu-deps/ (or the folder given as $1),
# laid out as CMake prefixes:
#   .gpu-deps/            nlohmann_json and CLI11 (header-only: always usable)
#   .gpu-deps/gtest/      GoogleTest, prebuilt static libraries (used only if they link there)
# scripts/gpu-check.sh points CMake at them. .gpu-deps/ is git-ignored (.gitignore), so copy
# or carry it along with the working tree.
set -euo pipefail

ROOT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="${1:-$ROOT_DIR/.gpu-deps}"
INCLUDE="${COLLBENCH_BUNDLE_INCLUDE:-/usr/include}"
SHARE_CMAKE="${COLLBENCH_BUNDLE_SHARE_CMAKE:-/usr/share/cmake}"
LIBDIR="${COLLBENCH_BUNDLE_LIBDIR:-/usr/lib/x86_64-linux-gnu}"

need() {
  [ -e "$1" ] || { echo "gpu-bundle: missing $1 (Debian: apt-get install $2)" >&2; exit 1; }
}
need "$INCLUDE/nlohmann/json.hpp" nlohmann-json3-dev
need "$SHARE_CMAKE/nlohmann_json/nlohmann_jsonConfig.cmake" nlohmann-json3-dev
need "$INCLUDE/CLI/CLI.hpp" libcli11-dev
need "$SHARE_CMAKE/CLI11/CLI11Config.cmake" libcli11-dev

rm -rf "$DEST"
mkdir -p "$DEST/include" "$DEST/share/cmake"
# The package files locate headers relative to themselves (three levels up), so the
# layout below keeps them valid wherever the folder ends up.
cp -r "$INCLUDE/nlohmann" "$INCLUDE/CLI" "$DEST/include/"
cp -r "$SHARE_CMAKE/nlohmann_json" "$SHARE_CMAKE/CLI11" "$DEST/share/cmake/"

gtest="no"
if [ -f "$LIBDIR/cmake/GTest/GTestConfig.cmake" ] && [ -f "$LIBDIR/libgtest.a" ]; then
  arch="$(basename "$LIBDIR")"
  mkdir -p "$DEST/gtest/include" "$DEST/gtest/lib/$arch/cmake"
  cp -r "$INCLUDE/gtest" "$DEST/gtest/include/"
  [ -d "$INCLUDE/gmock" ] && cp -r "$INCLUDE/gmock" "$DEST/gtest/include/"
  cp "$LIBDIR"/libgtest*.a "$DEST/gtest/lib/$arch/"
  cp "$LIBDIR"/libgmock*.a "$DEST/gtest/lib/$arch/" 2>/dev/null || true
  cp -r "$LIBDIR/cmake/GTest" "$DEST/gtest/lib/$arch/cmake/"
  gtest="yes ($(c++ --version | head -1))"
fi

{
  echo "Bundled by scripts/gpu-bundle.sh on $(hostname) at $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "nlohmann_json: $(grep -m1 -o 'PACKAGE_VERSION "[^"]*"' "$SHARE_CMAKE/nlohmann_json/nlohmann_jsonConfigVersion.cmake" || echo unknown)"
  echo "CLI11: $(grep -m1 -o 'PACKAGE_VERSION "[^"]*"' "$SHARE_CMAKE/CLI11/CLI11ConfigVersion.cmake" || echo unknown)"
  echo "GoogleTest (static libraries built by): $gtest"
} > "$DEST/BUNDLE.txt"
cat "$DEST/BUNDLE.txt"
echo "gpu-bundle: $(du -sh "$DEST" | cut -f1) in $DEST"
