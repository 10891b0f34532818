#!/usr/bin/env bash
# Shows what adding a collective takes: adds one to a scratch copy of the tree's collective list
# (bench/coll/collectives.def) and compiles, with this build's own flags, the table and every
# file that switches over collectives; prints each place the compiler then refuses (the traits
# table's static_assert, each switch without the new case). Exits 0 when the compiler named at
# least one place, 1 when it named none (the checklist would then be silent: a defect).
# With --drop-row kName it removes that collective's traits row instead (the list unchanged),
# which the table's static_assert must refuse.
#
#   scripts/collective-checklist.sh [kName]             (after a build: it reads compile_commands.json)
#   scripts/collective-checklist.sh --drop-row kAllToAllV
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${COLLBENCH_BUILD_DIR:-$ROOT/build}"
DROP=""
if [ "${1:-}" = "--drop-row" ]; then DROP="${2:?--drop-row needs a collective, e.g. kAllToAllV}"; fi
NAME="${1:-kProbe}"
DB="$BUILD/compile_commands.json"
[ -f "$DB" ] || { echo "collective-checklist: $DB not found: build first (scripts/test.sh)" >&2; exit 2; }

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
(cd "$ROOT" && git ls-files -z | xargs -0 cp --parents -t "$scratch")
mkdir -p "$scratch/build"
cp -r "$BUILD/generated" "$scratch/build/generated"
if [ -n "$DROP" ]; then
  NAME="$DROP"
  /usr/bin/python3 - "$scratch/bench/coll/collective.cpp" "$DROP" <<'PY'
import re, sys
path, name = sys.argv[1], sys.argv[2]
text = open(path).read()
row = re.compile(r"    T\{\.collective = " + re.escape(name) + r",.*?\},\n", re.S)
if not row.search(text):
    sys.exit("collective-checklist: no traits row for " + name)
open(path, "w").write(row.sub("", text, count=1))
PY
else
  echo "COLLBENCH_COLLECTIVE($NAME, probe_collective)" >> "$scratch/bench/coll/collectives.def"
fi

# The table, and the files with a switch over the collective enum.
mapfile -t files < <(cd "$scratch" && { echo bench/coll/collective.cpp;
  grep -rlE 'case (coll::)?Collective::' --include='*.cpp' bench tests | sort; } | awk '!seen[$0]++')

# Each file's compile command from this build, pointed at the scratch tree, checking syntax only.
commands="$(PYTHONPATH="$ROOT/scripts" PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 - "$DB" "$ROOT" "$BUILD" "$scratch" "${files[@]}" <<'PY'
import json, shlex, sys
from scratch_command import scratch_command
db, root, build, scratch, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
by_file = {e["file"]: e for e in json.load(open(db))}
for f in files:
    e = by_file.get(root + "/" + f)
    if e is None:
        continue  # not built here (an adapter this build lacks)
    out = scratch_command(e, root, build, scratch)
    # -Werror=switch: a build without COLLBENCH_WERROR still names every switch.
    print(f + "\t" + " ".join(shlex.quote(a) for a in out + ["-Werror=switch", "-fsyntax-only"]))
PY
)"

what="adding $NAME"
[ -n "$DROP" ] && what="dropping the traits row of $NAME"
found=0
while IFS=$'\t' read -r file command; do
  [ -n "$file" ] || continue
  errors="$(cd "$scratch" && bash -c "$command" 2>&1 | grep -E 'error: ' | sed "s|$scratch/||g" || true)"
  if [ -n "$errors" ]; then
    found=$((found + 1))
    echo "$file:"
    echo "$errors" | sed 's/^/  /' | sort -u
  fi
done <<< "$commands"

if [ "$found" -eq 0 ]; then
  echo "collective-checklist: $what broke nothing: the compiler no longer guides the change" >&2
  exit 1
fi
echo "collective-checklist: $found file(s) name what $what breaks (docs/architecture.md, Adding a collective)"
