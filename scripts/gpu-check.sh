#!/usr/bin/env bash
# The NCCL backend's check on a GPU machine that has never been seen: one call, no network,
# one overall deadline, and at most three files in the results folder.
#
#   scripts/gpu-check.sh [--prebuilt DIR] [--deadline SECONDS]
#
# Binaries: DIR (a bundle from scripts/gpu-bundle.sh: bin/collbench, bin/nccl_bare_loop,
# bin/collbench_gpu_tests, lib/libcudart.so.13); without --prebuilt, build-gpu-bundle/ when it
# holds a bundle; else a build here into build-gpu/ (needs CUDA, NCCL with its header, CMake,
# ninja and the project's dev packages), inside the deadline.
#
# NCCL: the first libnccl.so.2 of NCCL_ROOT, the CUDA folder (nvcc's, /usr/local/cuda), /usr,
# then Python's nvidia-nccl-cu13/-cu12 wheel through every python3 on PATH. Its folder goes on
# LD_LIBRARY_PATH in this shell, so every step below loads it; a library without nccl.h is
# enough for a bundle, a build needs the header too.
#
# Deadline: COLLBENCH_GPU_DEADLINE_S (default 360 s) covers everything, the build included.
# Each step is killed at its own limit or at what is left of the deadline, and the steps run in
# order of value, so the most important results exist whenever time runs out.
#
# Results: OUT (the device tool's folder) or build-gpu/gpu-check/ gets exactly these files:
#   summary.md          rewritten after every step: facts, one row per step, the verdict
#   gpu-check-logs.tar.gz  every step's log and JSON, rewritten after every step
#   sweep.json          the main run's JSON (checked all_reduce, 8 B - 4 GiB)
# Logs are kept in COLLBENCH_GPU_WORK (default: a new folder under /tmp), named in summary.md.
# A run stopped from outside (SIGTERM, SIGINT) ends the summary with "Overall: INTERRUPTED".
#
# With no GPU visible, each GPU step must end with collbench's own answer (exit 3, "no CUDA
# device visible"): its row reads NO-GPU. That is the rehearsal on a CPU machine (ctest
# GpuBundle.rehearsal, tests/gpu_check/gpu_check_test.sh).
# Exit status: 0 every step passed; 1 a step failed, or no binaries; 2 bad arguments; 3 no GPU
# was visible and every GPU step said so cleanly; 130 interrupted.
set -uo pipefail

ROOT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREBUILT="${COLLBENCH_GPU_PREBUILT:-}"
DEADLINE_S="${COLLBENCH_GPU_DEADLINE_S:-360}"
while [ $# -gt 0 ]; do
  case "$1" in
    --prebuilt) PREBUILT="${2:?--prebuilt needs a folder}"; shift 2 ;;
    --deadline) DEADLINE_S="${2:?--deadline needs seconds}"; shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-check: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ "$DEADLINE_S" =~ ^[0-9]+$ ]] && [ "$DEADLINE_S" -ge 30 ] || { echo "gpu-check: --deadline must be >= 30 seconds" >&2; exit 2; }
[ -z "$PREBUILT" ] && [ -x "$ROOT_DIR/build-gpu-bundle/bin/collbench" ] && PREBUILT="$ROOT_DIR/build-gpu-bundle"

RESULTS="${OUT:-$ROOT_DIR/build-gpu/gpu-check}"
WORK="${COLLBENCH_GPU_WORK:-$(mktemp -d /tmp/gpu-check.XXXXXX)}"
mkdir -p "$RESULTS" "$WORK" || exit 1
RESERVE_S=8  # kept back at the end for the summary and the tarball
START=$SECONDS

log() { echo "gpu-check: $*" >&2; }
left() { echo $((DEADLINE_S - RESERVE_S - (SECONDS - START))); }

