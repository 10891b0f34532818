#!/usr/bin/env bash
# How often `collbench locate` is right, measured on a namespace cluster (scripts/cluster.sh)
# with real faults: for each layout (hosts x ranks per host) and each fault, several trials,
# each judged against what was faulted:
#   exact   the faulted host (or link) named, and nothing else
#   missed  the fault not named (nothing named, or only innocents)
#   false   something innocent named (with or without the fault)
# and the time spent against the budget. Prints a Markdown table (also to --out FILE) and the
# targets of docs/locate.md with whether each is met.
#
#   scripts/verdict-quality.sh [--trials N] [--clean-trials N] [--budget S] [--layouts 4x1,4x2,3x2,8x1]
#                              [--faults clean,host50,host20,host5,link,latency,two,uplink] [--out FILE]
#                              [--keep DIR] [--fabric]
#
# --keep DIR keeps every trial's locate JSON and output there (LAYOUT-FAULT-TRIAL.json), to
# read why a trial named what it did.
#
# Faults: a host's bandwidth at 50 %, 20 % and 5 % of what an unfaulted inter-host pair
# measures (tc token bucket, both directions), one link at 20 %, 20 ms of extra latency on a
# host (netem: skipped where the kernel lacks it), two hosts at 20 % (4 hosts or more: two of
# three slow hosts are the majority, which no comparison can name). Root; minutes per cell.
#
# --fabric runs every trial with `locate --fabric`, the hosts under leaf switches of two (h1, h2
# under s1; h3, h4 under s2; ...), and adds the fault `uplink`: every link from the last leaf's
# two hosts to the others at 20 % (at least two leaves; judged right when that switch is named).
set -euo pipefail
ROOT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT_DIR"
COLLBENCH=$(readlink -f "${COLLBENCH:-build/bench/collbench}")
CLUSTER=(bash "$ROOT_DIR/scripts/cluster.sh")

TRIALS=5
CLEAN_TRIALS=20
BUDGET=20
LAYOUTS=4x1,4x2,3x2,8x1
FAULTS=clean,host50,host20,host5,link,latency,two
OUT=""
KEEP=""
FABRIC=""
while [ $# -gt 0 ]; do
  case $1 in
    --trials) TRIALS=$2; shift 2 ;;
    --clean-trials) CLEAN_TRIALS=$2; shift 2 ;;
    --budget) BUDGET=$2; shift 2 ;;
    --layouts) LAYOUTS=$2; shift 2 ;;
    --faults) FAULTS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --keep) KEEP=$2; shift 2 ;;
    --fabric) FABRIC=1; shift ;;
    *) echo "verdict-quality: unknown argument $1" >&2; exit 2 ;;
  esac
done
command -v jq >/dev/null || { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq >/dev/null; }

