#!/usr/bin/env bash
# nccl-tests' own analysis script on collbench's nccl-tests JSON: a drop-in's -J file and a
# converted run (report --format nccl-tests-json), each with and without -I 1, under a
# 2-process mpirun. tools/analyze_perf_json.py is read in place from a snapshot of
# NVIDIA/nccl-tests (git show into a temporary folder; never copied into the project): the
# first of $COLLBENCH_NCCL_TESTS_GIT (a git directory), /work/.mirror/NVIDIA+nccl-tests*/repo.
# Its default view, --straggler, --spikes and --nodes must run without error and say what
# the files hold. Without python3 or the snapshot the test skips (exit 77).
#   nccl_tests_json_test.sh BIN_DIR MPIEXEC SCRATCH_DIR
set -euo pipefail

bin_dir="$1"
mpiexec="$2"
scratch="$3"

python=/usr/bin/python3
[ -x "$python" ] || python="$(command -v python3 || true)"
[ -n "$python" ] || { echo "SKIP: no python3 to run nccl-tests' analyze_perf_json.py" >&2; exit 77; }

git_dir="${COLLBENCH_NCCL_TESTS_GIT:-}"
if [ -z "$git_dir" ]; then
  for candidate in /work/.mirror/NVIDIA+nccl-tests*/repo; do
    [ -d "$candidate" ] && { git_dir="$candidate"; break; }
  done
fi
if [ -z "$git_dir" ] || ! git --git-dir="$git_dir" cat-file -e HEAD:tools/analyze_perf_json.py 2>/dev/null; then
  echo "SKIP: no NVIDIA/nccl-tests snapshot with tools/analyze_perf_json.py (set COLLBENCH_NCCL_TESTS_GIT)" >&2
  exit 77
fi

fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$scratch"
mkdir -p "$scratch/upstream"
git --git-dir="$git_dir" show HEAD:tools/analyze_perf_json.py > "$scratch/upstream/analyze_perf_json.py"
analyze() { "$python" "$scratch/upstream/analyze_perf_json.py" "$@"; }

mpi_args=(-np 2 --oversubscribe)
[ "$(id -u)" -eq 0 ] && mpi_args+=(--allow-run-as-root)
mpirun_2() { timeout 300 "$mpiexec" "${mpi_args[@]}" "$@"; }

# Holds a text to a line: fixed strings, no pipe into grep -q.
has() {
  local file="$1" text="$2"
  grep -F -- "$text" "$file" > /dev/null || { cat "$file" >&2; fail "$file lacks: $text"; }
}

# The four views of one file; $2 says whether it has every process's samples (-I 1, live).
check_views() {
  local json="$1" samples="$2" out="$1.analysis"
  analyze "$json" > "$out.default" 2>&1 || { cat "$out.default" >&2; fail "default view of $json"; }
  has "$out.default" "  Version:    3"
  has "$out.default" "PER-ITERATION STATS (OOP)"
  analyze "$json" --straggler > "$out.straggler" 2>&1 || { cat "$out.straggler" >&2; fail "--straggler on $json"; }
  analyze "$json" --spikes > "$out.spikes" 2>&1 || { cat "$out.spikes" >&2; fail "--spikes on $json"; }
  analyze "$json" --nodes > "$out.nodes" 2>&1 || { cat "$out.nodes" >&2; fail "--nodes on $json"; }
  if [ "$samples" = yes ]; then
    has "$out.default" "  Process rows: 2"
    has "$out.default" "Consistency (times_us == max over process rows, OOP): PASS"
    has "$out.straggler" "PER-PROCESS STRAGGLER ANALYSIS (OOP)"
    has "$out.straggler" "fastest=process"
    has "$out.spikes" "SPIKE ANALYSIS (>1.5x avg, OOP)"
    has "$out.nodes" "PER-NODE ANALYSIS (1 nodes, process-max rows, OOP)"
    has "$out.nodes" "  Node 0 ("
  else
    has "$out.default" "  Process rows: 0"
    has "$out.straggler" "No per-process data available."
  fi
}

sweep=(-b 8 -e 64K -f 4 -n 8 -w 1)

# A drop-in's -J: nccl-tests' JSON, without and with -I 1.
mpirun_2 "$bin_dir/all_reduce_perf" "${sweep[@]}" -J "$scratch/plain.json" > "$scratch/plain.out" 2>&1 \
  || { cat "$scratch/plain.out" >&2; fail "all_reduce_perf -J"; }
has "$scratch/plain.out" "# Writing JSON output to $scratch/plain.json"
has "$scratch/plain.out" "# Collective test starting: all_reduce_perf"
"$python" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["version"]==3 and d["results"][0]["size"]==8, d' \
  "$scratch/plain.json" || fail "plain.json is not nccl-tests' JSON"
check_views "$scratch/plain.json" no

mpirun_2 "$bin_dir/all_reduce_perf" "${sweep[@]}" -I 1 -J "$scratch/iter.json" > "$scratch/iter.out" 2>&1 \
  || { cat "$scratch/iter.out" >&2; fail "all_reduce_perf -I 1 -J"; }
check_views "$scratch/iter.json" yes
# upstream never overwrites: a second run names its file iter.json.0
mpirun_2 "$bin_dir/all_reduce_perf" -b 8 -e 8 -n 2 -J "$scratch/iter.json" > "$scratch/again.out" 2>&1 \
  || { cat "$scratch/again.out" >&2; fail "second all_reduce_perf -J"; }
[ -s "$scratch/iter.json.0" ] || fail "an existing -J file was not kept as nccl-tests keeps it"

# collbench run: its own -J and nccl-tests' JSON at once, then the converter on its -J.
for mode in plain iter; do
  extra=()
  [ "$mode" = iter ] && extra=(-I 1)
  mpirun_2 "$bin_dir/collbench" run all_reduce all_gather "${sweep[@]}" "${extra[@]}" --no-progress \
    -J "$scratch/run-$mode.json" --nccl-tests-json "$scratch/both-$mode.json" > "$scratch/run-$mode.out" 2>&1 \
    || { cat "$scratch/run-$mode.out" >&2; fail "collbench run --nccl-tests-json ($mode)"; }
  "$bin_dir/collbench" report "$scratch/run-$mode.json" --format nccl-tests-json -o "$scratch/converted-$mode.json" \
    > "$scratch/report-$mode.out" 2>&1 || { cat "$scratch/report-$mode.out" >&2; fail "report --format nccl-tests-json"; }
  samples=no
  [ "$mode" = iter ] && samples=yes
  check_views "$scratch/both-$mode.json" "$samples"
  check_views "$scratch/converted-$mode.json" no
done
echo "PASS: analyze_perf_json.py read every file (views: default, --straggler, --spikes, --nodes)"