# ---------------------------------------------------------------- the summary
FACTS=()    # "- name: value" lines
ROWS=()     # "| step | verdict | exit | seconds | note |"
TABLES=()   # extra lines after the table (the overhead figures)
STATUS="running"
write_summary() {
  {
    echo "## collbench GPU check"
    echo
    printf '%s\n' "${FACTS[@]}"
    echo "- deadline: ${DEADLINE_S} s; $((SECONDS - START)) s used; logs: $WORK (all in gpu-check-logs.tar.gz)"
    echo
    echo "| step | result | exit | time | note |"
    echo "|---|---|---|---|---|"
    [ "${#ROWS[@]}" -gt 0 ] && printf '%s\n' "${ROWS[@]}"
    [ "${#TABLES[@]}" -gt 0 ] && printf '%s\n' "${TABLES[@]}"
    echo
    echo "- One GPU cannot prove: reductions across ranks (NCCL refuses two ranks on one device), the NVLink,"
    echo "  PCIe peer and network transports, -g threads over several GPUs, locate's pair and group phases."
    echo
    echo "Overall: $STATUS"
  } >"$RESULTS/.summary.md.tmp" && mv -f "$RESULTS/.summary.md.tmp" "$RESULTS/summary.md"
}
# Every log and JSON in one file; one over 4 MiB stays out (named in a list) so that the
# tarball keeps well inside the 16 MiB a returned file may have.
pack_logs() {
  (cd "$WORK" && find . -type f -size +4M -printf '%P %s bytes\n' >left-out.txt &&
    find . -type f -size -4097k -printf '%P\n' | tar -czf "$RESULTS/.logs.tmp" -T - 2>/dev/null) &&
    mv -f "$RESULTS/.logs.tmp" "$RESULTS/gpu-check-logs.tar.gz"
}
publish() { write_summary; pack_logs; }

STEP_PID=""
WATCHDOG_PID=""
interrupted() {
  # timeout leads its own process group: the step's programs go with it.
  [ -n "$STEP_PID" ] && kill -KILL -- -"$STEP_PID" "$STEP_PID" 2>/dev/null
  STATUS="INTERRUPTED after $((SECONDS - START)) s (rows above are complete; the step running then is not listed)"
  publish
  exit 130
}
trap interrupted TERM INT
# The deadline holds even if a step outlives its own limit: the script stops itself.
(sleep "$DEADLINE_S" && kill -TERM $$ 2>/dev/null) &
WATCHDOG_PID=$!
# Its sleep goes with it, rather than outliving the script by up to the deadline.
trap '[ -n "$WATCHDOG_PID" ] && { pkill -P "$WATCHDOG_PID"; kill "$WATCHDOG_PID"; } 2>/dev/null' EXIT

# ---------------------------------------------------------------- NCCL, in this shell
NCCL_LIB_DIR=""
NCCL_INCLUDE_DIR=""
NCCL_FROM="not found"
# nccl_in <root> <label>: sets the NCCL_* variables when <root> holds libnccl.so.2.
nccl_in() {
  local lib
  for lib in "$1/lib" "$1/lib64" "$1/lib/x86_64-linux-gnu" "$1/targets/x86_64-linux/lib"; do
    [ -e "$lib/libnccl.so.2" ] || continue
    NCCL_LIB_DIR="$lib"
    NCCL_INCLUDE_DIR=""
    [ -f "$1/include/nccl.h" ] && NCCL_INCLUDE_DIR="$1/include"
    NCCL_FROM="$lib/libnccl.so.2 ($2$([ -z "$NCCL_INCLUDE_DIR" ] && echo ", no nccl.h"))"
    return 0
  done
  return 1
}
# The folders of the nvidia.nccl package that a python3 sees (the wheel ships no unversioned
# libnccl.so, and nvidia/ is a namespace package, so sys.path is searched as well).
wheel_roots() {
  local py
  for py in $(type -ap python3) /usr/bin/python3; do
    [ -x "$py" ] || continue
    timeout 20 "$py" - <<'PY' 2>/dev/null
import os, sys
roots = []
try:
    import nvidia.nccl as n
    roots += list(n.__path__)
except Exception:
    pass
roots += [os.path.join(p, "nvidia", "nccl") for p in sys.path if p]
for r in roots:
    print(r)
PY
  done
}
find_nccl() {  # find_nccl <needs the header: 0|1>
  local root cuda_root=""
  command -v nvcc >/dev/null && cuda_root="$(dirname "$(dirname "$(command -v nvcc)")")"
  for root in "${NCCL_ROOT:-}" "$cuda_root" /usr/local/cuda /usr; do
    [ -n "$root" ] && nccl_in "$root" "$root" && { [ "$1" = 0 ] || [ -n "$NCCL_INCLUDE_DIR" ]; } && return 0
  done
  while read -r root; do
    nccl_in "$root" "Python wheel" && { [ "$1" = 0 ] || [ -n "$NCCL_INCLUDE_DIR" ]; } && return 0
  done < <(wheel_roots)
  NCCL_LIB_DIR=""
  NCCL_FROM="not found (set NCCL_ROOT)"
  return 1
}

