#!/usr/bin/env bash
# A cluster of N hosts on one Linux machine, to try collbench's multi-host features without
# a cluster. Each host is a network namespace with its own UTS (host name) and mount namespace,
# joined to the others by a Linux bridge, each with its own address. Open MPI reaches the
# hosts through an rsh agent that enters their namespaces; Slurm runs one slurmd per host; real
# faults (bandwidth, a slow link, a link down, a host killed, a firewalled port, another
# hardware topology) are made with tc, ip, kill, nftables and hwloc. Needs root.
#
#   scripts/cluster.sh up N [--slurm] [--cpus C]    # prints the cluster's id on stdout
#   scripts/cluster.sh mpirun [--ppn P] [MPIRUN ARGS] CMD...   # default: P=2 ranks on every host
#   scripts/cluster.sh srun SRUN ARGS...           # SLURM_CONF of the cluster
#   scripts/cluster.sh launch [--ppn P] [--port N] [--ranks-file F] -- CMD...   # torchrun style
#   scripts/cluster.sh exec HOST [--] [CMD...]     # inside a host (a shell without CMD)
#   scripts/cluster.sh fault bw HOST RATE | link HOSTA HOSTB RATE | latency HOST MS | down HOST
#                            | kill HOST | drop HOST PORT | topo HOST [HWLOC_XML] | clear [HOST]
#   scripts/cluster.sh status | env | check | down [ID|--all]
#
# With several clusters up, pick one with --id ID (before the command) or COLLBENCH_CLUSTER.
# Exit codes: 0 done, 1 failed, 2 bad usage, 77 not possible here (no namespaces, bridges or tc;
# no netem for `fault latency`). Details, and a walk-through: docs/cluster.md.
set -euo pipefail

SELF=$(readlink -f "${BASH_SOURCE[0]}")
source "$(dirname "$SELF")/common.sh"  # free_port
STATE_ROOT=${COLLBENCH_CLUSTER_ROOT:-/run/collbench-cluster}
# Every setup step is bounded: a hung daemon must not hang `up` or CI.
STEP_TIMEOUT=${COLLBENCH_CLUSTER_STEP_TIMEOUT:-60}
# hwloc reads this variable in every process; collbench's live discovery goes through hwloc.
TOPO_VAR=${COLLBENCH_CLUSTER_TOPO_VAR:-COLLBENCH_TOPOLOGY_FILE}
readonly EXIT_SKIP=77 UNLIMITED_RATE=100gbit SLURMD_PORT=6818

die() { echo "cluster: $*" >&2; exit 1; }
usage_error() { echo "cluster: $*" >&2; echo "cluster: usage: see the top of $SELF or docs/cluster.md" >&2; exit 2; }
log() { echo "cluster: $*" >&2; }
skip() { echo "cluster: SKIP: $*" >&2; exit "$EXIT_SKIP"; }

# --- where a cluster's state lives ------------------------------------------------------------
# $STATE_ROOT/<id>/: hosts (name address anchor-pid unshare-pid netns veth), subnet, bridge,
# daemons (role pid), faults (one per line), etc-hosts, hosts.d/<name>/{env,tmp}, slurm/, munge/.

cluster_ids() { local d; for d in "$STATE_ROOT"/cb*; do [ -d "$d" ] && basename "$d"; done; return 0; }

# Chooses the cluster: --id, then COLLBENCH_CLUSTER, then the only one that exists.
pick_cluster() {
  local ids
  if [ -z "${CLUSTER_ID:-}" ]; then
    CLUSTER_ID=${COLLBENCH_CLUSTER:-}
  fi
  if [ -z "$CLUSTER_ID" ]; then
    mapfile -t ids < <(cluster_ids)
    [ "${#ids[@]}" -eq 1 ] || die "${#ids[@]} clusters are up (${ids[*]:-none}); pass --id ID or set COLLBENCH_CLUSTER"
    CLUSTER_ID=${ids[0]}
  fi
  DIR=$STATE_ROOT/$CLUSTER_ID
  [ -f "$DIR/hosts" ] || die "no cluster '$CLUSTER_ID' (nothing in $DIR)"
  load_cluster
}

# Reads the state into HOSTS (names in order) and the ADDR, PID, UPID, NETNS, VETH maps.
load_cluster() {
  local name addr pid upid netns veth
  HOSTS=()
  declare -gA ADDR=() PID=() UPID=() NETNS=() VETH=()
  while read -r name addr pid upid netns veth; do
    HOSTS+=("$name"); ADDR[$name]=$addr; PID[$name]=$pid; UPID[$name]=$upid
    NETNS[$name]=$netns; VETH[$name]=$veth
  done < "$DIR/hosts"
  SUBNET=$(cat "$DIR/subnet")
  BRIDGE=$(cat "$DIR/bridge")
}

need_host() {
  [ -n "${1:-}" ] || usage_error "missing HOST (one of: ${HOSTS[*]})"
  [ -n "${PID[$1]:-}" ] || die "no host '$1' in cluster $CLUSTER_ID (hosts: ${HOSTS[*]})"
  kill -0 "${PID[$1]}" 2>/dev/null || die "host $1 is gone (its namespace holder ${PID[$1]} died); run: $SELF down $CLUSTER_ID"
}

# --- entering a host ---------------------------------------------------------------------------

# The host's extra environment (NAME=VALUE lines in hosts.d/<host>/env), for `env`.
host_env() {
  local file=$DIR/hosts.d/$1/env
  [ -s "$file" ] && cat "$file"
  return 0
}

