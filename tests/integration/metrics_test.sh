#!/usr/bin/env bash
# run --metrics and report --format openmetrics, for real: a 2-rank mpirun writes the file,
# promtool (Debian package prometheus) checks it, and node_exporter's textfile collector
# (Debian package prometheus-node-exporter) serves it with the run's values and no scrape
# error. Without those packages the test skips (exit 77), unless COLLBENCH_METRICS_REQUIRED=1.
#   metrics_test.sh COLLBENCH MPIEXEC SCRATCH_DIR
set -euo pipefail

collbench="$1"
mpiexec="$2"
scratch="$3"
node_exporter=/usr/bin/prometheus-node-exporter

missing=()
command -v promtool >/dev/null || missing+=("promtool (package prometheus)")
[ -x "$node_exporter" ] || missing+=("$node_exporter (package prometheus-node-exporter)")
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "${COLLBENCH_METRICS_REQUIRED:-0}" = 1 ]; then
    echo "FAIL: COLLBENCH_METRICS_REQUIRED=1 but missing: ${missing[*]}" >&2
    exit 1
  fi
  echo "SKIP: missing ${missing[*]}" >&2
  exit 77
fi

fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$scratch"
textdir="$scratch/textfile"
mkdir -p "$textdir"
prom="$textdir/collbench.prom"
run_json="$scratch/run.json"

# The run. -n keeps it short; the sizes are those of the issue's example.
mpi_args=(-np 2 --oversubscribe)
[ "$(id -u)" -eq 0 ] && mpi_args+=(--allow-run-as-root)
timeout 300 "$mpiexec" "${mpi_args[@]}" "$collbench" run -b 8 -e 1M -n 5 -w 1 --no-progress \
  -J "$run_json" --metrics "$prom" > "$scratch/run.out" 2>&1 || { cat "$scratch/run.out" >&2; fail "collbench run failed"; }
grep -q "^# Metrics written to $prom\$" "$scratch/run.out" || fail "no '# Metrics written to' line"
[ -s "$prom" ] || fail "$prom is empty or missing"
# The atomic write leaves nothing else in the folder (the collector would read a stray *.prom).
[ "$(ls -A "$textdir")" = "collbench.prom" ] || fail "unexpected files in $textdir: $(ls -A "$textdir")"

# promtool reads the file on stdin; any lint problem makes it exit non-zero.
promtool check metrics < "$prom" > "$scratch/promtool.out" 2>&1 || { cat "$scratch/promtool.out" >&2; fail "promtool check metrics"; }

# report --format openmetrics renders the same text from the JSON run file, to stdout and -o.
"$collbench" report --format openmetrics "$run_json" > "$scratch/report.prom" || fail "report --format openmetrics"
cmp "$prom" "$scratch/report.prom" || fail "report --format openmetrics differs from run --metrics"
"$collbench" report --format openmetrics -o "$scratch/again.prom" "$run_json" > /dev/null || fail "report -o"
cmp "$prom" "$scratch/again.prom" || fail "report -o differs from run --metrics"

# Figures of the file, for comparison with the scrape.
sample_count=$(grep -c '^collbench_' "$prom")
busbw_line=$(grep '^collbench_busbw_gbytes_per_second{.*collective="all_reduce".*size_bytes="1048576",placement="out_of_place"}' "$prom") \
  || fail "no busbw series of all_reduce 1 MiB in $prom"
