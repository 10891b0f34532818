#!/usr/bin/env bash
# Starts N ranks of a command on this machine, the way torchrun would, for the env bootstrap:
#
#   scripts/launch-local.sh N [--port P] -- COMMAND [ARGS...]
#
# Each rank gets RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR=127.0.0.1 and
# MASTER_PORT (a free port unless --port is given). Every line a rank prints is prefixed with
# "[rank] " (stdout stays stdout, stderr stays stderr). The launcher waits for all ranks and
# exits with the highest exit code. SIGINT or SIGTERM to the launcher is passed on to the ranks,
# and a rank that ends by SIGINT or SIGTERM stops the others (SIGTERM); ranks still running
# after a grace period are killed. A rank that fails on its own is left to the others to
# diagnose: that is what collbench is for.
# common.sh: free_port. It turns on -e, which this launcher must not have: it waits on ranks
# that may fail and reports their exit codes itself.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
set +e -uo pipefail

readonly KILL_GRACE_S=5

die() {
  echo "launch-local: $*" >&2
  exit 2
}

usage() { die "usage: launch-local.sh N [--port P] -- COMMAND [ARGS...]"; }

parse_args() {
  [ $# -ge 1 ] || usage
  ranks=$1
  shift
  [[ $ranks =~ ^[1-9][0-9]{0,5}$ ]] || die "N must be a positive number of ranks (got '$ranks')"
  port=""
  while [ $# -gt 0 ]; do
    case $1 in
      --port) [ $# -ge 2 ] || usage; port=$2; shift 2 ;;
      --port=*) port=${1#--port=}; shift ;;
      --) shift; break ;;
      *) usage ;;
    esac
  done
  [ $# -ge 1 ] || usage
  command_line=("$@")
  if [ -z "$port" ]; then
    port=$(free_port) || die "found no free TCP port; pass --port"
  elif ! [[ $port =~ ^[0-9]{1,5}$ ]] || [ "$port" -lt 1 ] || [ "$port" -gt 65535 ]; then
    die "--port must be a TCP port number, 1-65535 (got '$port')"
  fi
}

# Sends $1 to every rank still running.
signal_ranks() {
  local pid
  for pid in "${pids[@]}"; do
    [ -n "${exit_code_of[$pid]:-}" ] || kill -"$1" "$pid" 2>/dev/null
  done
}

# Passes signal $1 (default TERM) on to the ranks, once, and arms the final SIGKILL.
stop_ranks() {
  [ -n "$stopping" ] && return
  stopping=1
  signal_ranks "${1:-TERM}"
  ( sleep "$KILL_GRACE_S"; kill -KILL "${pids[@]}" 2>/dev/null ) &
  killer=$!
}

start_ranks() {
  local r out err
  workdir=$(mktemp -d "${TMPDIR:-/tmp}/launch-local.XXXXXX") || die "cannot create a temporary directory"
  for ((r = 0; r < ranks; r++)); do
    out="$workdir/$r.out"
    err="$workdir/$r.err"
    mkfifo "$out" "$err" || die "cannot create FIFOs in $workdir"
    sed -u "s/^/[$r] /" < "$out" &
    printers+=($!)
    sed -u "s/^/[$r] /" < "$err" >&2 &
    printers+=($!)
    RANK=$r WORLD_SIZE=$ranks LOCAL_RANK=$r LOCAL_WORLD_SIZE=$ranks MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
      "${default_signals[@]}" "${command_line[@]}" > "$out" 2> "$err" < /dev/null &
    pids+=($!)
    rank_of[$!]=$r
  done
}

# Polls rather than `wait -n`, which loses the status of a rank that ends while a trap runs.
wait_for_ranks() {
  local left=$ranks pid code
  while [ "$left" -gt 0 ]; do
    for pid in "${pids[@]}"; do
      [ -z "${exit_code_of[$pid]:-}" ] && ! kill -0 "$pid" 2>/dev/null || continue
      wait "$pid" 2>/dev/null  # bash's own "Killed" notices are noise here
      code=$?
      exit_code_of[$pid]=$code
      left=$((left - 1))
      [ "$code" -ne 0 ] && echo "launch-local: rank ${rank_of[$pid]} exited with $code" >&2
      # 130 and 143: the rank itself was interrupted (SIGINT, SIGTERM): stop the others.
      if [ "$code" -eq 130 ] || [ "$code" -eq 143 ]; then stop_ranks; fi
      [ "$code" -gt "$highest" ] && highest=$code
    done
    [ "$left" -gt 0 ] && sleep 0.1
  done
}

cleanup() {
  [ -n "$killer" ] && kill "$killer" 2>/dev/null
  # Every line out before we exit; but a child that a rank left behind may hold the rank's
  # output open for ever, so the printers get two seconds.
  local tries p alive
  for ((tries = 0; tries < 20; tries++)); do
    alive=""
    for p in "${printers[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ -z "$alive" ] && break
    sleep 0.1
  done
  [ ${#printers[@]} -gt 0 ] && kill "${printers[@]}" 2>/dev/null
  [ -n "$workdir" ] && rm -rf "$workdir"
}

main() {
  if ((BASH_VERSINFO[0] < 5 || (BASH_VERSINFO[0] == 5 && BASH_VERSINFO[1] < 1))); then
    die "needs bash 5.1 or newer (wait -n -p)"
  fi
  parse_args "$@"
  pids=()
  printers=()
  declare -gA rank_of=() exit_code_of=()
  highest=0
  stopping=""
  killer=""
  workdir=""
  # Bash starts background jobs of a script with SIGINT ignored; ranks must be interruptible.
  default_signals=()
  env --default-signal=INT true 2>/dev/null && default_signals=(env --default-signal=INT,QUIT)
  trap cleanup EXIT
  trap 'stop_ranks INT' INT
  trap 'stop_ranks TERM' TERM HUP
  start_ranks
  wait_for_ranks
  exit "$highest"
}

main "$@"