# Runs a command inside a host's network, UTS and mount namespaces, in the same directory (the
# file system is shared: only /etc/hosts and Slurm's TmpFS differ per host).
in_host() {
  local host=$1; shift
  local vars
  mapfile -t vars < <(host_env "$host")
  nsenter -t "${PID[$host]}" -n -u -m --wd="$PWD" -- env "${vars[@]}" "$@"
}

# --- checks ------------------------------------------------------------------------------------

# Can this machine make what a cluster needs? Exit 77 with one line when not permitted.
cmd_check() {
  [ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces, bridges, tc)"
  local t
  for t in ip tc nsenter unshare; do command -v "$t" >/dev/null || skip "'$t' is not installed (iproute2, util-linux)"; done
  unshare --net --uts --mount true 2>/dev/null || skip "network/UTS/mount namespaces are not permitted here (unshare failed)"
  local br=cbchk$$
  ip link add "$br" type bridge 2>/dev/null || skip "Linux bridges are not permitted here (ip link add type bridge failed)"
  ip link del "$br"
  unshare --net sh -c 'ip link add name cbchka type veth peer name cbchkb && tc qdisc add dev cbchka root tbf rate 1mbit burst 32kb latency 50ms' \
    >/dev/null 2>&1 || skip "veth pairs or tc token buckets are not permitted here"
  echo "cluster: check: namespaces, bridges, veth and tc work here"
}

# --- up ------------------------------------------------------------------------------------------

install_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  command -v apt-get >/dev/null || die "missing packages: ${missing[*]} (not a Debian system)"
  log "installing ${missing[*]}"
  timeout 600 apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed"
}

# A /24 in 10.0.0.0/8 that no interface, route or other cluster uses.
pick_subnet() {
  local used tries a b
  used="$(ip -4 addr show; ip -4 route show; cat "$STATE_ROOT"/cb*/subnet 2>/dev/null || true)"
  for ((tries = 0; tries < 100; tries++)); do
    a=$((200 + RANDOM % 50)); b=$((RANDOM % 256))
    grep -q "10\.$a\.$b\." <<< "$used" || { echo "10.$a.$b"; return 0; }
  done
  die "found no free 10.x.y.0/24 subnet"
}

# The id names every resource (bridge, veths, state dir, Slurm cluster), so that two clusters
# never collide; mkdir is atomic, so two concurrent `up`s cannot take the same one.
new_cluster_dir() {
  local tries
  mkdir -p "$STATE_ROOT"
  for ((tries = 0; tries < 50; tries++)); do
    CLUSTER_ID=cb$(printf '%05x' $((RANDOM * 32 + RANDOM % 32)))
    DIR=$STATE_ROOT/$CLUSTER_ID
    mkdir "$DIR" 2>/dev/null && return 0
  done
  die "could not create a state directory under $STATE_ROOT"
}

make_bridge() {
  BRIDGE=$CLUSTER_ID-br
  echo "$BRIDGE" > "$DIR/bridge"
  ip link add "$BRIDGE" type bridge
  ip addr add "$SUBNET.1/24" dev "$BRIDGE"
  ip link set "$BRIDGE" up
}

# Starts the process that holds a host's namespaces (sleep, under `unshare --fork`) and waits
# for its pid. setsid: a terminal's Ctrl-C or hangup must not take the cluster down.
start_anchor() {
  local name=$1 pidfile=$DIR/hosts.d/$1/anchor.pid
  # shellcheck disable=SC2016 # $$ is the inner shell's pid: the holder's
  setsid unshare --net --uts --mount --propagation private --fork -- \
    sh -c 'hostname "$1" && echo $$ > "$2" && exec sleep infinity' sh "$name" "$pidfile" \
    < /dev/null > /dev/null 2>&1 &
  UNSHARE_PID=$!
  disown
  local i
  for ((i = 0; i < 100; i++)); do
    [ -s "$pidfile" ] && { ANCHOR_PID=$(cat "$pidfile"); return 0; }
    sleep 0.05
  done
  die "host $name did not start (unshare --net --uts --mount)"
}

# One host: namespaces, a veth pair (eth0 inside, <id>-<name> on the bridge), its address,
# the cluster's /etc/hosts and its own copy of Slurm's TmpFS.
make_host() {
  local name=$1 addr=$SUBNET.$((10 + $2)) veth=$CLUSTER_ID-$1
  mkdir -p "$DIR/hosts.d/$name/tmp"
  : > "$DIR/hosts.d/$name/env"
  start_anchor "$name"
  local netns
  netns=$(readlink "/proc/$ANCHOR_PID/ns/net")
  echo "$name $addr $ANCHOR_PID $UNSHARE_PID $netns $veth" >> "$DIR/hosts"
  ip link add "$veth" type veth peer name "$veth-i"
  ip link set "$veth-i" netns "$ANCHOR_PID"
  ip link set "$veth" master "$BRIDGE" up
  local in=(nsenter -t "$ANCHOR_PID" -n -u -m)
  "${in[@]}" ip link set "$veth-i" name eth0
  "${in[@]}" ip addr add "$addr/24" dev eth0
  "${in[@]}" ip link set eth0 up
  "${in[@]}" ip link set lo up
  "${in[@]}" mount --bind "$DIR/etc-hosts" /etc/hosts
  "${in[@]}" mount --bind "$DIR/hosts.d/$name/tmp" "$DIR/tmpfs"
}

