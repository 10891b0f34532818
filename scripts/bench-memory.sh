#!/usr/bin/env bash
# Small memory (issue 8): peak resident memory per rank against 2.1 x the largest message
# size + 64 MiB, for a few sizes. Figures: the JSON's summary.max_rss_bytes (getrusage on
# every rank, the largest) and, when GNU time is installed, its own count per process.
#   scripts/bench-memory.sh [RANKS=2] [SIZES="64M 256M"]
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
collbench_setup >/dev/null
RANKS="${1:-2}"; SIZES="${2:-64M 256M}"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
gnu_time=(); [ -x /usr/bin/time ] && gnu_time=(/usr/bin/time -f "gnu-time-maxrss-kb %M")
printf "%10s %14s %14s %14s  %s\n" "size" "json max MiB" "time max MiB" "target MiB" "verdict"
for size in $SIZES; do
  bytes=$(numfmt --from=iec "$size")
  # shellcheck disable=SC2046
  mpirun $(mpirun_flags) -np "$RANKS" "${gnu_time[@]}" "$BUILD_DIR/bench/collbench" run -b "$size" -e "$size" -n 3 \
    --no-topology --no-progress -J "$work/$size.json" >/dev/null 2>"$work/$size.err"
  json=$(grep -o '"max_rss_bytes": [0-9]*' "$work/$size.json" | awk '{print $2 / 1048576}')
  gt=$(awk '/gnu-time-maxrss-kb/ { if ($2 > m) m = $2 } END { print m ? m / 1024 : "n/a" }' "$work/$size.err")
  awk -v s="$size" -v b="$bytes" -v j="$json" -v g="$gt" 'BEGIN {
    t = (2.1 * b + 64 * 1048576) / 1048576
    printf "%10s %14.0f %14s %14.0f  %s\n", s, j, g, t, (j <= t ? "ok" : "MISSED") }'
done