busbw=${busbw_line##* }
host=$(sed -n 's/^collbench_run_ranks{host="\([^"]*\)"} 2$/\1/p' "$prom")
[ -n "$host" ] || fail "no collbench_run_ranks{host=...} 2 in $prom"
grep -qx "collbench_run_ok{host=\"$host\",status=\"ok\"} 1" "$prom" || fail "run not ok in $prom"
end=$(sed -n 's/^collbench_run_end_timestamp_seconds{host="[^"]*"} //p' "$prom")
[ -n "$end" ] || fail "no end timestamp"

# collbench health into the same folder: its series are its own (collbench_health_*), so that
# node_exporter serves both files without a series twice.
health_prom="$textdir/health.prom"
timeout 300 "$mpiexec" "${mpi_args[@]}" "$collbench" health -b 1K -e 1K -n 5 -w 1 --no-progress \
  --metrics "$health_prom" > "$scratch/health.out" 2>&1 || { cat "$scratch/health.out" >&2; fail "collbench health failed"; }
promtool check metrics < "$health_prom" > "$scratch/promtool-health.out" 2>&1 \
  || { cat "$scratch/promtool-health.out" >&2; fail "promtool check metrics (health)"; }
grep -qx "collbench_health_ok{host=\"$host\"} 1" "$health_prom" || fail "health not ok in $health_prom"
grep -q '^collbench_health_busbw_gbytes_per_second{' "$health_prom" || fail "no sweep figures in $health_prom"
if grep -h '^collbench_' "$prom" "$health_prom" | sed 's/ [^ ]*$//' | sort | uniq -d | grep -q .; then
  fail "a series is in both files"
fi
sample_count=$((sample_count + $(grep -c '^collbench_' "$health_prom")))

# node_exporter on a free port of 127.0.0.1: a port taken by someone else makes it exit at once.
exporter_pid=
cleanup() { if [ -n "$exporter_pid" ]; then kill "$exporter_pid" 2>/dev/null || true; wait "$exporter_pid" 2>/dev/null || true; fi; }
trap cleanup EXIT
scrape() {
  if command -v curl >/dev/null; then
    curl -sf --max-time 5 "http://127.0.0.1:$1/metrics"
  else
    exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
    printf 'GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
    sed '1,/^\r$/d' <&3
    exec 3<&-
  fi
}
port=
for _ in $(seq 1 20); do
  candidate=$((20000 + RANDOM % 30000))
  "$node_exporter" --web.listen-address="127.0.0.1:$candidate" --collector.disable-defaults --collector.textfile \
    --collector.textfile.directory="$textdir" > "$scratch/node_exporter.log" 2>&1 &
  exporter_pid=$!
  for _ in $(seq 1 50); do
    if scrape "$candidate" > "$scratch/scrape.txt" 2>/dev/null; then port=$candidate; break; fi
    kill -0 "$exporter_pid" 2>/dev/null || break
    sleep 0.1
  done
  [ -n "$port" ] && break
  cleanup
  exporter_pid=
done
[ -n "$port" ] || { cat "$scratch/node_exporter.log" >&2; fail "node_exporter did not start"; }

scraped=$scratch/scrape.txt
grep -qx 'node_textfile_scrape_error 0' "$scraped" || { grep textfile "$scraped" >&2; cat "$scratch/node_exporter.log" >&2; fail "textfile scrape error"; }
[ "$(grep -c '^collbench_' "$scraped")" = "$sample_count" ] || fail "node_exporter serves $(grep -c '^collbench_' "$scraped") collbench samples, the file has $sample_count"
# node_exporter sorts labels by name and prints floats its own way: compare figures as numbers.
served_busbw=$(grep '^collbench_busbw_gbytes_per_second{' "$scraped" | grep 'collective="all_reduce"' \
  | grep 'placement="out_of_place"' | grep 'size_bytes="1048576"' | sed 's/.* //')
[ -n "$served_busbw" ] || fail "node_exporter does not serve the busbw of all_reduce 1 MiB"
awk -v a="$busbw" -v b="$served_busbw" 'BEGIN { exit !(a + 0 == b + 0) }' || fail "busbw $busbw in the file, $served_busbw served"
grep -qx "collbench_run_ok{host=\"$host\",status=\"ok\"} 1" "$scraped" || fail "collbench_run_ok not served"
served_end=$(sed -n 's/^collbench_run_end_timestamp_seconds{host="[^"]*"} //p' "$scraped")
awk -v a="$end" -v b="$served_end" 'BEGIN { exit !(a + 0 == b + 0 && a + 0 > 1e9) }' || fail "end timestamp $end in the file, $served_end served"
grep -q '^# HELP collbench_busbw_gbytes_per_second Bus bandwidth' "$scraped" || fail "HELP text not served"
grep -qx "collbench_health_ok{host=\"$host\"} 1" "$scraped" || fail "collbench_health_ok not served"

echo "PASS: $sample_count collbench samples checked by promtool and served by node_exporter on port $port"
