#!/usr/bin/env bash
# The formatting check: every C++ file of the project's own folders (common/ topo/ report/
# bench/ tests/, *.cpp *.hpp *.cu *.cuh *.h) must be as clang-format leaves it with the committed
# .clang-format. Prints the files that differ, one per line, and how to fix them, and exits 1;
# exits 0 when every file is formatted, 2 when the check cannot run (no clang-format, no
# .clang-format, a configuration clang-format refuses).
#
#   scripts/check-format.sh [ROOT]     (ROOT: a checkout; default: this one)
#
# The files are git's tracked files; in a ROOT that is not a git checkout (a test's scratch
# copy), every such file under the folders. CLANG_FORMAT names the binary (default
# clang-format); .clang-format is written for clang-format 14 (Debian 12's), and another
# version may format some lines differently. scripts/lint.sh runs it first. Docs: docs/testing.md.
set -euo pipefail
ROOT="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
CLANG_FORMAT="${CLANG_FORMAT:-clang-format}"
DIRS=(common topo report bench tests)

command -v "$CLANG_FORMAT" >/dev/null ||
  { echo "check-format: $CLANG_FORMAT not found; install it: sudo apt-get install -y clang-format" >&2; exit 2; }
[ -f "$ROOT/.clang-format" ] || { echo "check-format: $ROOT/.clang-format not found" >&2; exit 2; }
version="$("$CLANG_FORMAT" --version)"
case "$version" in
  *"version 14."*) ;;
  *) echo "check-format: .clang-format is written for clang-format 14, this is: $version" >&2 ;;
esac

cd "$ROOT"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- "${DIRS[@]}" | grep -E '\.(cpp|hpp|cu|cuh|h)$' || true)
else  # not a git checkout (a test's scratch tree)
  mapfile -t files < <(find "${DIRS[@]}" -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' \
                         -o -name '*.cuh' -o -name '*.h' \) 2>/dev/null | sort || true)
fi
[ "${#files[@]}" -gt 0 ] || { echo "check-format: no C++ files under ${DIRS[*]} in $ROOT" >&2; exit 2; }

# One report per file (--ferror-limit=1), in batches, two at a time, each batch to its own log
# (two writing to one pipe interleave their lines). --style=file: the .clang-format above each
# file (its absence is refused above: clang-format would fall back to a built-in style).
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
printf '%s\0' "${files[@]}" |
  xargs -0 -n 50 -P 2 sh -c '"$0" --dry-run --Werror --ferror-limit=1 --style=file "$@" 2>"$(mktemp -p "'"$logs"'")"' \
        "$CLANG_FORMAT" && rc=0 || rc=$?
out="$(cat "$logs"/*)"
mapfile -t bad < <(sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted .*/\1/p' <<< "$out" | sort -u)
if [ "${#bad[@]}" -eq 0 ]; then
  if [ "$rc" -ne 0 ]; then  # clang-format failed without naming a file: a bad configuration, a crash
    echo "$out" >&2
    echo "check-format: $CLANG_FORMAT failed (exit $rc) without a formatting finding" >&2
    exit 2
  fi
  echo "check-format: ${#files[@]} files formatted" >&2
  exit 0
fi
printf '%s\n' "${bad[@]}"
echo "check-format: ${#bad[@]} of ${#files[@]} files differ from what .clang-format says (listed above)." >&2
echo "check-format: fix one with: $CLANG_FORMAT -i FILE" >&2
echo "check-format: fix all of them, from $ROOT: scripts/check-format.sh | xargs $CLANG_FORMAT -i" >&2
exit 1
