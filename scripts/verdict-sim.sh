#!/usr/bin/env bash
# How often `collbench locate` is right at fleet scale, measured by simulation
# (`locate --simulate`, docs/locate.md): for each size (hosts x 8 ranks) and each fault,
# seeded trials, each judged against what was faulted (scripts/locate-judge.jq: exact, missed,
# false), with the simulated time spent against the budget. Prints a Markdown table (also to
# --out FILE) and the targets of docs/locate.md with whether each is met. Needs jq.
#
#   scripts/verdict-sim.sh [--sizes 16,128,1024] [--ranks 8] [--trials 20] [--clean-trials 20]
#                          [--faults clean,host50,host20,host5,uplink,two] [--budget 120]
#                          [--sigma 0.05] [--leaf-hosts N] [--out FILE] [--keep DIR]
#
# The cluster: NICs of 25 GB/s each way per rank, 150 GB/s of host fabric per rank, 5 us per
# message, leaves of 4 hosts (16 hosts), 16 (128) or 32 (1,024 and above) (--leaf-hosts N: N
# at every size) with non-blocking uplinks; noise: every timed iteration x exp(sigma x
# normal), and x3 with probability 0.001.
# Messages of 256 KiB (-b 256K -e 256K). Trial t uses seed t; the faulted host is drawn from
# the seed, a slow host keeps `factor` of its NICs, the slow uplink keeps 20 % of its leaf's
# hosts' NIC bandwidth, two slow hosts are each at 20 %.
set -euo pipefail
ROOT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
COLLBENCH=$(readlink -f "${COLLBENCH:-$ROOT_DIR/build/bench/collbench}")

SIZES=16,128,1024
RANKS=8
TRIALS=20
CLEAN_TRIALS=20
FAULTS=clean,host50,host20,host5,uplink,two
BUDGET=120
SIGMA=0.05
LEAF_HOSTS=""
OUT=""
KEEP=""
while [ $# -gt 0 ]; do
  case $1 in
    --sizes) SIZES=$2; shift 2 ;;
    --ranks) RANKS=$2; shift 2 ;;
    --trials) TRIALS=$2; shift 2 ;;
    --clean-trials) CLEAN_TRIALS=$2; shift 2 ;;
    --faults) FAULTS=$2; shift 2 ;;
    --budget) BUDGET=$2; shift 2 ;;
    --sigma) SIGMA=$2; shift 2 ;;
    --leaf-hosts) LEAF_HOSTS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --keep) KEEP=$2; shift 2 ;;
    *) echo "verdict-sim: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -x "$COLLBENCH" ] || { echo "verdict-sim: no collbench at $COLLBENCH (build first, or set COLLBENCH)" >&2; exit 2; }
command -v jq >/dev/null || { echo "verdict-sim: needs jq (apt-get install jq)" >&2; exit 2; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

leaf_size() {
  if [ -n "$LEAF_HOSTS" ]; then echo "$LEAF_HOSTS"
  elif [ "$1" -le 16 ]; then echo 4
  elif [ "$1" -le 128 ]; then echo 16
  else echo 32; fi
}

# The model's "faults" list and the expected answer for one trial, as "JSON<TAB>ANSWER".
fault_of() {
  local fault=$1 hosts=$2 seed=$3 leaves=$4
  local h=$(( (seed * 7919) % hosts )) g=$(( (seed * 104729 + hosts / 2) % hosts ))
  [ "$g" -eq "$h" ] && g=$(( (h + 1) % hosts ))
  case $fault in
    clean) printf '[]\t' ;;
    host50|host20|host5)
      local pct=${fault#host}
      printf '[{"kind": "slow_host", "host": %d, "factor": %s}]\thost h%d' "$h" "0.$(printf %02d "$pct")" "$h" ;;
    uplink)
      local leaf=$(( seed % leaves ))
      printf '[{"kind": "slow_uplink", "leaf": %d, "factor": 0.2}]\tswitch s%d' "$leaf" "$leaf" ;;
    two)
      printf '[{"kind": "slow_host", "host": %d, "factor": 0.2}, {"kind": "slow_host", "host": %d, "factor": 0.2}]\thost h%d h%d' \
        "$h" "$g" "$h" "$g" ;;
    *) echo "verdict-sim: unknown fault $fault" >&2; exit 2 ;;
  esac
}

results=$WORK/results.tsv
: > "$results"
IFS=, read -ra sizes <<< "$SIZES"
IFS=, read -ra faults <<< "$FAULTS"
for hosts in "${sizes[@]}"; do
  per_leaf=$(leaf_size "$hosts")
  leaves=$(( (hosts + per_leaf - 1) / per_leaf ))
  for fault in "${faults[@]}"; do
    n=$TRIALS; [ "$fault" = clean ] && n=$CLEAN_TRIALS
    for t in $(seq 1 "$n"); do
      IFS=$'\t' read -r fault_json expected < <(fault_of "$fault" "$hosts" "$t" "$leaves"; echo)
      model=$WORK/$hosts-$fault-$t.model.json
      json=$WORK/$hosts-$fault-$t.json
      cat > "$model" <<JSON
{"hosts": $hosts, "ranks_per_host": $RANKS, "nic_gbps": 25, "intra_host_gbps": 150,
 "hosts_per_leaf": $per_leaf, "uplink_gbps": 0, "latency_us": 5, "seed": $t,
 "noise": {"sigma": $SIGMA, "spike_probability": 0.001, "spike_factor": 3},
 "faults": $fault_json}
