#!/usr/bin/env bash
# The main job: install what is missing, build, then run a checked all_reduce sweep on this
# machine and write results/<host>-<date>-<time>.json. Extra arguments go to `collbench run`
# (e.g. scripts/run.sh -e 1G). RANKS=N changes the number of local ranks (default: one per
# GPU, or 2 on host memory).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
collbench_setup

ranks="${RANKS:-}"
if [ -z "$ranks" ]; then
  gpus=0
  command -v nvidia-smi >/dev/null && gpus="$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)"
  ranks=$(( gpus > 0 ? gpus : 2 ))
fi
mkdir -p "$ROOT_DIR/results"
out="$ROOT_DIR/results/$(hostname -s)-$(date +%Y%m%d-%H%M%S).json"
# shellcheck disable=SC2046
exec mpirun $(mpirun_flags) -np "$ranks" "$BUILD_DIR/bench/collbench" run -b 8 -e 64M -f 2 -J "$out" "$@"
