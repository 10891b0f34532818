#!/usr/bin/env bash
# Is collbench's harness free? Runs a bare MPI_Allreduce loop (bench/tools/bare_allreduce.cpp)
# and `collbench run` alternately, same sizes, iterations and ranks, REPS times each, and
# prints per size the median time of each, the ratio of busbw (collbench / bare) and the
# extra time. Targets (issue 8): ratio >= 0.98 from 64 KiB up, <= 0.3 us extra at 8 B.
#   scripts/bench-overhead.sh [REPS=7] [RANKS=2] [MAX=16M] [ITERS=50]
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
collbench_setup >/dev/null
REPS="${1:-7}"; RANKS="${2:-2}"; MAX="${3:-16M}"; ITERS="${4:-50}"
max_bytes=$(numfmt --from=iec "$MAX")
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2046
launch() { mpirun $(mpirun_flags) -np "$RANKS" "$@"; }

for rep in $(seq "$REPS"); do
  launch "$BUILD_DIR/bench/tools/bare_allreduce" 8 "$max_bytes" "$ITERS" 5 > "$work/bare.$rep"
  launch "$BUILD_DIR/bench/collbench" run -b 8 -e "$MAX" -n "$ITERS" -w 5 --no-topology --no-progress \
    | awk '!/^#/ && NF >= 13 {print $1, $6, $8}' > "$work/cb.$rep"
  echo "run $rep/$REPS done" >&2
done

# The median of numbers on stdin.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Per size: median over runs of each side's time, and median of the per-run busbw ratio.
printf "%12s %12s %12s %10s %10s  %s\n" "size(B)" "bare(us)" "collbench" "extra(us)" "bw ratio" "target"
for size in $(cat "$work"/bare.* | awk '{print $1}' | sort -n | uniq); do
  tb=$(for r in $(seq "$REPS"); do awk -v s="$size" '$1 == s {print $2}' "$work/bare.$r"; done | median)
  tc=$(for r in $(seq "$REPS"); do awk -v s="$size" '$1 == s {print $2}' "$work/cb.$r"; done | median)
  ratio=$(for r in $(seq "$REPS"); do
            paste <(awk -v s="$size" '$1 == s {print $3}' "$work/cb.$r") <(awk -v s="$size" '$1 == s {print $3}' "$work/bare.$r")
          done | awk '$2 > 0 {print $1 / $2}' | median)
  awk -v s="$size" -v tb="$tb" -v tc="$tc" -v r="${ratio:-0}" 'BEGIN {
    target = ""
    if (s >= 65536) target = (r >= 0.98) ? "ratio ok" : "ratio MISSED"
    if (s == 8) target = (tc - tb <= 0.3) ? "extra ok" : "extra MISSED"
    printf "%12d %12.3f %12.3f %10.3f %10.3f  %s\n", s, tb, tc, tc - tb, r, target }'
done