write_etc_hosts() {
  local n=$1 i
  {
    echo "127.0.0.1 localhost"
    echo "$SUBNET.1 $(hostname) $CLUSTER_ID-ctl"
    for ((i = 1; i <= n; i++)); do echo "$SUBNET.$((10 + i)) h$i"; done
  } > "$DIR/etc-hosts"
}

# Every host must reach every other one before anything is launched on them.
check_wiring() {
  local a b out
  for a in "${HOSTS[@]}"; do
    for b in "${HOSTS[@]}"; do
      [ "$a" = "$b" ] && continue
      # A refused connection (nothing listens on port 1) proves the path; a timeout does not.
      out=$(in_host "$a" timeout 5 bash -c "exec 3<>/dev/tcp/${ADDR[$b]}/1" 2>&1) || true
      [[ $out == *refused* ]] || die "host $a cannot reach $b (${ADDR[$b]}): ${out:-timed out}"
    done
  done
}

cmd_up() {
  local n="" slurm="" cpus=4
  while [ $# -gt 0 ]; do
    case $1 in
      --slurm) slurm=1; shift ;;
      --cpus) [ $# -ge 2 ] || usage_error "--cpus needs a number"; cpus=$2; shift 2 ;;
      [0-9]*) n=$1; shift ;;
      *) usage_error "up: unknown argument '$1'" ;;
    esac
  done
  [[ $n =~ ^[1-9][0-9]?$ ]] && [ "$n" -le 64 ] || usage_error "up N: N must be 1-64 hosts"
  [[ $cpus =~ ^[1-9][0-9]*$ ]] || usage_error "--cpus must be a positive number"
  cmd_check > /dev/null
  install_packages iproute2 nftables util-linux hwloc openmpi-bin
  # libpmix-dev: Slurm's PMIx plugin dlopens the unversioned libpmix.so.
  [ -n "$slurm" ] && install_packages slurmctld slurmd slurm-client munge libpmix-dev
  new_cluster_dir
  # Whatever fails from here on, nothing is left behind.
  trap 'log "up failed; removing $CLUSTER_ID"; teardown "$DIR"' EXIT
  SUBNET=$(pick_subnet)
  echo "$SUBNET" > "$DIR/subnet"
  : > "$DIR/hosts"; : > "$DIR/daemons"; : > "$DIR/faults"
  mkdir -p "$DIR/tmpfs"
  write_etc_hosts "$n"
  make_bridge
  local i
  for ((i = 1; i <= n; i++)); do make_host "h$i" "$i"; done
  load_cluster
  [ -n "${CLUSTER_NO_CHECK:-}" ] || check_wiring
  [ -n "$slurm" ] && start_slurm "$cpus"
  trap - EXIT
  for i in "${HOSTS[@]}"; do log "host $i ${ADDR[$i]}"; done
  log "cluster $CLUSTER_ID is up: ${#HOSTS[@]} hosts on $BRIDGE ($SUBNET.0/24)${slurm:+, Slurm}; remove it with: $SELF down $CLUSTER_ID"
  echo "$CLUSTER_ID"
}

# --- Slurm ---------------------------------------------------------------------------------------

# Records a daemon so that `down` ends it.
add_daemon() { echo "$1 $2" >> "$DIR/daemons"; }

start_munge() {
  local m=$DIR/munge
  mkdir -m 0700 "$m"
  dd if=/dev/urandom of="$m/munge.key" bs=1024 count=1 status=none
  chmod 0400 "$m/munge.key"
  # Our own munged and socket: a cluster's credentials never mix with the machine's.
  setsid munged -F --force --socket="$m/munge.sock" --key-file="$m/munge.key" --log-file="$m/munged.log" \
    --pid-file="$m/munged.pid" --seed-file="$m/munged.seed" < /dev/null > "$m/munged.out" 2>&1 &
  add_daemon munged $!
  disown
  local i
  for ((i = 0; i < 100; i++)); do [ -S "$m/munge.sock" ] && return 0; sleep 0.05; done
  die "munged did not start: $(tail -n 3 "$m/munged.log" "$m/munged.out" 2>/dev/null)"
}

# slurm.conf: the controller on this machine (its host name, the bridge address), one node per
# host with its own name and address; no cgroups, no accounting: nothing outside the cluster.
write_slurm_conf() {
  local cpus=$1 s=$DIR/slurm host
  local ctl_port
  ctl_port=$(free_port) || die "found no free TCP port for slurmctld"
  mkdir -p "$s/state" "$s/log"
  cat > "$s/slurm.conf" <<EOF
# Written by scripts/cluster.sh for cluster $CLUSTER_ID; removed by \`cluster.sh down\`.
ClusterName=$CLUSTER_ID
SlurmctldHost=$(hostname)($SUBNET.1)
SlurmctldPort=$ctl_port
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/munge/munge.sock
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool-%n
SlurmctldPidFile=$s/slurmctld.pid
SlurmdPidFile=$s/slurmd-%n.pid
SlurmctldLogFile=$s/log/slurmctld.log
SlurmdLogFile=$s/log/slurmd-%n.log
# Each host's slurmd sees its own directory here (a bind mount in the host's mount namespace):
# the PMIx plugin's per-step directories would collide in one shared folder.
TmpFS=$DIR/tmpfs
PlugStackConfig=$s/plugstack.conf
TaskProlog=$s/task-prolog.sh
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
KillWait=5
InactiveLimit=0
SlurmdTimeout=30
MailProg=/bin/true
EOF
  for host in "${HOSTS[@]}"; do
    echo "NodeName=$host NodeAddr=${ADDR[$host]} NodeHostname=$host CPUs=$cpus State=UNKNOWN" >> "$s/slurm.conf"
  done
  echo "PartitionName=$CLUSTER_ID Nodes=ALL Default=YES MaxTime=INFINITE State=UP" >> "$s/slurm.conf"
  # cgroup/v2 autodetection fails on machines with mixed cgroup mounts; no cgroup is used anyway.
  printf 'CgroupPlugin=cgroup/v1\nCgroupAutomount=no\n' > "$s/cgroup.conf"
  : > "$s/plugstack.conf"
  # A task's extra environment comes from its host's env file (e.g. another hardware topology).
  cat > "$s/task-prolog.sh" <<EOF
#!/bin/sh
f="$DIR/hosts.d/\$(hostname)/env"
[ -f "\$f" ] && sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*=.*\)\$/export \1/p' "\$f"
exit 0
EOF
  chmod 0755 "$s/task-prolog.sh"
}

