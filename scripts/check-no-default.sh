#!/usr/bin/env bash
# Refuses a `default:` in any switch over one of the project's own enums (docs/architecture.md:
# every switch names each value, so the compiler's -Wswitch names every switch a new value
# must reach; a default would silently swallow it).
#
# How: the compiler decides, not a pattern match, so every project enum is covered without a
# list of names and the type of the switched value is the compiler's. In a scratch copy of
# the tree, every enum the project declares gets one more enumerator, kCollbenchNoDefaultProbe.
# A switch over a project enum then misses it; GCC reports that as [-Wswitch-enum] when the
# switch has a default and as [-Wswitch] when it has none, so a -Wswitch-enum report that
# names the probe is exactly a default over a project enum. Vendor and standard enums (MPI,
# NCCL, hwloc, std) never get the probe and never match. The files compiled (with this build's
# own commands, syntax only) are those that contain `default` before a colon, and for a
# header, one file of the build that includes it; the rest cannot hold such a switch.
# Not covered: `.cu` files (nvcc); they hold no switch today and share their headers with
# host files, which are compiled.
#
#   scripts/check-no-default.sh          (after a build: it reads compile_commands.json)
#   scripts/check-no-default.sh --inject (test only: first adds a default over DataType and one
#                                        over a standard enum to common/types.cpp's copy)
# Exit 0: none found; 1: found (each printed as FILE:LINE); 2: cannot check.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${COLLBENCH_BUILD_DIR:-$ROOT/build}"
INJECT="${1:-}"
DB="$BUILD/compile_commands.json"
[ -f "$DB" ] || { echo "check-no-default: $DB not found: build first (scripts/test.sh)" >&2; exit 2; }
PROBE=kCollbenchNoDefaultProbe

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
(cd "$ROOT" && git ls-files -z | xargs -0 cp --parents -t "$scratch")
mkdir -p "$scratch/build"
cp -r "$BUILD/generated" "$scratch/build/generated"

if [ "$INJECT" = "--inject" ]; then
  # One line each, so the test can name the line: a default over a project enum (refused) and
  # one over a standard library enum (not the project's: let through).
  { echo '#include <limits>'
    echo 'namespace collbench { int no_default_probe(DataType t) { switch (t) { case DataType::kInt8: return 1; default: return 0; } } }'
    echo 'namespace collbench { int std_enum_probe(std::float_round_style s) { switch (s) { case std::round_toward_zero: return 1; default: return 0; } } }'
  } >> "$scratch/common/types.cpp"
fi

# The probe into every enum the project declares; then the files to compile, with their
# commands from this build pointed at the scratch tree.
commands="$(PYTHONPATH="$ROOT/scripts" PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 - "$DB" "$ROOT" "$BUILD" "$scratch" "$PROBE" <<'PY'
import json, os, re, shlex, sys
from scratch_command import scratch_command
db, root, build, scratch, probe = sys.argv[1:6]
sources = []
for top in ("bench", "common", "report", "topo", "tests"):
    for d, _, names in os.walk(os.path.join(scratch, top)):
        sources += [os.path.join(d, n) for n in names if n.endswith((".hpp", ".h", ".cpp", ".cu", ".cuh", ".def"))]

enum_head = re.compile(r"\benum\s+(?:class\s+|struct\s+)?(?:\w+\s*)?(?::\s*[\w:\s]+?)?\{")
comment = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)

def with_probe(text):
    out, pos = [], 0
    for m in enum_head.finditer(text):
        if m.start() < pos:
            continue
        close = text.find("}", m.end())
        body = text[m.end():close]
        code = "\n".join(l for l in comment.sub("", body).splitlines() if not l.strip().startswith("#")).strip()
        # After a trailing comma, or in a list written by an #include of X-macros (collectives.def,
        # whose lines end in commas), no comma; after the last enumerator, one.
        sep = "" if code == "" or code.endswith(",") else ","
        out += [text[pos:close], "\n" + sep + " " + probe + "\n"]
        pos = close
    return "".join(out) + text[pos:]

