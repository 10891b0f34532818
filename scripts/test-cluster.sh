#!/usr/bin/env bash
# Multi-host tests on one machine: a 4-host cluster from scripts/cluster.sh (network, UTS and
# mount namespaces on a bridge, Slurm with one slurmd per host), collbench launched across it by
# mpirun, srun and the env bootstrap, and real faults (a host killed, a link down, a job
# cancelled, a host's bandwidth limited, another hardware topology, a firewalled port).
# Every check asserts with collbench's exit codes and JSON and prints one PASS or FAIL line;
# the script exits 1 when any check failed.
#
#   scripts/test-cluster.sh                 # COLLBENCH=build/bench/collbench by default
#   COLLBENCH=/path/to/collbench scripts/test-cluster.sh [CHECK...]   # only the named checks
#
# Where namespaces, bridges or tc are not permitted it prints one line
# "test-cluster: SKIP: <why>" and exits 0, unless COLLBENCH_CLUSTER_REQUIRED=1 (CI), where
# that is a failure. Whatever happens, the cluster is removed on exit.
set -euo pipefail
ROOT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT_DIR"

COLLBENCH=$(readlink -f "${COLLBENCH:-build/bench/collbench}")
CLUSTER=(bash "$ROOT_DIR/scripts/cluster.sh")
REQUIRED=${COLLBENCH_CLUSTER_REQUIRED:-}
readonly T=5          # -T of the fault checks: a lost rank must end the job within T + 5 s
readonly SLACK=5
readonly HOSTS_N=4 PPN=2 NRANKS=8 EXPECTED=28   # 8 ranks: 0 + 1 + ... + 7
readonly BUDGET_S=600 # the whole script, as CI allows it

passed=0
failed=0
failures=()
CLUSTER_ID=""
WORK=""
BACKGROUND=()

say() { echo "test-cluster: $*"; }

pass() { passed=$((passed + 1)); say "PASS: $*"; }

fail() {
  failed=$((failed + 1))
  failures+=("${1%%:*}")
  say "FAIL: $*"
}

skip_or_fail() {
  if [ -n "$REQUIRED" ]; then
    say "FAIL: cannot run (COLLBENCH_CLUSTER_REQUIRED is set): $*"
    exit 1
  fi
  say "SKIP: $*"
  exit 0
}

cleanup() {
  local p
  # TERM: `timeout` passes it on to the launcher it runs; the hosts' processes go with `down`.
  for p in "${BACKGROUND[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  if [ -n "$CLUSTER_ID" ]; then "${CLUSTER[@]}" down "$CLUSTER_ID" 2>&1 | sed 's/^/  /' || true; fi
  [ -n "$WORK" ] && rm -rf "$WORK"
  return 0
}