slurm_env() { echo "SLURM_CONF=$DIR/slurm/slurm.conf"; }

# Waits until every node is idle: only then does `srun -N <all>` start at once.
wait_for_nodes() {
  local deadline=$((SECONDS + STEP_TIMEOUT)) states
  while [ "$SECONDS" -lt "$deadline" ]; do
    states=$(env "$(slurm_env)" timeout 10 sinfo -h -N -o '%T' 2>/dev/null | sort -u | tr '\n' ' ')
    [ "$states" = "idle " ] && return 0
    sleep 0.5
  done
  die "Slurm nodes not idle after ${STEP_TIMEOUT} s (states: ${states:-none}); logs: $DIR/slurm/log/"
}

start_slurm() {
  local cpus=$1 s=$DIR/slurm host
  start_munge
  write_slurm_conf "$cpus"
  setsid env "$(slurm_env)" slurmctld -D -c -f "$s/slurm.conf" < /dev/null > "$s/log/slurmctld.out" 2>&1 &
  add_daemon slurmctld $!
  disown
  for host in "${HOSTS[@]}"; do
    # slurmd inside the host: its name, its address, its TmpFS.
    setsid nsenter -t "${PID[$host]}" -n -u -m --wd=/ -- env "$(slurm_env)" \
      slurmd -D -N "$host" -f "$s/slurm.conf" < /dev/null > "$s/log/slurmd-$host.out" 2>&1 &
    add_daemon "slurmd-$host" $!
    disown
  done
  wait_for_nodes
  log "Slurm: slurmctld on $(hostname) ($SUBNET.1), slurmd on ${HOSTS[*]}; export $(slurm_env)"
}

# --- down ----------------------------------------------------------------------------------------

# Pids of every process in the network namespace $1 (as /proc/PID/ns/net names it).
pids_in_netns() {
  local ns=$1 p
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/ns/net" 2>/dev/null)" = "$ns" ] && echo "${p#/proc/}"
  done
  return 0
}

