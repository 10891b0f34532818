#!/usr/bin/env bash
# Static analysis of the project's own code: first the formatting check (scripts/check-format.sh,
# the committed .clang-format; seconds), then clang-tidy with the committed .clang-tidy and
# cppcheck with the committed .cppcheck-suppressions. Prints one line per finding
# ("path:line:col: check: message"; a file that is not formatted: its path) and exits 1 when
# there is any; exits 0 when all are clean.
#
#   scripts/lint.sh                     # everything
#   scripts/lint.sh format              # only the formatting check
#   scripts/lint.sh tidy [FILE.cpp...]  # only clang-tidy: every file, or those given (from the repo root)
#   scripts/lint.sh cppcheck            # only cppcheck
#
# LINT_JOBS (default 2) analyses run at a time. The compile database comes from build-lint/
# (configured here; only the generated headers are built, nothing is compiled). Docs: docs/testing.md.
set -euo pipefail
ROOT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT_DIR"

WHAT="${1:-all}"
case "$WHAT" in all | format | tidy | cppcheck) ;;
  *) echo "usage: scripts/lint.sh [all|format|tidy [FILE...]|cppcheck]" >&2; exit 2 ;; esac
shift || true
# The formatting check alone needs neither the packages below nor a compile database.
if [ "$WHAT" = format ]; then exec bash "$ROOT_DIR/scripts/check-format.sh" "$ROOT_DIR"; fi
JOBS="${LINT_JOBS:-2}"
BUILD="$ROOT_DIR/build-lint"
LOGS="$BUILD/lint-logs"
PROJECT_DIRS="common|topo|report|bench|tests"

# The tools, and the build dependencies so that the compile database can be generated.
LINT_PACKAGES=(clang-format clang-tidy cppcheck cmake ninja-build g++ pkg-config libopenmpi-dev
               libhwloc-dev nlohmann-json3-dev libcli11-dev libgtest-dev libbenchmark-dev)
missing=()
for p in "${LINT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "lint: missing packages: ${missing[*]}" >&2
    echo "lint: run: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "lint: installing ${missing[*]}" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Formatting first: it takes seconds, where the analyses below take minutes. Its findings are
# reported and the analyses still run, so that one run lists everything.
status=0
if [ "$WHAT" = all ]; then
  format_status=0
  bash "$ROOT_DIR/scripts/check-format.sh" "$ROOT_DIR" || format_status=$?
  [ "$format_status" -eq 2 ] && exit 2  # it could not run: its message says why
  [ "$format_status" -eq 0 ] || status=1
fi

# NCCL off: its sources need the CUDA headers, which a lint machine does not have (they are
# covered by the GPU build's -Werror instead). Benchmarks on, so that tests/perf is analysed too.
# Configure only; the generated headers (schemas, features, build info) are what includes need.
cmake -S "$ROOT_DIR" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  -DCOLLBENCH_WITH_NCCL=OFF -DCOLLBENCH_BUILD_TESTS=ON -DCOLLBENCH_BUILD_BENCHMARKS=ON \
  -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON >/dev/null
cmake --build "$BUILD" --target collbench_build_info >/dev/null

# The project's translation units from the compile database (one "file" entry per line, as CMake
# writes it). tests/fuzz is included: the normal build compiles those sources into the corpus
# replay test without libFuzzer, so they need no fuzzer flags.
mapfile -t SOURCES < <(sed -n 's/^ *"file": "\(.*\)",\{0,1\}$/\1/p' "$BUILD/compile_commands.json" |
                       grep -E "^$ROOT_DIR/($PROJECT_DIRS)/.*\.cpp$" | sort -u)
[ "${#SOURCES[@]}" -gt 0 ] || { echo "lint: no sources in $BUILD/compile_commands.json" >&2; exit 1; }
if [ "$#" -gt 0 ]; then
  wanted=()
  for f in "$@"; do
    f="$(realpath -m "$f")"
    printf '%s\n' "${SOURCES[@]}" | grep -qxF "$f" || { echo "lint: $f is not a source of the compile database" >&2; exit 2; }
    wanted+=("$f")
  done
  SOURCES=("${wanted[@]}")
fi

rm -rf "$LOGS"
mkdir -p "$LOGS"

# Findings as "path:line:col: check: message", relative to the repository, each once (a header's
# finding is reported by every translation unit that includes it).
report() {
  sort -u | sed "s|^$ROOT_DIR/||"
}

run_tidy() {
  # One log per translation unit, so that parallel runs never interleave their output.
  # -Wno-unknown-warning-option: the database holds GCC's flags; clang need not know all of them.
  printf '%s\n' "${SOURCES[@]}" |
    xargs -P "$JOBS" -I{} sh -c 'clang-tidy -p "$1" --quiet --extra-arg=-Wno-unknown-warning-option "$2" \
                                   >"$3/tidy-$(echo "$2" | tr / _).log" 2>&1 || true' \
          _ "$BUILD" {} "$LOGS"
  cat "$LOGS"/tidy-*.log |
    sed -n 's/^\(\/[^:]*:[0-9]*:[0-9]*\): \(warning\|error\): \(.*\) \[\([^]]*\)\]$/\1: \4: \3/p' |
    sed 's/,-warnings-as-errors: /: /' | report >"$LOGS/tidy.findings"
  # A run that failed without a finding (a crash, a missing include) is a finding too.
  grep -h -E '^(Error while processing|.*: fatal error:)' "$LOGS"/tidy-*.log | report >>"$LOGS/tidy.findings" || true
}

run_cppcheck() {
  # The compile database gives each file its own flags and defines; only the project's files are
  # analysed (--file-filter), and a finding inside a system header is suppressed in the list.
  cppcheck --project="$BUILD/compile_commands.json" --file-filter="$ROOT_DIR/*" -j "$JOBS" \
    --enable=warning,performance,portability --inline-suppr --library=googletest,posix \
    --suppressions-list="$ROOT_DIR/.cppcheck-suppressions" --error-exitcode=1 --quiet \
    --template='{file}:{line}:{column}: cppcheck-{id}: {message}' 2>"$LOGS/cppcheck.log" >/dev/null || true
  grep -E '^[^ ]+:[0-9]+:[0-9]+: cppcheck-' "$LOGS/cppcheck.log" | report >"$LOGS/cppcheck.findings" || true
}

if [ "$WHAT" != cppcheck ]; then
  run_tidy
  cat "$LOGS/tidy.findings"
  [ -s "$LOGS/tidy.findings" ] && status=1
  echo "lint: clang-tidy: ${#SOURCES[@]} files, $(wc -l <"$LOGS/tidy.findings") findings" >&2
fi
if [ "$WHAT" != tidy ]; then
  run_cppcheck
  cat "$LOGS/cppcheck.findings"
  [ -s "$LOGS/cppcheck.findings" ] && status=1
  echo "lint: cppcheck: $(wc -l <"$LOGS/cppcheck.findings") findings" >&2
fi
exit "$status"