WORK=$(mktemp -d)
CLUSTER_ID=""
cleanup() {
  [ -n "$CLUSTER_ID" ] && "${CLUSTER[@]}" down "$CLUSTER_ID" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

say() { echo "verdict-quality: $*" >&2; }

# As many hosts as the largest layout needs (at least 4: the two-host fault uses h4).
max_hosts=4
IFS=, read -ra wanted <<< "$LAYOUTS"
for layout in "${wanted[@]}"; do
  [[ $layout =~ ^[1-9][0-9]*x[1-9][0-9]*$ ]] || { echo "verdict-quality: bad layout '$layout' (HOSTSxRANKS)" >&2; exit 2; }
  [ "${layout%x*}" -gt "$max_hosts" ] && max_hosts=${layout%x*}
done
CLUSTER_ID=$("${CLUSTER[@]}" up "$max_hosts" 2>"$WORK/up.log") || { cat "$WORK/up.log" >&2; exit 1; }
export COLLBENCH_CLUSTER=$CLUSTER_ID

# topology.conf for --fabric: leaves of two hosts in host order, under one spine.
fabric_conf() {
  local hosts=$1 h leaves=0
  for h in $(seq 1 2 "$hosts"); do
    leaves=$((leaves + 1))
    echo "SwitchName=s$leaves Nodes=h$h$([ "$h" -lt "$hosts" ] && echo ",h$((h + 1))")"
  done
  echo "SwitchName=spine Switches=s[1-$leaves]"
}

# mpirun over the first H hosts with P ranks each.
locate() {
  local hosts=$1 ppn=$2 json=$3 list="" h fabric=()
  for h in $(seq 1 "$hosts"); do list+="${list:+,}h$h:$ppn"; done
  if [ -n "$FABRIC" ]; then fabric_conf "$hosts" > "$WORK/fabric-$hosts.conf"; fabric=(--fabric "$WORK/fabric-$hosts.conf"); fi
  timeout $((BUDGET * 3 + 60)) "${CLUSTER[@]}" mpirun --host "$list" -np $((hosts * ppn)) \
    "$COLLBENCH" locate --budget "$BUDGET" -J "$json" --force --no-progress "${fabric[@]}" < /dev/null > "$json.out" 2>&1 || true
}

# The median unfaulted inter-host pair bandwidth of a layout, in Mbit/s.
baseline_mbit() {
  local hosts=$1 ppn=$2 json=$WORK/baseline-$1x$2.json
  "${CLUSTER[@]}" fault clear >/dev/null 2>&1 || true
  locate "$hosts" "$ppn" "$json"
  jq '[.measurements.pairs.pairs[] | select(.class == "inter_host") | .gbps] | sort |
      if length == 0 then 0 else .[length / 2 | floor] end * 8000 | floor' "$json"
}

# Applies a fault; prints what a right verdict names: "host h2", "hosts h2 h4", "link h1 h3", "".
apply_fault() {
  local fault=$1 base=$2 hosts=$3 rate
  "${CLUSTER[@]}" fault clear >/dev/null 2>&1 || true
  case $fault in
    clean) echo "" ;;
    host50|host20|host5)
      rate=$((base * ${fault#host} / 100)); [ "$rate" -lt 1 ] && rate=1
      "${CLUSTER[@]}" fault bw h2 "${rate}mbit" >/dev/null 2>&1
      echo "host h2" ;;
    link)
      rate=$((base * 20 / 100)); [ "$rate" -lt 1 ] && rate=1
      "${CLUSTER[@]}" fault link h1 h3 "${rate}mbit" >/dev/null 2>&1
      echo "link h1 h3" ;;
    latency)
      "${CLUSTER[@]}" fault latency h2 20 >/dev/null 2>&1 || { echo "SKIP:no netem in this kernel"; return; }
      echo "host h2" ;;
    uplink)
      [ -n "$FABRIC" ] || { echo "SKIP:needs --fabric"; return; }
      [ "$hosts" -lt 4 ] && { echo "SKIP:needs 4 hosts (two leaves of two)"; return; }
      # An odd count leaves one host alone under the last leaf: its uplink cannot be told from its own link.
      [ $((hosts % 2)) -ne 0 ] && { echo "SKIP:needs an even host count (the last leaf has one host)"; return; }
      rate=$((base * 20 / 100)); [ "$rate" -lt 1 ] && rate=1
      local last=$(((hosts + 1) / 2)) a b
      for a in $(seq $((2 * last - 1)) "$hosts"); do
        for b in $(seq 1 $((2 * last - 2))); do "${CLUSTER[@]}" fault link "h$a" "h$b" "${rate}mbit" >/dev/null 2>&1; done
      done
      echo "switch s$last" ;;
    two)
      # Two of three hosts slow leave the healthy one the odd one out: nothing can name them.
      [ "$hosts" -lt 4 ] && { echo "SKIP:needs 4 hosts (two slow of three are the majority)"; return; }
      rate=$((base * 20 / 100)); [ "$rate" -lt 1 ] && rate=1
      "${CLUSTER[@]}" fault bw h2 "${rate}mbit" >/dev/null 2>&1
      "${CLUSTER[@]}" fault bw h4 "${rate}mbit" >/dev/null 2>&1
      echo "hosts h2 h4" ;;
  esac
}

# exact / missed / false for one document, against the expected answer (scripts/locate-judge.jq).
judge() {
  jq -L "$ROOT_DIR/scripts" -r --arg want "$2" 'include "locate-judge"; judge($want)' "$1" 2>/dev/null || echo "error"
}