kill_pids() {
  [ $# -gt 0 ] || return 0
  kill -KILL "$@" 2>/dev/null || true
}

# Removes everything of the cluster in $1, whatever state it is in (also half built).
teardown() {
  local dir=$1 id name addr pid upid netns veth role dpid
  id=$(basename "$dir")
  if [ -f "$dir/daemons" ]; then
    while read -r role dpid; do kill_pids "$dpid"; done < "$dir/daemons"
  fi
  if [ -f "$dir/hosts" ]; then
    while read -r name addr pid upid netns veth; do
      # Every process of the host, then the namespace holders: the namespaces go with them.
      mapfile -t pids < <(pids_in_netns "$netns")
      kill_pids "${pids[@]}" "$pid" "$upid"
      ip link del "$veth" 2>/dev/null || true
    done < "$dir/hosts"
  fi
  # A host whose anchor pid was not recorded yet (up failed while starting it).
  for pid in "$dir"/hosts.d/*/anchor.pid; do [ -s "$pid" ] && kill_pids "$(cat "$pid")"; done
  ip link del "$id-br" 2>/dev/null || true
  rm -rf "$dir"
  log "cluster $id removed"
}

cmd_down() {
  local id
  case "${1:-}" in
    --all)
      for id in $(cluster_ids); do teardown "$STATE_ROOT/$id"; done
      # Leftovers without state (a state dir removed by hand): bridges named like ours.
      ip -o link show type bridge 2>/dev/null | awk -F': ' '{print $2}' | grep -E '^cb[0-9a-f]{5}-br$' \
        | while read -r id; do ip link del "$id" && log "removed stray bridge $id"; done
      return 0 ;;
    "") pick_cluster ;;
    *) CLUSTER_ID=$1; DIR=$STATE_ROOT/$1; [ -d "$DIR" ] || die "no cluster '$1' under $STATE_ROOT" ;;
  esac
  teardown "$STATE_ROOT/$CLUSTER_ID"
}

# --- running things on the hosts -----------------------------------------------------------------

cmd_exec() {
  pick_cluster
  local host=${1:-}
  need_host "$host"
  shift
  [ "${1:-}" = "--" ] && shift
  [ $# -gt 0 ] || set -- "${SHELL:-/bin/bash}"
  in_host "$host" "$@"
}

# The rsh agent of Open MPI: `cluster.sh --id ID rsh HOST COMMAND...`, like ssh, runs the
# words of COMMAND as one shell command line on HOST.
cmd_rsh() {
  pick_cluster
  local host=${1:-}
  need_host "$host"
  shift
  in_host "$host" bash -c "$*"
}

# What Open MPI needs to run across the hosts, as environment variables (so that plain
# `mpirun --host h1:2,...` works after `eval "$(cluster.sh env)"`).
mpi_env() {
  # Through bash: the agent works without the execute bit (a checkout may lose it).
  echo "OMPI_MCA_plm_rsh_agent=bash $SELF --id $CLUSTER_ID rsh"
  # orted starts ranks directly: no tree of agents inside the hosts.
  echo "OMPI_MCA_plm_rsh_no_tree_spawn=1"
  # TCP between hosts over the cluster's subnet only (never this machine's own interfaces).
  echo "OMPI_MCA_btl=self,vader,tcp"
  echo "OMPI_MCA_btl_tcp_if_include=$SUBNET.0/24"
  echo "OMPI_MCA_oob_tcp_if_include=$SUBNET.0/24"
  # Every host is the same few cores: more ranks than cores, and no binding.
  echo "OMPI_MCA_rmaps_base_oversubscribe=1"
  echo "OMPI_MCA_hwloc_base_binding_policy=none"
  # Ranks that wait must give the cores to the others (Open MPI spins otherwise).
  echo "OMPI_MCA_mpi_yield_when_idle=1"
  if [ "$(id -u)" -eq 0 ]; then
    echo "OMPI_ALLOW_RUN_AS_ROOT=1"
    echo "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
  fi
}

cmd_env() {
  pick_cluster
  local line
  {
    echo "COLLBENCH_CLUSTER=$CLUSTER_ID"
    echo "CLUSTER_HOSTS=${HOSTS[*]}"
    echo "MASTER_ADDR=${ADDR[${HOSTS[0]}]}"
    mpi_env
    [ -f "$DIR/slurm/slurm.conf" ] && slurm_env
  } | while IFS= read -r line; do printf 'export %s=%q\n' "${line%%=*}" "${line#*=}"; done
}

# Default host list (P slots on every host) unless the arguments place the ranks themselves.
cmd_mpirun() {
  pick_cluster
  local ppn=2 args=() placed="" a
  while [ $# -gt 0 ]; do
    case $1 in
      --ppn) [ $# -ge 2 ] || usage_error "--ppn needs a number"; ppn=$2; shift 2 ;;
      --) shift; break ;;
      *) break ;;
    esac
  done
  # mpirun's own options come before the program: the program's flags (collbench's -n) are not placement.
  for a in "$@"; do
    if [ "${a#-}" = "$a" ] && type -P "$a" > /dev/null; then break; fi
    case $a in --host | -host | -H | --hostfile | -hostfile | --machinefile | -np | --np | -n | -c) placed=1 ;; esac
  done
  if [ -z "$placed" ]; then
    local list="" h
    for h in "${HOSTS[@]}"; do list+="${list:+,}$h:$ppn"; done
    args=(-np $((ppn * ${#HOSTS[@]})) --host "$list")
  fi
  local vars
  mapfile -t vars < <(mpi_env)
  exec env "${vars[@]}" mpirun "${args[@]}" "$@"
}

cmd_srun() {
  pick_cluster
  [ -f "$DIR/slurm/slurm.conf" ] || die "cluster $CLUSTER_ID has no Slurm (bring it up with: up N --slurm)"
  exec env "$(slurm_env)" srun "$@"
}

# --- torchrun-style launch (the env bootstrap) ---------------------------------------------------

# One rank: started inside its host with torchrun's variables; its output prefixed with
# "[rank host] "; its exit code and end time appended to the ranks file.
run_rank() {
  local rank=$1 host=$2 local_rank=$3; shift 3
  local child code
  in_host "$host" env --default-signal=INT,QUIT RANK="$rank" WORLD_SIZE="$WORLD" LOCAL_RANK="$local_rank" \
    LOCAL_WORLD_SIZE="$PPN" MASTER_ADDR="$MASTER" MASTER_PORT="$PORT" "$@" \
    < /dev/null > >(sed -u "s/^/[$rank $host] /") 2> >(sed -u "s/^/[$rank $host] /" >&2) &
  child=$!
  trap 'kill -TERM $child 2>/dev/null' TERM
  trap 'kill -INT $child 2>/dev/null' INT
  # wait returns early when a trap runs: wait again until the rank has really ended.
  while :; do
    wait "$child" 2>/dev/null && code=0 || code=$?
    kill -0 "$child" 2>/dev/null || break
  done
  echo "$rank $host $code $(date +%s.%N)" >> "$RANKS_FILE"
  exit "$code"
}

cmd_launch() {
  pick_cluster
  PPN=2 PORT="" RANKS_FILE=${CLUSTER_RANKS_FILE:-}
  local hosts=("${HOSTS[@]}")
  while [ $# -gt 0 ]; do
    case $1 in
      --ppn) PPN=$2; shift 2 ;;
      --port) PORT=$2; shift 2 ;;
      --hosts) IFS=, read -r -a hosts <<< "$2"; shift 2 ;;
      --ranks-file) RANKS_FILE=$2; shift 2 ;;
      --) shift; break ;;
      *) usage_error "launch: unknown option '$1' (the command comes after --)" ;;
    esac
  done
  [ $# -gt 0 ] || usage_error "launch: missing command after --"
  [[ $PPN =~ ^[1-9][0-9]*$ ]] || usage_error "--ppn must be a positive number"
  local h
  for h in "${hosts[@]}"; do need_host "$h"; done
  WORLD=$((PPN * ${#hosts[@]}))
  MASTER=${ADDR[${hosts[0]}]}
  # The rendezvous listens in the first host's namespace: any port is free in a fresh one, but
  # a previous run may still hold its port in TIME_WAIT.
  [ -n "$PORT" ] || PORT=$((29500 + RANDOM % 20000))
  local own_ranks_file=""  # made here, so removed here; one given with --ranks-file is the caller's
  if [ -z "$RANKS_FILE" ]; then RANKS_FILE=$(mktemp "${TMPDIR:-/tmp}/cluster-ranks.XXXXXX"); own_ranks_file=1; fi
  : > "$RANKS_FILE"
  local pids=() r=0 l code highest=0
  for h in "${hosts[@]}"; do
    for ((l = 0; l < PPN; l++)); do
      run_rank "$r" "$h" "$l" "$@" &
      pids+=($!)
      r=$((r + 1))
    done
  done
  trap 'kill -INT "${pids[@]}" 2>/dev/null' INT
  trap 'kill -TERM "${pids[@]}" 2>/dev/null' TERM HUP
  local p
  for p in "${pids[@]}"; do
    while :; do
      wait "$p" && code=0 || code=$?
      kill -0 "$p" 2>/dev/null || break
    done
    [ "$code" -gt "$highest" ] && highest=$code
  done
  sort -n "$RANKS_FILE" | while read -r r h code _; do
    if [ "$code" -ne 0 ]; then log "rank $r on $h exited with $code"; fi
  done
  [ -n "$own_ranks_file" ] && rm -f "$RANKS_FILE"
  return "$highest"
}

# --- faults --------------------------------------------------------------------------------------

# Faults are recorded in $DIR/faults ("bw HOST RATE", "link A B RATE", "latency HOST MS",
# "down HOST", "drop HOST PORT", "topo HOST FILE") so that `status` shows them and `clear`
# undoes them; the traffic shaping of a host is rebuilt from them each time.

fault_lines() { grep -E "^$1 " "$DIR/faults" 2>/dev/null || true; }

# Records a fault; the first $1 words (kind and host, or kind and two hosts) identify it, and a
# new one replaces the old (the latest limit wins).
add_fault() {
  local n=$1; shift
  awk -v n="$n" -v line="$*" 'BEGIN { split(line, w, " ") }
    { same = 1; for (i = 1; i <= n; i++) if ($i != w[i]) same = 0; if (!same) print }' \
    "$DIR/faults" > "$DIR/faults.new"
  echo "$*" >> "$DIR/faults.new"
  mv "$DIR/faults.new" "$DIR/faults"
}

# tc rate ("100mbit", "1gbit", "500kbit") in bytes per second, to size the bucket.
rate_bytes() {
  local r=${1,,}
  case $r in
    *gbit) echo $(( ${r%gbit} * 125000000 )) ;;
    *mbit) echo $(( ${r%mbit} * 125000 )) ;;
    *kbit) echo $(( ${r%kbit} * 125 )) ;;
    *bit) echo $(( ${r%bit} / 8 )) ;;
    *) return 1 ;;
  esac
}

check_rate() { [[ ${1,,} =~ ^[1-9][0-9]*[kmg]?bit$ ]] || usage_error "RATE must be like 100mbit, 2gbit or 500kbit (got '$1')"; }

# Bucket depth: 10 ms at the rate, at least 64 KiB (one GSO segment must fit in the bucket).
burst_of() {
  local b
  b=$(rate_bytes "$1")
  b=$((b / 100))
  [ "$b" -lt 65536 ] && b=65536
  echo "$b"
}

# Rebuilds a host's traffic shaping from the recorded faults. Out of the host: an HTB (a token
# bucket per class) on eth0, its root class the host's bandwidth, one class per slowed link,
# netem below each class for latency. Into the host: a token bucket on the bridge side.
shape_host() {
  local host=$1 bw="" lat="" peer rate line a b r
  local links=()
  while read -r _ a r; do [ "$a" = "$host" ] && bw=$r; done < <(fault_lines bw)
  while read -r _ a r; do [ "$a" = "$host" ] && lat=$r; done < <(fault_lines latency)
  while read -r _ a b r; do
    [ "$a" = "$host" ] && links+=("$b $r")
    [ "$b" = "$host" ] && links+=("$a $r")
  done < <(fault_lines link)
  in_host "$host" tc qdisc del dev eth0 root 2>/dev/null || true
  tc qdisc del dev "${VETH[$host]}" root 2>/dev/null || true
  if [ -n "$bw" ]; then
    tc qdisc add dev "${VETH[$host]}" root tbf rate "$bw" burst "$(burst_of "$bw")" latency 100ms
  fi
  [ -z "$bw" ] && [ -z "$lat" ] && [ "${#links[@]}" -eq 0 ] && return 0
  local top=${bw:-$UNLIMITED_RATE} class=10
  local tcin=(in_host "$host" tc)
  "${tcin[@]}" qdisc add dev eth0 root handle 1: htb default 99
  # quantum: bytes a class sends per round; tc's default (rate / 10) is absurd at fast rates.
  "${tcin[@]}" class add dev eth0 parent 1: classid 1:1 htb rate "$top" burst "$(burst_of "$top")" quantum 65536
  "${tcin[@]}" class add dev eth0 parent 1:1 classid 1:99 htb rate "$top" burst "$(burst_of "$top")" quantum 65536
  local leaves=(99)
  for line in "${links[@]}"; do
    read -r peer rate <<< "$line"
    # The slower of the link's and the host's own limit.
    if [ -n "$bw" ] && [ "$(rate_bytes "$bw")" -lt "$(rate_bytes "$rate")" ]; then rate=$bw; fi
    "${tcin[@]}" class add dev eth0 parent 1:1 classid "1:$class" htb rate "$rate" ceil "$rate" burst "$(burst_of "$rate")" quantum 65536
    "${tcin[@]}" filter add dev eth0 parent 1: protocol ip prio 1 u32 match ip dst "${ADDR[$peer]}/32" flowid "1:$class"
    leaves+=("$class")
    class=$((class + 1))
  done
  if [ -n "$lat" ]; then
    for class in "${leaves[@]}"; do
      "${tcin[@]}" qdisc add dev eth0 parent "1:$class" netem delay "${lat}ms"
    done
  fi
}

# netem is a kernel option (CONFIG_NET_SCH_NETEM); try it in a scratch namespace.
have_netem() {
  unshare --net sh -c 'ip link set lo up && tc qdisc add dev lo root netem delay 1ms' >/dev/null 2>&1
}

host_procs() {
  # Every process in the host's network namespace but the ones that keep the host (and its
  # slurmd) alive: the namespace holders.
  local host=$1 p
  local keep=" ${PID[$host]} ${UPID[$host]} "
  local role dpid
  while read -r role dpid; do [ "$role" = "slurmd-$host" ] && keep+="$dpid "; done < "$DIR/daemons"
  for p in $(pids_in_netns "${NETNS[$host]}"); do
    [[ $keep == *" $p "* ]] || echo "$p"
  done
}

fault_kill() {
  local host=$1 pids
  mapfile -t pids < <(host_procs "$host")
  kill_pids "${pids[@]}"
  log "fault: killed ${#pids[@]} processes on $host${pids[*]:+ (${pids[*]})}"
}

fault_drop() {
  local host=$1 port=$2
  [[ $port =~ ^[0-9]+$ ]] && [ "$port" -ge 1 ] && [ "$port" -le 65535 ] || usage_error "PORT must be 1-65535"
  add_fault 3 drop "$host" "$port"
  apply_firewall "$host"
  log "fault: $host drops TCP and UDP port $port, in and out"
}

# One nftables table per host (in the host's own namespace) rebuilt from the recorded drops.
apply_firewall() {
  local host=$1 ports=() a p
  while read -r _ a p; do [ "$a" = "$host" ] && ports+=("$p"); done < <(fault_lines drop)
  in_host "$host" nft delete table inet collbench_fault 2>/dev/null || true
  [ "${#ports[@]}" -eq 0 ] && return 0
  local set
  set=$(IFS=,; echo "${ports[*]}")
  in_host "$host" nft -f - <<EOF
table inet collbench_fault {
  chain input { type filter hook input priority 0; policy accept; meta l4proto { tcp, udp } th dport { $set } drop; }
  chain output { type filter hook output priority 0; policy accept; meta l4proto { tcp, udp } th dport { $set } drop; }
}
EOF
}

# Another hardware topology for one host: a capture in the variable that collbench's discovery
# honours (COLLBENCH_TOPOLOGY_FILE: collbench's alone, MPI and NCCL go on seeing the machine).
# Without FILE: this host's own capture with
# NUMA node 0's memory halved, so that `topo` across hosts has a real odd one out.
fault_topo() {
  local host=$1 file=${2:-}
  if [ -z "$file" ]; then
    command -v lstopo-no-graphics >/dev/null || die "lstopo-no-graphics (Debian: hwloc) is needed to capture a topology"
    local capture=$DIR/hosts.d/$host/topology.xml
    in_host "$host" env -u "$TOPO_VAR" lstopo-no-graphics --of xml --force "$capture.live"
    local memory
    memory=$(grep -o -m1 'local_memory="[0-9]*"' "$capture.live" | head -n 1 | tr -dc '0-9')
    [ -n "$memory" ] || die "the capture of $host has no NUMA memory to change"
    # Bash arithmetic: awk may print large numbers as 2.7e+09, which hwloc would read as 2.
    sed "0,/local_memory=\"$memory\"/s//local_memory=\"$((memory / 2))\"/" "$capture.live" > "$capture"
    file=$capture
  fi
  [ -r "$file" ] || die "cannot read $file"
  file=$(readlink -f "$file")
  add_fault 2 topo "$host" "$file"
  write_host_env "$host"
  log "fault: $host discovers its topology from $file ($TOPO_VAR)"
}

write_host_env() {
  local host=$1 a f
  : > "$DIR/hosts.d/$host/env"
  while read -r _ a f; do [ "$a" = "$host" ] && echo "$TOPO_VAR=$f" >> "$DIR/hosts.d/$host/env"; done < <(fault_lines topo)
  return 0
}

# Undoes every fault (or those of one host, links to it included) and rebuilds the rest.
fault_clear() {
  local only=${1:-} host
  if [ -n "$only" ]; then
    need_host "$only"
    awk -v h="$only" '!($2 == h || ($1 == "link" && $3 == h))' "$DIR/faults" > "$DIR/faults.new"
    mv "$DIR/faults.new" "$DIR/faults"
  else
    : > "$DIR/faults"
  fi
  for host in "${HOSTS[@]}"; do
    if [ -z "$only" ] || [ "$host" = "$only" ]; then ip link set "${VETH[$host]}" up; fi
    shape_host "$host"
    apply_firewall "$host"
    write_host_env "$host"
  done
  log "fault: cleared${only:+ on $only}"
}

cmd_fault() {
  pick_cluster
  local kind=${1:-} a b
  [ $# -gt 0 ] && shift
  case $kind in
    bw)
      [ $# -eq 2 ] || usage_error "fault bw HOST RATE"
      need_host "$1"; check_rate "$2"
      add_fault 2 bw "$1" "$2"; shape_host "$1"
      log "fault: $1 limited to $2 in each direction (token bucket on both ends of its link)" ;;
    link)
      [ $# -eq 3 ] || usage_error "fault link HOSTA HOSTB RATE"
      need_host "$1"; need_host "$2"; check_rate "$3"
      [ "$1" != "$2" ] || usage_error "fault link: two different hosts"
      # The pair in name order: "link h1 h3" and "link h3 h1" are one fault.
      read -r a b < <(printf '%s\n' "$1" "$2" | sort | paste -sd ' ')
      add_fault 3 link "$a" "$b" "$3"; shape_host "$1"; shape_host "$2"
      log "fault: traffic between $1 and $2 limited to $3 each way" ;;
    latency)
      [ $# -eq 2 ] || usage_error "fault latency HOST MS"
      need_host "$1"
      [[ $2 =~ ^[0-9]+$ ]] || usage_error "MS must be a whole number of milliseconds"
      have_netem || skip "fault latency: this kernel has no netem (CONFIG_NET_SCH_NETEM); no latency added"
      add_fault 2 latency "$1" "$2"; shape_host "$1"
      log "fault: $2 ms added to every packet leaving $1" ;;
    down)
      [ $# -eq 1 ] || usage_error "fault down HOST"
      need_host "$1"
      add_fault 2 down "$1"
      ip link set "${VETH[$1]}" down
      log "fault: $1's link is down (no carrier; nothing is closed, packets are lost)" ;;
    kill)
      [ $# -eq 1 ] || usage_error "fault kill HOST"
      need_host "$1"; fault_kill "$1" ;;
    drop)
      [ $# -eq 2 ] || usage_error "fault drop HOST PORT"
      need_host "$1"; fault_drop "$1" "$2" ;;
    topo)
      [ $# -ge 1 ] && [ $# -le 2 ] || usage_error "fault topo HOST [HWLOC_XML]"
      need_host "$1"; fault_topo "$@" ;;
    clear) fault_clear "$@" ;;
    *) usage_error "fault: one of bw, link, latency, down, kill, drop, topo, clear" ;;
  esac
}

# --- status --------------------------------------------------------------------------------------

cmd_status() {
  local ids id
  if [ -n "${CLUSTER_ID:-${COLLBENCH_CLUSTER:-}}" ]; then ids=("${CLUSTER_ID:-$COLLBENCH_CLUSTER}"); else mapfile -t ids < <(cluster_ids); fi
  [ "${#ids[@]}" -gt 0 ] || { echo "no cluster is up"; return 0; }
  for id in "${ids[@]}"; do
    CLUSTER_ID=$id
    pick_cluster
    echo "cluster $CLUSTER_ID: bridge $BRIDGE, subnet $SUBNET.0/24, state $DIR"
    local h state
    for h in "${HOSTS[@]}"; do
      state=up
      kill -0 "${PID[$h]}" 2>/dev/null || state=GONE
      ip link show "${VETH[$h]}" 2>/dev/null | grep -q "state DOWN" && state="link down"
      printf '  %-4s %-15s %-9s %s processes\n' "$h" "${ADDR[$h]}" "$state" "$(host_procs "$h" | wc -l)"
    done
    if [ -s "$DIR/faults" ]; then sed 's/^/  fault: /' "$DIR/faults"; fi
    if [ -f "$DIR/slurm/slurm.conf" ]; then
      echo "  slurm: $(env "$(slurm_env)" timeout 5 sinfo -h -N -o '%N=%T' 2>&1 | tr '\n' ' ')"
    fi
  done
}

# --- main ----------------------------------------------------------------------------------------

main() {
  CLUSTER_ID=""
  while [ $# -gt 0 ]; do
    case $1 in
      --id) [ $# -ge 2 ] || usage_error "--id needs an id"; CLUSTER_ID=$2; shift 2 ;;
      --id=*) CLUSTER_ID=${1#--id=}; shift ;;
      *) break ;;
    esac
  done
  local cmd=${1:-}
  [ $# -gt 0 ] && shift
  [ "$cmd" = check ] || [ "$(id -u)" -eq 0 ] || die "needs root (network namespaces)"
  case $cmd in
    up) cmd_up "$@" ;;
    down) cmd_down "$@" ;;
    check) cmd_check ;;
    status) cmd_status ;;
    env) cmd_env ;;
    exec) cmd_exec "$@" ;;
    rsh) cmd_rsh "$@" ;;
    mpirun) cmd_mpirun "$@" ;;
    srun) cmd_srun "$@" ;;
    launch) cmd_launch "$@" ;;
    fault) cmd_fault "$@" ;;
    -h | --help | help) sed -n '2,/^set -euo/p' "$SELF" | sed '$d; s/^# \{0,1\}//' ;;
    *) usage_error "unknown command '${cmd}'" ;;
  esac
}

main "$@"