JSON
      started=$(date +%s.%N)
      "$COLLBENCH" locate --simulate "$model" --budget "$BUDGET" -b 256K -e 256K -J "$json" > "$json.out" 2>&1 || true
      cpu=$(echo "$(date +%s.%N) - $started" | bc)
      # One read of the document (at 1,024 hosts it is large): verdict, time, rounds, names.
      IFS=$'\t' read -r verdict spent rounds named < <(jq -L "$ROOT_DIR/scripts" -r --arg want "$expected" \
        'include "locate-judge"; [judge($want), (.budget.spent_s // 0), (.measurements.pairs.rounds_measured // 0),
         ([.findings[] | .label] | join(", "))] | @tsv' "$json" 2>/dev/null || printf 'error\t0\t0\t?\n')
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${hosts}x$RANKS" "$fault" "$verdict" "$spent" "$cpu" "$rounds" "$named" >> "$results"
      echo "verdict-sim: ${hosts}x$RANKS $fault trial $t: $verdict (${spent} s simulated, ${cpu} s here) named: ${named:-nothing}" >&2
      [ "$verdict" = error ] && tail -3 "$json.out" >&2
      if [ -n "$KEEP" ]; then mkdir -p "$KEEP" && cp -f "$model" "$json" "$json.out" "$KEEP/" 2>/dev/null || true; fi
    done
  done
done

table=$(awk -F'\t' -v budget="$BUDGET" '
  { key = $1 "\t" $2; if (!(key in n)) order[++k] = key
    n[key]++; c[key, $3]++; s = $4 + 0; if (s > max[key]) max[key] = s; sum[key] += s; cpu[key] += $5; rounds[key] = $6 }
  END {
    print "| size | fault | trials | exact | missed | false | pair rounds measured | mean s | max s (budget " budget " s) | s here per run |"
    print "|---|---|---|---|---|---|---|---|---|---|"
    for (i = 1; i <= k; i++) {
      key = order[i]; split(key, p, "\t")
      printf "| %s | %s | %d | %d | %d | %d | %s | %.1f | %.1f | %.1f |\n", p[1], p[2], n[key], c[key, "exact"], c[key, "missed"],
             c[key, "false"] + c[key, "error"], rounds[key], sum[key] / n[key], max[key], cpu[key] / n[key]
    }
  }' "$results")
targets=$(awk -F'\t' -v budget="$BUDGET" '
  { runs[$1]++; if ($4 + 0 > budget) over[$1]++ }
  $2 == "clean" { clean[$1]++; if ($3 == "exact") quiet[$1]++ }
  $2 ~ /^host/ { sev[$1]++; if ($3 == "exact") alone[$1]++ }
  $2 == "uplink" { up[$1]++; if ($3 == "exact") uok[$1]++ }
  $2 == "two" { two[$1]++; if ($3 == "exact") tok[$1]++ }
  END {
    for (l in clean) printf "- %s clean: nothing named in %d of %d trials (target: all) %s\n", l, quiet[l], clean[l], (quiet[l] == clean[l] ? "MET" : "MISSED")
    for (l in sev) printf "- %s one slow host (50, 20, 5 %%): named alone in %d of %d trials (target: 95 %%) %s\n", l, alone[l], sev[l], (alone[l] >= sev[l] * 0.95 ? "MET" : "MISSED")
    for (l in up) printf "- %s slow uplink: its switch named alone in %d of %d trials (target: 95 %%) %s\n", l, uok[l], up[l], (uok[l] >= up[l] * 0.95 ? "MET" : "MISSED")
    for (l in two) printf "- %s two slow hosts: both named, nothing else, in %d of %d trials (target: 95 %%) %s\n", l, tok[l], two[l], (tok[l] >= two[l] * 0.95 ? "MET" : "MISSED")
    for (l in runs) printf "- %s simulated time: %d runs above the %d s budget %s\n", l, over[l] + 0, budget, (over[l] + 0 == 0 ? "MET" : "MISSED")
  }' "$results" | sort)
report="Simulated $(date -u +%Y-%m-%d) at commit $(git -C "$ROOT_DIR" rev-parse --short HEAD 2>/dev/null || echo unknown), budget $BUDGET s, 256 KiB messages, 25 GB/s NICs, noise sigma $SIGMA (spikes x3 at 0.001), seeds 1..N, on $(nproc) cores:

$table

$targets"
echo "$report"
[ -n "$OUT" ] && echo "$report" > "$OUT"
exit 0
