#!/usr/bin/env bash
# Faster sweeps at equal precision (issue 8): the default sweep (precision-driven, checked) on
# RANKS ranks from 8 B to MAX, twice back to back. Prints each run's wall time (target: under
# 15 s for 2 ranks up to 64 MiB) and, per size from 1 MiB, how far the two runs' median busbw
# differ (target: within 5% on a quiet machine), with the precision each run reached.
#   scripts/bench-sweep.sh [RANKS=2] [MAX=64M] [extra collbench run flags...]
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
collbench_setup >/dev/null
RANKS="${1:-2}"; MAX="${2:-64M}"; shift $(( $# > 2 ? 2 : $# ))
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
for run in a b; do
  start=$(date +%s.%N)
  # shellcheck disable=SC2046
  mpirun $(mpirun_flags) -np "$RANKS" "$BUILD_DIR/bench/collbench" run -b 8 -e "$MAX" --no-progress \
    -J "$work/$run.json" "$@" >/dev/null
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" -v r="$run" 'BEGIN { printf "run %s: %.1f s wall  %s\n", r, e - s, (e - s < 15 ? "ok" : "MISSED (target 15 s)") }'
  "$BUILD_DIR/bench/collbench" report "$work/$run.json" --csv "$work/$run.csv" >/dev/null
done
# Median busbw = busbw x time / median; both runs joined on (size, placement).
awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  $col["size_bytes"] >= 1048576 && $col["median_us"] > 0 {
    key = $col["size_bytes"] " " $col["placement"]
    bw = $col["busbw_gbps"] * $col["time_us"] / $col["median_us"]
    if (FILENAME ~ /a\.csv$/) a[key] = bw; else b[key] = bw }
  END { printf "%12s %-13s %10s %10s %8s  %s\n", "size", "placement", "run a", "run b", "diff", "target 5%"
        n = 0; for (k in a) keys[++n] = k
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) { split(keys[i], x, " "); split(keys[j], y, " ")
          if (x[1] + 0 > y[1] + 0 || (x[1] == y[1] && x[2] > y[2])) { t = keys[i]; keys[i] = keys[j]; keys[j] = t } }
        for (i = 1; i <= n; i++) { k = keys[i]; if (!(k in b)) continue; split(k, f, " ")
          d = (b[k] - a[k]) / a[k]; printf "%12s %-13s %10.2f %10.2f %7.1f%%  %s\n", f[1], f[2], a[k], b[k], 100 * d, (d <= 0.05 && d >= -0.05 ? "ok" : "MISSED") } }' \
  "$work/a.csv" "$work/b.csv"