results=$WORK/results.tsv
: > "$results"
IFS=, read -ra layouts <<< "$LAYOUTS"
IFS=, read -ra faults <<< "$FAULTS"
for layout in "${layouts[@]}"; do
  hosts=${layout%x*}; ppn=${layout#*x}
  base=$(baseline_mbit "$hosts" "$ppn")
  say "layout $layout: unfaulted inter-host pairs at about $base Mbit/s"
  for fault in "${faults[@]}"; do
    expected=$(apply_fault "$fault" "$base" "$hosts")
    if [ "${expected%%:*}" = "SKIP" ]; then
      printf '%s\t%s\tSKIP\t0\t%s\n' "$layout" "$fault" "${expected#SKIP:}" >> "$results"
      say "layout $layout, $fault: skipped (${expected#SKIP:})"
      continue
    fi
    n=$TRIALS; [ "$fault" = clean ] && n=$CLEAN_TRIALS
    for t in $(seq 1 "$n"); do
      json=$WORK/$layout-$fault-$t.json
      locate "$hosts" "$ppn" "$json"
      verdict=$(judge "$json" "$expected")
      spent=$(jq -r '.budget.spent_s // 0' "$json" 2>/dev/null || echo 0)
      named=$(jq -r '[.findings[] | .label] | join(", ")' "$json" 2>/dev/null || echo "?")
      printf '%s\t%s\t%s\t%s\t%s\n' "$layout" "$fault" "$verdict" "$spent" "$named" >> "$results"
      say "layout $layout, $fault, trial $t: $verdict (${spent} s) named: ${named:-nothing}"
      [ "$verdict" = error ] && tail -5 "$json.out" >&2
      if [ -n "$KEEP" ]; then mkdir -p "$KEEP" && cp -f "$json" "$json.out" "$KEEP/" 2>/dev/null || true; fi
    done
  done
done
"${CLUSTER[@]}" fault clear >/dev/null 2>&1 || true

table=$(awk -F'\t' -v budget="$BUDGET" '
  { key = $1 "\t" $2; if (!(key in n)) order[++k] = key
    n[key]++; c[key, $3]++; if ($3 == "SKIP") why[key] = $5; s = $4 + 0; if (s > max[key]) max[key] = s; sum[key] += s }
  END {
    print "| layout | fault | trials | exact | missed | false | mean s | max s (budget " budget " s) |"
    print "|---|---|---|---|---|---|---|---|"
    for (i = 1; i <= k; i++) {
      key = order[i]; split(key, p, "\t")
      if (c[key, "SKIP"]) { printf "| %s | %s | - | skipped: %s | | | | |\n", p[1], p[2], why[key]; continue }
      printf "| %s | %s | %d | %d | %d | %d | %.1f | %.1f |\n", p[1], p[2], n[key], c[key, "exact"], c[key, "missed"],
             c[key, "false"] + c[key, "error"], sum[key] / n[key], max[key]
    }
  }' "$results")
targets=$(awk -F'\t' -v budget="$BUDGET" '
  $3 == "SKIP" { next }
  $2 == "clean" { clean[$1]++; if ($3 == "exact") quiet[$1]++ }
  $2 == "host20" || $2 == "host5" { sev[$1]++; if ($3 == "exact") alone[$1]++ }
  $2 == "link" { lk[$1]++; if ($3 == "exact") lok[$1]++ }
  $2 == "uplink" { up[$1]++; if ($3 == "exact") uok[$1]++ }
  { if ($4 + 0 > budget * 1.1) over[$1]++ }
  END {
    for (l in clean) printf "- %s clean: no outlier in %d of %d runs (target: 19 of 20) %s\n", l, quiet[l], clean[l], (quiet[l] >= clean[l] * 0.95 ? "MET" : "MISSED")
    for (l in sev) printf "- %s host at 20%% and 5%%: named alone in %d of %d trials (target: 90%%) %s\n", l, alone[l], sev[l], (alone[l] >= sev[l] * 0.9 ? "MET" : "MISSED")
    for (l in lk) printf "- %s link: reported as that link in %d of %d trials\n", l, lok[l], lk[l]
    for (l in up) printf "- %s uplink: that switch named alone in %d of %d trials\n", l, uok[l], up[l]
    for (l in clean) printf "- %s budget: %d runs above budget + 10%% %s\n", l, over[l] + 0, (over[l] + 0 == 0 ? "MET" : "MISSED")
  }' "$results" | sort)
report="Measured $(date -u +%Y-%m-%d) at commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), budget $BUDGET s, on $(nproc) cores${FABRIC:+, with --fabric (leaves of two hosts)}:

$table

$targets"
echo "$report"
[ -n "$OUT" ] && echo "$report" > "$OUT"
exit 0
