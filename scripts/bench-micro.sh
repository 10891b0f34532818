#!/usr/bin/env bash
# Cheap checking (issue 8): how fast the checker generates and verifies data, per type, next
# to memcpy on one core (target: at least 50% of memcpy), and what checking costs a whole
# sweep (target: a checked sweep takes at most 1.3x an unchecked one).
#   scripts/bench-micro.sh [REPS=3] [RANKS=2] [MAX=64M]
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
collbench_setup >/dev/null
REPS="${1:-3}"; RANKS="${2:-2}"; MAX="${3:-64M}"
bench="$BUILD_DIR/tests/perf/collbench_check_bench"
[ -x "$bench" ] || { echo "bench-micro: $bench not built (needs Google Benchmark and tests)" >&2; exit 1; }

echo "== pattern generation and verification, 64 MiB, one core (GB/s; target >= 50% of memcpy)"
"$bench" --benchmark_format=csv --benchmark_min_time=0.3 2>/dev/null | awk -F, '
  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  { name = $1; gsub(/"/, "", name); bps = $col["bytes_per_second"] / 1e9
    if (name ~ /^memcpy/) { memcpy = bps; next }
    sub(/\/iterations:.*/, "", name); rows[++n] = name; rate[name] = bps }
  END { printf "%-24s %8s %8s  %s\n", "benchmark", "GB/s", "/memcpy", "target"
        printf "%-24s %8.2f %8s\n", "memcpy", memcpy, "1.00"
        for (i = 1; i <= n; i++) { r = rate[rows[i]] / memcpy
          printf "%-24s %8.2f %8.2f  %s\n", rows[i], rate[rows[i]], r, (r >= 0.5 ? "ok" : "MISSED") } }'

echo
echo "== whole sweep 8 B..$MAX on $RANKS ranks, -n 20: checked (-c 1) vs unchecked (-c 0), $REPS runs each"
# shellcheck disable=SC2046
sweep() { /usr/bin/env time -f "%e" mpirun $(mpirun_flags) -np "$RANKS" "$BUILD_DIR/bench/collbench" run -b 8 -e "$MAX" \
            -n 20 --no-topology --no-progress "$@" 2>&1 >/dev/null | tail -1; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
checked=(); unchecked=()
for _ in $(seq "$REPS"); do checked+=("$(sweep -c 1)"); unchecked+=("$(sweep -c 0)"); done
c=$(printf '%s\n' "${checked[@]}" | median); u=$(printf '%s\n' "${unchecked[@]}" | median)
awk -v c="$c" -v u="$u" 'BEGIN { r = c / u; printf "checked %.2f s, unchecked %.2f s (medians): ratio %.2f  %s\n", c, u, r, (r <= 1.3 ? "ok" : "MISSED") }'