# ---------------------------------------------------------------- binaries
[ -x "$(command -v nvcc)" ] || { [ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"; }
# Containers often mount the driver's tools here without putting them on PATH.
command -v nvidia-smi >/dev/null || { [ -x /usr/local/nvidia/bin/nvidia-smi ] && export PATH="$PATH:/usr/local/nvidia/bin"; }
BUILD_NOTE=""
if [ -n "$PREBUILT" ]; then
  BIN="$PREBUILT/bin"
  find_nccl 0
  BUILD_NOTE="prebuilt: $(sed -n 's/^commit: //p' "$PREBUILT/BUNDLE.txt" 2>/dev/null || echo '?'), $(sed -n 's/^size: //p' "$PREBUILT/BUNDLE.txt" 2>/dev/null || echo '?')"
else
  BIN="$ROOT_DIR/build-gpu/bin"
  find_nccl 1
  log "no bundle: building into build-gpu/ (NCCL: $NCCL_FROM)"
  build_start=$SECONDS
  # The bundle's own recipe, into build-gpu/, with nothing installed (no network there).
  if [ -n "$NCCL_LIB_DIR" ] && [ "$(left)" -gt 60 ]; then
    timeout --kill-after=5 "$(($(left) - 30))" env NCCL_ROOT="$(dirname "$NCCL_INCLUDE_DIR")" COLLBENCH_NO_INSTALL=1 \
      bash "$ROOT_DIR/scripts/gpu-bundle.sh" "$ROOT_DIR/build-gpu" >"$WORK/build.log" 2>&1 &&
      BUILD_NOTE="built here in $((SECONDS - build_start)) s"
  fi
  [ -n "$BUILD_NOTE" ] || BUILD_NOTE="build failed after $((SECONDS - build_start)) s: $(tail -1 "$WORK/build.log" 2>/dev/null | cut -c1-200)"
fi
[ -n "$NCCL_LIB_DIR" ] && export LD_LIBRARY_PATH="$NCCL_LIB_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
CB="$BIN/collbench"
BARE="$BIN/nccl_bare_loop"
GTESTS="$BIN/collbench_gpu_tests"
NGPUS="$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)"

FACTS+=("- date: $(date -u +%Y-%m-%dT%H:%M:%SZ); host: $(hostname); $(nproc) CPUs")
FACTS+=("- GPUs: ${NGPUS:-0}: $(nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap --format=csv,noheader 2>/dev/null | head -1 || echo 'nvidia-smi not found')")
FACTS+=("- binaries: $BIN ($BUILD_NOTE)")
FACTS+=("- NCCL found: $NCCL_FROM")
FACTS+=("- loaded by collbench: $(ldd "$CB" 2>/dev/null | awk '/libnccl|libcudart|not found/ { printf "%s%s => %s", sep, $1, $3; sep = "; " }')")
if [ ! -x "$CB" ]; then
  STATUS="FAIL (no collbench binary: $BUILD_NOTE)"
  publish
  exit 1
fi

STATUS="running (the rows above are the steps done so far)"
publish

# ---------------------------------------------------------------- steps
FAILED=0
GPU_STEPS=0
NO_GPU_STEPS=0
NO_GPU_TEXT="no CUDA device visible"

record() {  # record <name> <verdict> <exit> <seconds> <note>
  ROWS+=("| $1 | $2 | $3 | $4 s | $(echo "$5" | tr '|\n' '/ ' | cut -c1-220) |")
  [ "$2" = FAIL ] && FAILED=1
  log "$1: $2 (exit $3, $4 s) $5"
  publish
}

# step <name> <limit s> <expected exit> <text that must appear, or ''> <gpu|cpu> -- command...
# A GPU step that ends with exit 3 and collbench's "no CUDA device visible" reads NO-GPU.
step() {
  local name="$1" own="$2" expect="$3" text="$4" kind="$5"
  shift 6
  local limit start=$SECONDS rc verdict=PASS note=""
  limit="$(left)"
  [ "$limit" -gt "$own" ] && limit="$own"
  [ "$kind" = gpu ] && GPU_STEPS=$((GPU_STEPS + 1))
  if [ "$limit" -lt 5 ]; then
    record "$name" SKIP - 0 "deadline of ${DEADLINE_S} s reached"
    return
  fi
  # timeout runs programs, not this shell's functions: a function step runs in a new bash
  # that is handed the function and the variables it reads. timeout signals the whole
  # process group, so collbench under that bash stops too.
  if declare -F "$1" >/dev/null; then
    set -- bash -c "set -uo pipefail; $(declare -p CB BARE GTESTS WORK RUN SIZES GATE GATED_FROM NO_GPU_TEXT);
      $(declare -f "$1" best ratio_of); \"\$@\"" _ "$@"
  fi
  timeout --kill-after=3 "$limit" "$@" >"$WORK/$name.log" 2>&1 &
  STEP_PID=$!
  wait "$STEP_PID"
  rc=$?
  STEP_PID=""
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    verdict=FAIL
    note="killed at its limit of $limit s"
  elif [ "$kind" = gpu ] && [ "$rc" -eq 3 ] && grep -qF "$NO_GPU_TEXT" "$WORK/$name.log"; then
    verdict=NO-GPU
    NO_GPU_STEPS=$((NO_GPU_STEPS + 1))
    note="$(grep -m1 -F "$NO_GPU_TEXT" "$WORK/$name.log" | cut -c1-120)"
  elif [ "$rc" -ne "$expect" ]; then
    verdict=FAIL
    note="$(grep -m1 -i 'error\|collbench:\|fail' "$WORK/$name.log" || grep -v '^$' "$WORK/$name.log" | tail -1)"
    note="exit $rc, expected $expect: $(echo "$note" | cut -c1-180)"
  elif [ -n "$text" ] && ! grep -qF -- "$text" "$WORK/$name.log"; then
    verdict=FAIL
    note="output lacks '$text'"
  else
    note="$(step_note "$name")"
  fi
  record "$name" "$verdict" "$rc" "$((SECONDS - start))" "$note"
}

# What a passed step's log says that is worth a row: the largest row's time and algbw (one
# rank has no bus bandwidth), the peak busbw where there is one, skipped rows, the clamp.
step_note() {
  local f="$WORK/$1.log" largest peak skipped reduced
  if grep -q 'collbench fixed / bare' "$f"; then  # harness-overhead: its ratios
    grep 'collbench fixed / bare' "$f" | sed 's/: collbench fixed \/ bare = / /' | paste -sd' ' | sed 's/^/fixed \/ bare: /'
    return
  fi
  largest="$(awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && $5 ~ /^-?[0-9]+$/ && NF >= 9 { row = $1 " B " $3 " " $4 ": " $6 " us, algbw " $7 " GB/s" } END { print row }' "$f")"
  peak="$(grep -m1 '^# Peak bus bandwidth' "$f" | sed 's/^# Peak bus bandwidth *: *//; /N\/A/d')"
  skipped="$(grep -c 'skipped:' "$f" || true)"
  reduced="$(grep -m1 -o 'Reducing maxBytes to [0-9]*' "$f")"
  echo "${largest:+largest row $largest}${peak:+; peak busbw $peak}${reduced:+; $reduced}$([ "$skipped" != 0 ] && echo "; $skipped rows skipped: $(grep -m1 -o 'skipped: .*' "$f" | cut -c10-90)")"
}

device_facts() {  # the device step: what the machine and collbench say about the GPU
  nvidia-smi || true
  nvidia-smi topo -m || true
  echo "---- ldd collbench"
  ldd "$CB"
  echo "---- collbench's header on this GPU"
  "$CB" run -b 8 -e 8 -n 1 -w 0 -c 1 --no-progress --backend nccl
}

RUN=(run -T 60 --no-progress --backend nccl)
OK_TEXT="# Out of bounds values : 0 OK"
SIZES=(1048576 16777216 268435456 4294967296)  # the harness-overhead step's: -b 1M -e 4G -f 16
GATE=1.02           # collbench --fixed-buffers / bare, from GATED_FROM bytes up
GATED_FROM=268435456
# NCCL's own warnings in every log (a refused call says why there, not only "invalid argument").
export NCCL_DEBUG="${NCCL_DEBUG:-WARN}"
best() { awk -v s="$1" '$1 == s { print $2 }' "$WORK/$2.txt" | sort -g | head -1; }  # best <bytes> <bare|fixed|rotated|allocated-first>
ratio_of() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.3f", a / b; else print "-" }'; }

step device 60 0 "backend=nccl (NCCL" gpu -- device_facts
if grep -q "backend=nccl (NCCL" "$WORK/device.log"; then
  FACTS+=("- runtime: $(grep -m1 -o 'backend=nccl (NCCL.*)$' "$WORK/device.log" | sed 's/^backend=nccl (//; s/)$//')")
fi
step preflight 60 0 "" gpu -- "$CB" preflight --backend nccl -T 60 -J "$WORK/preflight.json"
step sweep 120 0 "$OK_TEXT" gpu -- "$CB" "${RUN[@]}" -b 8 -e 4G -f 2 -n 20 -w 5 -c 1 -J "$WORK/sweep.json"
[ -f "$WORK/sweep.json" ] && cp "$WORK/sweep.json" "$RESULTS/sweep.json"
# -e beyond any device: collbench lowers it to what fits (nccl-tests' rule) and says so.
step largest-fits 120 0 "Reducing maxBytes to" gpu -- "$CB" "${RUN[@]}" -b 8G -e 1T -f 2 -n 5 -w 1 -c 1
step collectives 90 0 "$OK_TEXT" gpu -- "$CB" "${RUN[@]}" all -b 8 -e 64M -f 4 -n 5 -d float,bfloat16,int8
step types-ops 90 0 "$OK_TEXT" gpu -- "$CB" "${RUN[@]}" -b 8 -e 1M -f 8 -n 3 -d all -o all -J "$WORK/types.json"

# collbench against ncclAllReduce with nothing around it: the same sizes, iterations and
# warm-up, out of place, interleaved three times; the best of each per size is compared.
# The bare loop reuses one buffer pair set up as nccl-tests and collbench set theirs up (the
# communicator first, then ncclMemAlloc), so --fixed-buffers is the like-for-like figure (the
# gate); collbench's default rotates its buffers as nccl-tests does (caches cold), and the
# bare loop with its buffers allocated before the communicator (-a) is shown beside.
overhead() {
  local round policy
  for round in 1 2 3; do
    for policy in fixed rotated; do
      echo "== round $round: collbench, $policy buffers"
      "$CB" "${RUN[@]}" -b 1M -e 4G -f 16 -n 50 -w 5 -c 0 $([ "$policy" = fixed ] && echo --fixed-buffers) |
        tee "$WORK/harness.$policy.$round.log" || return $?
      awk '$1 ~ /^[0-9]+$/ && $3 == "float" { print $1, $6 }' "$WORK/harness.$policy.$round.log" >>"$WORK/$policy.txt"
    done
    echo "== round $round: bare, nccl-tests' setup"
    "$BARE" -n 50 -w 5 "${SIZES[@]}" | tee -a "$WORK/bare.txt" || return $?
    echo "== round $round: bare, allocated before the communicator"
    "$BARE" -n 50 -w 5 -a "${SIZES[@]}" | tee -a "$WORK/allocated-first.txt" || return $?
  done
  local size bare fixed ratio over=0
  for size in "${SIZES[@]}"; do
    bare="$(best "$size" bare)"
    fixed="$(best "$size" fixed)"
    [ -n "$bare" ] && [ -n "$fixed" ] || { echo "no figures at $size B"; return 1; }
    ratio="$(ratio_of "$fixed" "$bare")"
    [ "$size" -ge "$GATED_FROM" ] && awk -v r="$ratio" -v g="$GATE" 'BEGIN { exit !(r > g) }' && over=1
    echo "$size B: collbench fixed / bare = $ratio"
  done
  [ "$over" -eq 0 ] || { echo "collbench --fixed-buffers is over $GATE x the bare loop from $GATED_FROM B"; return 1; }
}
: >"$WORK/bare.txt"
: >"$WORK/allocated-first.txt"
: >"$WORK/fixed.txt"
: >"$WORK/rotated.txt"
step harness-overhead 120 0 "" gpu -- overhead
if [ -s "$WORK/bare.txt" ]; then
  TABLES+=("" "ncclAllReduce float sum, one GPU, out of place, 50 iterations after 5 warm-up, best of 3 interleaved (us per op);"
           "gate: fixed / bare <= $GATE from $GATED_FROM B:" "")
  TABLES+=("| bytes | bare loop | collbench --fixed-buffers | fixed / bare | collbench (rotated) | rotated / bare | bare, buffers before the communicator |"
           "|---|---|---|---|---|---|---|")
  for size in "${SIZES[@]}"; do
    bare="$(best "$size" bare)"
    fixed="$(best "$size" fixed)"
    rotated="$(best "$size" rotated)"
    plain="$(best "$size" allocated-first)"
    TABLES+=("| $size | ${bare:--} | ${fixed:--} | $(ratio_of "$fixed" "$bare") | ${rotated:--} | $(ratio_of "$rotated" "$bare") | ${plain:--} |")
  done
  publish
fi

step graph-G10 60 0 "$OK_TEXT" gpu -- "$CB" "${RUN[@]}" -b 8 -e 1G -f 4 -n 10 -G 10
step blocking-z1 45 0 "$OK_TEXT" gpu -- "$CB" "${RUN[@]}" -b 8 -e 64M -f 4 -n 5 -z 1
step blocking-z3 45 0 "$OK_TEXT" gpu -- "$CB" "${RUN[@]}" -b 8 -e 64M -f 4 -n 5 -z 3
step register-R1 45 0 "$OK_TEXT" gpu -- "$CB" "${RUN[@]}" -b 8 -e 256M -f 4 -n 10 -R 1
step register-R2 45 0 "$OK_TEXT" gpu -- "$CB" "${RUN[@]}" -b 8 -e 256M -f 4 -n 10 -R 2
# A forced failure: every timed iteration of the 1 MiB row stalls 30 s against -T 2, so the
# watchdog must abort NCCL and end the run with exit 4, the partial JSON kept.
timeout_run() {
  "$CB" run -T 2 --no-progress --backend nccl -b 1M -e 1M -n 3 -w 0 \
    --fault at-size=1048576,stall-every=1,stall-us=30000000 -J "$WORK/timeout.json"
  local rc=$?
  [ "$rc" -eq 4 ] && { grep -q '"timeout"' "$WORK/timeout.json" && echo "partial JSON kept, status timeout" ||
    { echo "no partial JSON with status timeout"; return 1; }; }
  return "$rc"
}
step timeout-T 45 4 "partial JSON kept" gpu -- timeout_run
step corrupt-one 45 7 "element 12345" gpu -- "$CB" "${RUN[@]}" -b 1M -e 1M -n 2 --fault corrupt-rank=0,index=12345
# The tests labelled gpu (the same binary ctest -L '^gpu$' runs in a build tree).
gpu_tests() {
  local out rc
  "$GTESTS" --gtest_color=no
  rc=$?
  [ "$rc" -ne 0 ] && return "$rc"
  # Every test skipped: no device was visible to them.
  grep -q '^\[  PASSED  \] 0 tests' "$WORK/gpu-tests.log" && { echo "$NO_GPU_TEXT (every gpu test skipped)"; return 3; }
  return 0
}
step gpu-tests 120 0 "" gpu -- gpu_tests
step env-world1 45 0 "$OK_TEXT" gpu -- env RANK=0 WORLD_SIZE=1 LOCAL_RANK=0 LOCAL_WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 \
  MASTER_PORT=29517 "$CB" "${RUN[@]}" -b 8 -e 64M -f 8 -n 5 --bootstrap env
step g1 45 0 "$OK_TEXT" gpu -- "$CB" "${RUN[@]}" -b 8 -e 64M -f 8 -n 5 -g 1
step group-m4 45 0 "$OK_TEXT" gpu -- "$CB" "${RUN[@]}" -b 8 -e 256M -f 4 -n 10 -m 4
step per-iteration-I1-S1 45 0 "i_cv%" gpu -- "$CB" "${RUN[@]}" -b 8 -e 64M -f 8 -n 20 -I 1 -S 1
step alltoallv 45 0 "$OK_TEXT" gpu -- "$CB" "${RUN[@]}" alltoallv -b 8 -e 16M -f 8 -n 5
if [ "${NGPUS:-0}" -ge 2 ]; then
  step "g$NGPUS-all-gpus" 60 0 "$OK_TEXT" gpu -- "$CB" "${RUN[@]}" -b 8 -e 1G -f 4 -n 10 -g "$NGPUS"
else
  # NCCL refuses two ranks on one device ("Duplicate GPU detected"): collbench says so first.
  step two-ranks-one-gpu 45 8 "share the GPU" gpu -- "$CB" "${RUN[@]}" -e 8 -g 2
fi
step locate-one-rank 60 0 "" gpu -- "$CB" locate --budget 20 --backend nccl
step no-gpu-nccl 30 3 "$NO_GPU_TEXT (driver error" cpu -- env CUDA_VISIBLE_DEVICES= "$CB" run -T 60 --no-progress -e 8 --backend nccl
step no-gpu-auto 30 0 "# $NO_GPU_TEXT" cpu -- env CUDA_VISIBLE_DEVICES= "$CB" run -T 60 --no-progress -e 8 -n 2

# ---------------------------------------------------------------- verdict
trap - TERM INT
rc=0
if [ "$FAILED" -ne 0 ]; then
  STATUS="FAIL"
  rc=1
elif [ "$GPU_STEPS" -gt 0 ] && [ "$NO_GPU_STEPS" -eq "$GPU_STEPS" ]; then
  STATUS="NO GPU: every GPU step ended with collbench's exit 3 ($NO_GPU_TEXT)"
  rc=3
elif [ "$NO_GPU_STEPS" -gt 0 ]; then
  STATUS="FAIL ($NO_GPU_STEPS of $GPU_STEPS GPU steps saw no device)"
  rc=1
else
  STATUS="PASS"
fi
STATUS="$STATUS, in $((SECONDS - START)) s"
publish
cat "$RESULTS/summary.md"
exit "$rc"