has_default = re.compile(r"\bdefault\s*:(?!:)")
flagged = []
for path in sources:
    text = open(path, encoding="utf-8", errors="replace").read()
    changed = with_probe(text)
    if changed != text:
        open(path, "w", encoding="utf-8").write(changed)
    if has_default.search(comment.sub("", text)):
        flagged.append(os.path.relpath(path, scratch))

entries = {os.path.relpath(e["file"], root): e for e in json.load(open(db)) if e["file"].startswith(root + "/")}
compiled = {f: e for f, e in entries.items() if not f.endswith(".cu")}

def includers(header):
    name = re.compile(r'#include\s+"' + re.escape(header) + '"')
    return [f for f in sorted(compiled) if name.search(open(os.path.join(scratch, f), errors="replace").read())]

chosen = []
for f in flagged:
    if f in compiled:
        chosen.append(f)
    elif f.endswith((".hpp", ".h", ".cuh", ".def")):
        # Through the headers that include it, breadth first, to a file of the build.
        frontier, seen = [f], {f}
        while frontier and not any(c in compiled for c in frontier):
            nxt = []
            for h in frontier:
                for path in sources:
                    rel = os.path.relpath(path, scratch)
                    if rel not in seen and re.search(r'#include\s+"' + re.escape(h) + '"', open(path, errors="replace").read()):
                        seen.add(rel)
                        nxt.append(rel)
            frontier = nxt
        hits = [c for c in frontier if c in compiled]
        if hits:
            chosen.append(sorted(hits)[0])
        else:
            print("UNCHECKED\t" + f)
    elif not f.endswith(".cu"):
        print("UNCHECKED\t" + f)  # a source this build does not compile (an adapter it lacks)
for f in sorted(set(chosen)):
    e = compiled[f]
    out = scratch_command(e, root, build, scratch)
    # Warnings only (the probe breaks static_asserts over enum sizes; that is not our matter),
    # -Wswitch kept on so that a switch without default is reported under its own name.
    extra = ["-Wswitch", "-Wswitch-enum", "-Wno-error", "-fsyntax-only"]
    print(f + "\t" + " ".join(shlex.quote(a) for a in out + extra))
PY
)"

unchecked="$(grep '^UNCHECKED' <<< "$commands" | cut -f2 || true)"
commands="$(grep -v '^UNCHECKED' <<< "$commands" || true)"
if [ -z "$commands" ]; then
  echo "check-no-default: no file of this build writes default: (nothing to compile)"
  exit 0
fi
count="$(wc -l <<< "$commands")"

# Two compilers at a time; a refused switch is reported as FILE:LINE.
mkdir -p "$scratch/.commands"
n=0
while IFS=$'\t' read -r _ command; do
  n=$((n + 1))
  printf 'cd %q && LC_ALL=C %s 2>&1 || true\n' "$scratch" "$command" > "$scratch/.commands/$n.sh"
done <<< "$commands"
found="$(find "$scratch/.commands" -name '*.sh' -print0 | xargs -0 -P 2 -n 1 bash |
  grep -E "enumeration value '$PROBE' not handled in switch \[-Wswitch-enum\]" |
  sed -E "s|^$scratch/||; s|^([^:]+:[0-9]+):[0-9]+: warning: .*|\1|" | sort -u || true)"

if [ -n "$unchecked" ]; then
  echo "check-no-default: not compiled by this build, so not checked:" >&2
  sed 's/^/  /' <<< "$unchecked" >&2
fi
if [ -n "$found" ]; then
  echo "check-no-default: a default: in a switch over a project enum (name every value instead;" >&2
  echo "  a fallback for values outside the enum goes after the switch; docs/architecture.md):" >&2
  sed 's/^/  /' <<< "$found" >&2
  exit 1
fi
echo "check-no-default: no default: over a project enum ($count files compiled)"
