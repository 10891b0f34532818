#!/usr/bin/env bash
# The test suite: install what is missing, build, run every test through ctest.
# Extra arguments go to ctest (e.g. scripts/test.sh -L unit).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
collbench_setup
cd "$BUILD_DIR"
ctest --output-on-failure --timeout 600 -j "$(nproc)" "$@"