install_tools() {
  command -v jq >/dev/null && return 0
  [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null || { say "FAIL: jq is needed"; exit 1; }
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq >/dev/null
}

# --- helpers -----------------------------------------------------------------------------------

# Host of rank r when ranks are placed 2 per host in order (mpirun --host h1:2,...; srun's
# block distribution; cluster.sh launch).
host_of() { echo "h$(($1 / PPN + 1))"; }

# Prints the rank table of a preflight output, indented: the hosts' names are the point.
show_ranks() { grep -E '^(\[[0-9]+ h[0-9]+\] )? +[0-9]+ +h[0-9]+ ' "$1" | sed 's/^/    /' || true; }

show_tail() { tail -n "${2:-15}" "$1" | sed 's/^/    | /'; }

# The preflight document must say: 8 ranks, each received 28, on its own host and local rank.
check_preflight_json() {
  local file=$1 bootstrap=$2 why
  why=$(jq -r --argjson n "$NRANKS" --argjson e "$EXPECTED" --argjson ppn "$PPN" --arg b "$bootstrap" '
    def host(r): "h\((r / $ppn | floor) + 1)";
    if .verdict != "ok" then "verdict \(.verdict)"
    elif .context.nranks != $n then "nranks \(.context.nranks)"
    elif ($b != "" and .context.bootstrap != $b) then "bootstrap \(.context.bootstrap), expected \($b)"
    elif .context.hosts != ["h1","h2","h3","h4"] then "hosts \(.context.hosts)"
    elif (.ranks | length) != $n then "\(.ranks | length) rank entries"
    else ([.ranks[] | select(.value != $e or .ok != true or .host != host(.rank) or .local_rank != (.rank % $ppn))
           | "rank \(.rank) on \(.host) local \(.local_rank) got \(.value)"] | join("; "))
    end' "$file" 2>&1) || why="not a preflight document: $why"
  [ -z "$why" ] && return 0
  echo "$why"
  return 1
}

# Runs `LAUNCHER... collbench preflight EXTRA...` (EXTRA: the array PREFLIGHT_EXTRA), then
# checks exit code 0 and the document.
PREFLIGHT_EXTRA=()
preflight_check() {
  local name=$1 bootstrap=$2; shift 2
  local out=$WORK/$name.out json=$WORK/$name.json rc=0 start=$SECONDS why
  timeout 120 "$@" "$COLLBENCH" preflight "${PREFLIGHT_EXTRA[@]}" -T 30 -J "$json" < /dev/null > "$out" 2>&1 || rc=$?
  PREFLIGHT_EXTRA=()
  if [ "$rc" -ne 0 ]; then
    fail "$name: exit code $rc, expected 0 ($((SECONDS - start)) s)"
    show_tail "$out"
    return
  fi
  if why=$(check_preflight_json "$json" "$bootstrap"); then
    pass "$name: every rank received $EXPECTED; hosts $(jq -r '.context.hosts | join(" ")' "$json"), 2 ranks each, bootstrap $(jq -r .context.bootstrap "$json") ($((SECONDS - start)) s)"
    show_ranks "$out"
  else
    fail "$name: $why"
    show_tail "$out"
  fi
}

# Waits (at most $2 s) until the run document $1 holds at least $3 records; prints how many.
wait_for_rows() {
  local file=$1 want=$3 n=0 deadline=$((SECONDS + $2))
  while [ "$SECONDS" -lt "$deadline" ]; do
    n=$(jq '.results | length' "$file" 2>/dev/null || echo 0)
    [ "${n:-0}" -ge "$want" ] && { echo "$n"; return 0; }
    sleep 0.2
  done
  echo "${n:-0}"
  return 1
}

now() { date +%s.%N; }

# --- checks --------------------------------------------------------------------------------------

check_preflight_mpirun() { preflight_check "preflight-mpirun" mpi "${CLUSTER[@]}" mpirun --ppn "$PPN"; }

# srun --mpi=pmix with the default --bootstrap auto: PMIx alone must be recognised as MPI.
check_preflight_srun_pmix() {
  preflight_check "preflight-srun-pmix" mpi srun --mpi=pmix -N "$HOSTS_N" --ntasks-per-node "$PPN"
}

# The same with --bootstrap mpi: proves the cluster's PMIx path apart from auto-detection.
check_preflight_srun_pmix_mpi() {
  PREFLIGHT_EXTRA=(--bootstrap mpi)
  preflight_check "preflight-srun-pmix-bootstrap-mpi" mpi srun --mpi=pmix -N "$HOSTS_N" --ntasks-per-node "$PPN"
}

check_preflight_srun_env() {
  preflight_check "preflight-srun-master-addr" env env MASTER_ADDR="$MASTER_ADDR" MASTER_PORT=$((29500 + RANDOM % 20000)) \
    srun -N "$HOSTS_N" --ntasks-per-node "$PPN"
}

check_preflight_env() { preflight_check "preflight-env" env "${CLUSTER[@]}" launch --ppn "$PPN" --; }

# Debian's Open MPI has no PMI-2: collbench must say so in one clear line (exit 8), not abort
# inside MPI_Init. Each rank prints it (no rank can reach the others): one message, not several.
check_srun_pmi2() {
  local out=$WORK/pmi2.out rc=0 start=$SECONDS problems=() messages
  timeout 60 srun --mpi=pmi2 -N "$HOSTS_N" --ntasks-per-node "$PPN" "$COLLBENCH" preflight -T 30 < /dev/null > "$out" 2>&1 || rc=$?
  [ "$rc" -eq 8 ] || problems+=("exit code $rc, expected 8")
  grep -qE '^collbench: .*(PMI-2|PMI2|pmi2)' "$out" || problems+=("no collbench line naming PMI-2")
  grep -qE 'MPI_Init|MPI_ERRORS_ARE_FATAL|not built with SLURM' "$out" && problems+=("Open MPI aborted inside MPI_Init")
  messages=$(grep -E '^collbench: ' "$out" | sed -E 's/rank [0-9]+ on h[0-9]+/rank R on H/' | sort -u | wc -l)
  [ "$messages" -le 1 ] || problems+=("$messages different collbench messages")
  if [ "${#problems[@]}" -eq 0 ]; then
    pass "srun --mpi=pmi2: exit 8 with: $(grep -m1 -E '^collbench: ' "$out") ($((SECONDS - start)) s)"
  else
    fail "srun --mpi=pmi2: $(IFS=';'; echo "${problems[*]}")"
    show_tail "$out" 12
  fi
}

# A short checked sweep with 2 ranks per host: every record checked and right, 4 hosts each
# with its topology in the document.
check_run_mpirun() {
  local out=$WORK/run.out json=$WORK/run.json rc=0 start=$SECONDS why
  timeout 180 "${CLUSTER[@]}" mpirun --ppn "$PPN" "$COLLBENCH" run -b 8 -e 64K -f 8 -T 30 -J "$json" < /dev/null > "$out" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then fail "run under mpirun: exit code $rc, expected 0"; show_tail "$out"; return; fi
  why=$(jq -r '
    if .summary.status != "ok" then "status \(.summary.status)"
    elif .context.hosts != ["h1","h2","h3","h4"] then "hosts \(.context.hosts)"
    elif (.results | length) == 0 then "no results"
    elif ([.results[] | select(.skipped != null or .checked != true or .wrong != 0)] | length) > 0 then
      "records not verified: \([.results[] | select(.skipped != null or .checked != true or .wrong != 0) | .size_bytes])"
    elif ((.context.topology // {}) | keys) != ["h1","h2","h3","h4"] then "topology for \((.context.topology // {}) | keys)"
    else ([.context.topology | to_entries[] | select(.value.schema != "collbench.topology" or .value.host != .key)
           | "topology of \(.key) names \(.value.host)"] | join("; "))
    end' "$json" 2>&1) || why="not a run document: $why"
  if [ -z "$why" ] && ! "$COLLBENCH" validate "$json" > "$WORK/validate.out" 2>&1; then why="collbench validate: $(cat "$WORK/validate.out")"; fi
  if [ -z "$why" ]; then
    pass "run under mpirun: $(jq '.results | length' "$json") records, every one checked and right; topology of $(jq -r '.context.topology | keys | join(" ")' "$json") ($((SECONDS - start)) s)"
  else
    fail "run under mpirun: $why"
    show_tail "$out"
  fi
}

check_topo_same() {
  local out=$WORK/topo-same.out rc=0 start=$SECONDS
  timeout 120 "${CLUSTER[@]}" mpirun --ppn "$PPN" "$COLLBENCH" topo < /dev/null > "$out" 2>&1 || rc=$?
  if [ "$rc" -eq 0 ] && grep -q "All 4 hosts have the same topology" "$out"; then
    pass "topo across hosts: $(grep -m1 'All 4 hosts' "$out") ($((SECONDS - start)) s)"
  else
    fail "topo across hosts: exit code $rc, expected 0 and all 4 hosts the same"
    show_tail "$out"
  fi
}

# h3 gets its own capture with less memory on NUMA node 0: topo must name h3, and only h3.
check_topo_odd() {
  local out=$WORK/topo-odd.out rc=0 start=$SECONDS
  "${CLUSTER[@]}" fault topo h3 2> "$WORK/fault.out" || { fail "topo with h3 different: cluster.sh fault topo failed"; show_tail "$WORK/fault.out"; return; }
  timeout 120 "${CLUSTER[@]}" mpirun --ppn "$PPN" "$COLLBENCH" topo < /dev/null > "$out" 2>&1 || rc=$?
  "${CLUSTER[@]}" fault clear 2> /dev/null
  if [ "$rc" -eq 11 ] && grep -qE '^Differs \(1 hosts?\): h3$' "$out"; then
    pass "topo with h3 given another topology: exit 11; $(grep -m1 -A1 '^Differs' "$out" | tr '\n' ' ')($((SECONDS - start)) s)"
  else
    fail "topo with h3 given another topology: exit code $rc (expected 11), the odd one out: $(grep -m1 '^Differs' "$out" || echo none)"
    show_tail "$out"
  fi
}

# collbench health across the 4 hosts with h3 given another topology: h3 fails on its topology
# (against the majority), the other three pass, exit 11; the document says the same.
check_health_odd() {
  local out=$WORK/health-odd.out json=$WORK/health-odd.json rc=0 start=$SECONDS verdicts
  "${CLUSTER[@]}" fault topo h3 2> "$WORK/fault.out" || { fail "health with h3 different: cluster.sh fault topo failed"; show_tail "$WORK/fault.out"; return; }
  timeout 120 "${CLUSTER[@]}" mpirun --ppn "$PPN" "$COLLBENCH" health -b 1K -e 64K -n 5 --no-progress --budget 60 \
    -J "$json" < /dev/null > "$out" 2>&1 || rc=$?
  "${CLUSTER[@]}" fault clear 2> /dev/null
  verdicts=$(jq -r '[.hosts[] | "\(.host)=\(.verdict)\(if .findings != [] then ":" + (.findings | map(.check) | join("+")) else "" end)"] | join(" ")' "$json" 2>/dev/null)
  if [ "$rc" -eq 11 ] && [ "$verdicts" = "h1=pass h2=pass h3=fail:topology h4=pass" ] && "$COLLBENCH" validate "$json" > /dev/null 2>&1; then
    pass "health with h3 given another topology: exit 11; $verdicts; $(grep -m1 '^h3 ' "$out" | cut -c1-120) ($((SECONDS - start)) s)"
  else
    fail "health with h3 given another topology: exit code $rc (expected 11), verdicts: ${verdicts:-none}"
    show_tail "$out"
  fi
}

# Starts a long sweep under the env bootstrap in the background; sets RUN_PID, RUN_JSON, RUN_OUT,
# RANKS_FILE and waits until some rows are in the document (ROWS_BEFORE).
start_env_sweep() {
  local name=$1
  RUN_JSON=$WORK/$name.json RUN_OUT=$WORK/$name.out RANKS_FILE=$WORK/$name.ranks
  timeout 120 "${CLUSTER[@]}" launch --ppn "$PPN" --ranks-file "$RANKS_FILE" -- \
    "$COLLBENCH" run -b 1K -e 1M -N 0 -T "$T" -J "$RUN_JSON" < /dev/null > "$RUN_OUT" 2>&1 &
  RUN_PID=$!
  BACKGROUND+=("$RUN_PID")
  ROWS_BEFORE=$(wait_for_rows "$RUN_JSON" 60 4)
}

# After a fault on h3 at time $2: ranks off h3 must exit 4 within T + 5 s naming h3; with $3 =
# all, the ranks on h3 too must exit 4 in time. The document keeps the finished rows.
judge_lost_host() {
  local name=$1 t0=$2 which=$3 rc=0 problems=() r host code end late
  wait "$RUN_PID" || rc=$?
  while read -r r host code end; do
    late=$(awk -v a="$end" -v b="$t0" 'BEGIN { printf "%.1f", a - b }')
    if [ "$host" = h3 ] && [ "$which" != all ]; then continue; fi
    [ "$code" -eq 4 ] || problems+=("rank $r on $host exited $code")
    awk -v l="$late" -v m=$((T + SLACK)) 'BEGIN { exit !(l <= m) }' || problems+=("rank $r on $host ended ${late} s after the fault")
    if [ "$host" != h3 ] && ! grep -E "^\[$r $host\] " "$RUN_OUT" | grep -qw h3; then problems+=("rank $r on $host does not name h3"); fi
  done < <(sort -n "$RANKS_FILE")
  [ "$(wc -l < "$RANKS_FILE")" -eq "$NRANKS" ] || problems+=("$(wc -l < "$RANKS_FILE") of $NRANKS ranks ended")
  local rows status
  rows=$(jq '.results | length' "$RUN_JSON" 2>/dev/null || echo 0)
  status=$(jq -r '.summary.status' "$RUN_JSON" 2>/dev/null || echo unreadable)
  [ "$rows" -ge "$ROWS_BEFORE" ] || problems+=("the document holds $rows records, $ROWS_BEFORE were written before the fault")
  case $status in ok | incomplete | unreadable) problems+=("document status $status") ;; esac
  "$COLLBENCH" validate "$RUN_JSON" > /dev/null 2>&1 || problems+=("collbench validate fails on the document")
  if [ "${#problems[@]}" -eq 0 ]; then
    pass "$name: every surviving rank exited 4 within $((T + SLACK)) s naming h3; $rows records kept, status $status"
    grep -m1 -E '^\[0 h1\] collbench: ' "$RUN_OUT" | sed 's/^/    /' || true
  else
    fail "$name: $(IFS=';'; echo "${problems[*]}")"
    grep -E 'collbench: |^cluster: ' "$RUN_OUT" | tail -n 12 | sed 's/^/    | /'
  fi
}

check_host_killed() {
  start_env_sweep host-killed
  [ "$ROWS_BEFORE" -ge 4 ] || { fail "host killed: the sweep wrote no rows within 60 s"; show_tail "$RUN_OUT"; return; }
  local t0
  t0=$(now)
  "${CLUSTER[@]}" fault kill h3 2> /dev/null
  judge_lost_host "host h3 killed mid-sweep (env bootstrap, -T $T)" "$t0" survivors
}

check_link_down() {
  start_env_sweep link-down
  [ "$ROWS_BEFORE" -ge 4 ] || { fail "link down: the sweep wrote no rows within 60 s"; show_tail "$RUN_OUT"; return; }
  local t0
  t0=$(now)
  "${CLUSTER[@]}" fault down h3 2> /dev/null
  judge_lost_host "h3's link taken down mid-sweep (env bootstrap, -T $T)" "$t0" all
  "${CLUSTER[@]}" fault clear 2> /dev/null
}

# scancel sends SIGTERM to every task: the document says interrupted and keeps its rows.
check_scancel() {
  local out=$WORK/scancel.out json=$WORK/scancel.json rc=0 job=cb-scancel-$$ rows status t0 took problems=()
  timeout 120 srun --mpi=pmix -J "$job" -N "$HOSTS_N" --ntasks-per-node "$PPN" "$COLLBENCH" run --bootstrap mpi \
    -b 1K -e 1M -N 0 -T 30 -J "$json" < /dev/null > "$out" 2>&1 &
  local pid=$!
  BACKGROUND+=("$pid")
  ROWS_BEFORE=$(wait_for_rows "$json" 60 4) || { fail "scancel: the job wrote no rows within 60 s"; show_tail "$out"; return; }
  t0=$SECONDS
  scancel -n "$job"
  wait "$pid" || rc=$?
  took=$((SECONDS - t0))
  rows=$(jq '.results | length' "$json" 2>/dev/null || echo 0)
  status=$(jq -r '.summary.status' "$json" 2>/dev/null || echo unreadable)
  [ "$rc" -eq 6 ] || problems+=("srun exited $rc, expected 6 (interrupted)")
  [ "$status" = interrupted ] || problems+=("document status $status")
  [ "$rows" -ge "$ROWS_BEFORE" ] || problems+=("$rows records kept, $ROWS_BEFORE were written before scancel")
  [ "$took" -le 15 ] || problems+=("the job took $took s to end")
  if [ "${#problems[@]}" -eq 0 ]; then
    pass "scancel of a Slurm job: exit 6 after $took s, status interrupted, $rows records kept"
  else
    fail "scancel of a Slurm job: $(IFS=';'; echo "${problems[*]}")"
    show_tail "$out" 12
  fi
}

# h2 at 50 Mbit/s in each direction (the others run at memory speed): locate must name h2.
check_locate() {
  local out=$WORK/locate.out json=$WORK/locate.json rc=0 start=$SECONDS named
  "${CLUSTER[@]}" fault bw h2 50mbit 2> /dev/null
  timeout 180 "${CLUSTER[@]}" mpirun --ppn "$PPN" "$COLLBENCH" locate --budget 30 -J "$json" < /dev/null > "$out" 2>&1 || rc=$?
  "${CLUSTER[@]}" fault clear 2> /dev/null
  named=$(jq -r '[.findings[]?.hosts[]?] | unique | join(" ")' "$json" 2>/dev/null || echo "")
  if [ "$rc" -eq 12 ] && [[ " $named " == *" h2 "* ]]; then
    pass "locate with h2 limited to 50 Mbit/s: exit 12, names $named ($((SECONDS - start)) s)"
    grep -E '^#   ' "$out" | sed 's/^/    /' || true
  else
    fail "locate with h2 limited to 50 Mbit/s: exit code $rc (expected 12), hosts named: ${named:-none}"
    grep -E '^# (verdict|budget)|^#   |^  rank .*pairs [0-9]+\]' "$out" | tail -n 14 | sed 's/^/    | /' || true
  fi
}

# --fabric with h1, h2 under leaf s1 and h3, h4 under s2 (tests/fixtures/fabric/two-leaves.conf),
# and every link from one leaf to the other at 50 Mbit/s: the path between the leaves is slow,
# inside each leaf it is not. locate must name the switch uplinks, once, and blame nothing else
# that spans the two leaves (no pair, link, host or rank finding with hosts on both sides). A
# finding inside one leaf may come besides when something else loads this machine: a rank that
# shares a core with a busy process is slow for real, measured alone too (docs/locate.md,
# Limits). Beside a busy loop 1 run in 10 named a pair inside a leaf; beside a two-job build, 7
# in 10 named pairs, rings or ranks inside one leaf (some with "CPU contention" as their cause),
# and the uplinks were named alone or first in 10 of 10. Such findings are shown on the PASS
# line, not failed: they are the other comparisons' own, not the uplink's.
check_locate_uplink() {
  local out=$WORK/uplink.out json=$WORK/uplink.json rc=0 start=$SECONDS uplink wrong extra a b
  for a in h1 h2; do for b in h3 h4; do "${CLUSTER[@]}" fault link "$a" "$b" 50mbit 2> /dev/null; done; done
  timeout 180 "${CLUSTER[@]}" mpirun --ppn "$PPN" "$COLLBENCH" locate --budget 30 \
    --fabric "$ROOT_DIR/tests/fixtures/fabric/two-leaves.conf" -J "$json" < /dev/null > "$out" 2>&1 || rc=$?
  "${CLUSTER[@]}" fault clear 2> /dev/null
  local spans='(.hosts | any(. == "h1" or . == "h2")) and (.hosts | any(. == "h3" or . == "h4"))'
  uplink=$(jq -r '[.findings[]? | select(.subject == "switch") | .label] | join("; ")' "$json" 2>/dev/null || echo "")
  wrong=$(jq -r "[.findings[]? | select(.subject != \"switch\" and ($spans)) | .label] | join(\"; \")" "$json" 2>/dev/null || echo "?")
  extra=$(jq -r '[.findings[]? | select(.subject != "switch") | .label] | join("; ")' "$json" 2>/dev/null || echo "")
  if [ "$rc" -eq 12 ] && [ "$uplink" = "uplinks between switch s1 and switch s2" ] && [ -z "$wrong" ]; then
    pass "locate --fabric, the links between two leaves at 50 Mbit/s: exit 12, names $uplink${extra:+ (and, each inside one leaf, $extra)} ($((SECONDS - start)) s)"
  else
    fail "locate --fabric, the links between two leaves at 50 Mbit/s: exit code $rc (expected 12), uplink: ${uplink:-none}, blamed across the leaves: ${wrong:-nothing}"
    grep -E '^# (verdict|budget)|^#   |uplink' "$out" | tail -n 14 | sed 's/^/    | /' || true
  fi
}

# A firewalled MASTER_PORT on h1: nobody reaches the rendezvous; every rank exits 4 within T + 5 s.
check_port_dropped() {
  local port=$((29500 + RANDOM % 20000)) out=$WORK/drop.out ranks=$WORK/drop.ranks rc=0 start=$SECONDS problems=() r host code end
  "${CLUSTER[@]}" fault drop h1 "$port" 2> /dev/null
  timeout 60 "${CLUSTER[@]}" launch --ppn "$PPN" --port "$port" --ranks-file "$ranks" -- \
    "$COLLBENCH" preflight -T "$T" < /dev/null > "$out" 2>&1 || rc=$?
  "${CLUSTER[@]}" fault clear 2> /dev/null
  local took=$((SECONDS - start))
  while read -r r host code end; do
    [ "$code" -eq 4 ] || problems+=("rank $r on $host exited $code")
  done < <(sort -n "$ranks")
  [ "$(wc -l < "$ranks")" -eq "$NRANKS" ] || problems+=("$(wc -l < "$ranks") of $NRANKS ranks ended")
  [ "$took" -le $((T + SLACK)) ] || problems+=("took $took s")
  if [ "${#problems[@]}" -eq 0 ]; then
    pass "MASTER_PORT dropped by h1's firewall: every rank exited 4 after $took s"
    grep -m1 -E 'collbench: ' "$out" | sed 's/^/    /' || true
  else
    fail "MASTER_PORT dropped by h1's firewall: $(IFS=';'; echo "${problems[*]}")"
    show_tail "$out" 10
  fi
}

# Extra latency needs netem; this kernel may not have it: then one SKIP line, not a failure.
check_latency() {
  local rc=0 msg
  msg=$("${CLUSTER[@]}" fault latency h2 5 2>&1) || rc=$?
  if [ "$rc" -eq 77 ]; then say "SKIP: latency: ${msg#cluster: SKIP: }"; return; fi
  if [ "$rc" -ne 0 ]; then fail "latency: cluster.sh fault latency failed: $msg"; return; fi
  rc=0
  timeout 120 "${CLUSTER[@]}" mpirun --ppn "$PPN" "$COLLBENCH" preflight -T 30 < /dev/null > "$WORK/latency.out" 2>&1 || rc=$?
  "${CLUSTER[@]}" fault clear 2> /dev/null
  if [ "$rc" -eq 0 ]; then pass "preflight with 5 ms more latency on h2"; else fail "preflight with 5 ms more latency on h2: exit $rc"; fi
}

ALL_CHECKS=(preflight_mpirun preflight_srun_pmix preflight_srun_pmix_mpi preflight_srun_env preflight_env srun_pmi2 run_mpirun topo_same
            topo_odd health_odd scancel host_killed link_down port_dropped latency locate locate_uplink)

main() {
  local start=$SECONDS checks=("$@") c rc=0
  [ "${#checks[@]}" -gt 0 ] || checks=("${ALL_CHECKS[@]}")
  [ -x "$COLLBENCH" ] || { say "FAIL: no collbench binary at $COLLBENCH (build first, or set COLLBENCH)"; exit 1; }
  local why
  why=$("${CLUSTER[@]}" check 2>&1) || rc=$?
  if [ "$rc" -eq 77 ]; then skip_or_fail "${why#cluster: SKIP: }"; fi
  [ "$rc" -eq 0 ] || { say "FAIL: cluster.sh check: $why"; exit 1; }
  install_tools
  trap cleanup EXIT
  trap 'say "interrupted"; exit 130' INT TERM
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/test-cluster.XXXXXX")
  if ! CLUSTER_ID=$(timeout 480 "${CLUSTER[@]}" up "$HOSTS_N" --slurm 2> "$WORK/up.out"); then
    CLUSTER_ID=""
    say "FAIL: cluster.sh up $HOSTS_N --slurm"
    show_tail "$WORK/up.out" 20
    exit 1
  fi
  export COLLBENCH_CLUSTER=$CLUSTER_ID
  eval "$("${CLUSTER[@]}" env)"
  local h
  for h in $CLUSTER_HOSTS; do
    say "host $h: hostname $("${CLUSTER[@]}" exec "$h" -- hostname), address $(awk -v h="$h" '$1 == h { print $2 }' "/run/collbench-cluster/$CLUSTER_ID/hosts" 2>/dev/null || echo ?)"
  done
  say "cluster $CLUSTER_ID up in $((SECONDS - start)) s ($HOSTS_N hosts, Slurm); collbench: $COLLBENCH"
  for c in "${checks[@]}"; do
    if [ $((SECONDS - start)) -gt $((BUDGET_S - 60)) ]; then fail "$c: not run: the script's $BUDGET_S s are nearly spent"; continue; fi
    declare -F "check_$c" > /dev/null || { fail "$c: no such check (checks: ${ALL_CHECKS[*]})"; continue; }
    "check_$c"
  done
  say "finished in $((SECONDS - start)) s${failures[*]:+; failed: ${failures[*]}}"
  say "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

main "$@"
