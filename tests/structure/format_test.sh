#!/usr/bin/env bash
# The formatting check (scripts/check-format.sh), as ctest runs it (tests/structure/CMakeLists.txt):
#   format ROOT         the tree is formatted as its .clang-format says
#   format-error ROOT   a copy of the tree, formatted, with one line mis-formatted is refused,
#                       naming that file and no other; formatting it makes the copy pass again;
#                       a copy without .clang-format cannot be checked (exit 2)
# Both skip (77) where clang-format is not installed.
set -euo pipefail
what="$1"
ROOT="$2"
fail() { echo "format_test: $*" >&2; exit 1; }
command -v clang-format >/dev/null || { echo "SKIP: clang-format is not installed"; exit 77; }

case "$what" in
  format)
    bash "$ROOT/scripts/check-format.sh" "$ROOT"
    ;;
  format-error)
    tree="$(mktemp -d)"
    trap 'rm -rf "$tree"' EXIT
    # The tracked files of the checked folders, and the configuration (not a git checkout: the
    # check lists the files itself).
    (cd "$ROOT" && git ls-files -z -- common topo report bench tests | xargs -0 cp --parents -t "$tree")
    cp "$ROOT/.clang-format" "$tree/"
    [ -f "$tree/common/status.hpp" ] || fail "no common/status.hpp in the copy"
    # Formatted first, so that the copy is clean whether or not the tree is.
    find "$tree/common" "$tree/topo" "$tree/report" "$tree/bench" "$tree/tests" -type f \
      \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' -o -name '*.cuh' -o -name '*.h' \) -print0 |
      xargs -0 -n 50 clang-format -i --style=file
    out="$(bash "$ROOT/scripts/check-format.sh" "$tree" 2>&1)" || fail "the formatted copy fails: $out"
    echo "$out"

    # One declaration with stray spaces, appended to a header.
    printf 'int  collbench_format_probe (  ) ;\n' >> "$tree/common/status.hpp"
    rc=0
    out="$(bash "$ROOT/scripts/check-format.sh" "$tree" 2>&1)" || rc=$?
    echo "$out"
    [ "$rc" -eq 1 ] || fail "a mis-formatted file gave exit $rc, not 1"
    grep -qx 'common/status.hpp' <<< "$out" || fail "common/status.hpp not named"
    [ "$(grep -cE '^[^ :]+\.(cpp|hpp|cu|cuh|h)$' <<< "$out")" -eq 1 ] || fail "other files named: $out"
    grep -q 'clang-format -i FILE' <<< "$out" || fail "no fix given"

    # The fix it names makes the copy pass.
    (cd "$tree" && clang-format -i common/status.hpp)
    out="$(bash "$ROOT/scripts/check-format.sh" "$tree" 2>&1)" || fail "still refused after clang-format -i: $out"

    # Without a configuration the check refuses to run rather than use a built-in style.
    rm "$tree/.clang-format"
    rc=0
    out="$(bash "$ROOT/scripts/check-format.sh" "$tree" 2>&1)" || rc=$?
    [ "$rc" -eq 2 ] || fail "no .clang-format gave exit $rc, not 2: $out"
    ;;
  *) fail "unknown check '$what'" ;;
esac
