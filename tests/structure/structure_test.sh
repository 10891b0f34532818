#!/usr/bin/env bash
# The structure checks, as ctest runs them (tests/structure/CMakeLists.txt):
#   layers ROOT        the tree follows docs/architecture.md's layers
#   back-edge ROOT     a tree with one include against the layers is refused, naming it
#   checklist ROOT     adding a collective or dropping a traits row breaks the build where
#                      docs/architecture.md says it does
#   no-default ROOT    no switch over a project enum has a default:, and a tree with one
#                      injected (over DataType) is refused, naming it, while a default over a
#                      standard library enum next to it is let through
set -euo pipefail
what="$1"
ROOT="$2"
fail() { echo "structure_test: $*" >&2; exit 1; }

case "$what" in
  layers)
    bash "$ROOT/scripts/check-layers.sh" "$ROOT"
    ;;
  back-edge)
    tree="$(mktemp -d)"
    trap 'rm -rf "$tree"' EXIT
    mkdir -p "$tree/docs" "$tree/common" "$tree/bench/engine" "$tree/topo" "$tree/bench/cli/commands" \
             "$tree/bench/cli/wiring"
    cp "$ROOT/docs/architecture.md" "$tree/docs/"
    printf '#pragma once\n' > "$tree/bench/engine/runner.hpp"
    printf '#pragma once\n#include "common/status.hpp"\n' > "$tree/topo/fine.hpp"
    printf '#pragma once\n#include <mpi.h>\n' > "$tree/topo/vendor.hpp"
    printf '#pragma once\n#include "bench/engine/runner.hpp"\n' > "$tree/common/back_edge.hpp"
    # Within the CLI: the wiring is below the commands.
    printf '#pragma once\n' > "$tree/bench/cli/commands/run_command.hpp"
    printf '#pragma once\n#include "bench/cli/commands/run_command.hpp"\n' > "$tree/bench/cli/wiring/session.hpp"
    if out="$(bash "$ROOT/scripts/check-layers.sh" "$tree" 2>&1)"; then fail "a back edge passed: $out"; fi
    grep -q 'common/back_edge.hpp:2: common may not include bench/engine' <<< "$out" || fail "not named: $out"
    grep -q 'bench/cli/wiring/session.hpp:2: bench/cli/wiring may not include bench/cli/commands' <<< "$out" ||
      fail "CLI back edge not named: $out"
    grep -q 'topo/vendor.hpp:2: vendor header <mpi.h> outside its adapters' <<< "$out" || fail "vendor not named: $out"
    if grep -q 'topo/fine.hpp' <<< "$out"; then fail "an allowed include was refused: $out"; fi
    echo "$out"
    ;;
  checklist)
    out="$(bash "$ROOT/scripts/collective-checklist.sh" kProbe)" || fail "adding a collective broke nothing"
    echo "$out"
    for place in "bench/coll/collective.cpp:.*static assertion" "bench/backend/mpi/mpi_communicator.cpp:.*kProbe" \
                 "bench/backend/bootstrap_communicator.cpp:.*kProbe" "tests/unit/coll/collective_test.cpp:.*kProbe"; do
      grep -qE "$place" <<< "$out" || fail "not named: $place"
    done
    out="$(bash "$ROOT/scripts/collective-checklist.sh" --drop-row kAllToAllV)" || fail "dropping a traits row broke nothing"
    echo "$out"
    grep -qE "bench/coll/collective.cpp:.*static assertion" <<< "$out" || fail "the table's static_assert did not fire"
    ;;
  no-default)
    bash "$ROOT/scripts/check-no-default.sh" || fail "the tree has a default: over a project enum"
    # --inject appends three lines to common/types.cpp: an include, the default over DataType,
    # the default over std::float_round_style.
    line=$(( $(wc -l < "$ROOT/common/types.cpp") + 2 ))
    if out="$(bash "$ROOT/scripts/check-no-default.sh" --inject 2>&1)"; then fail "an injected default passed: $out"; fi
    echo "$out"
    grep -qE "^  common/types.cpp:$line\$" <<< "$out" || fail "the default over DataType not named at common/types.cpp:$line"
    if grep -q "common/types.cpp:$((line + 1))" <<< "$out"; then fail "a default over a standard enum was refused"; fi
    ;;
  *) fail "unknown check '$what'" ;;
esac
