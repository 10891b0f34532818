#!/usr/bin/env bash
# The layering check: every #include "..." of the project's code must follow the allow-list in
# docs/architecture.md (the ```layers block), and vendor headers (hwloc, MPI, NCCL, CUDA,
# Slurm) may appear only in the adapters it names. Prints one line per violation and exits 1;
# exits 0 when the tree keeps to the list.
#
#   scripts/check-layers.sh [ROOT]     (ROOT: a checkout; default: this one)
#
# The block's lines, in docs/architecture.md:
#   module  PATH  may  MODULE...    files under PATH (longest matching PATH wins) may include
#                                   their own module's headers and those of the MODULEs named
#   vendor  HEADER-PREFIX  in  PATH...   <HEADER-PREFIX...> only in files under these PATHs
set -euo pipefail
ROOT="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
DOC="$ROOT/docs/architecture.md"
[ -f "$DOC" ] || { echo "check-layers: $DOC not found" >&2; exit 2; }

# The allow-list, as "module PATH MODULE..." and "vendor HEADER PATH..." lines.
rules=$(awk '/^```layers/{on=1; next} /^```/{on=0} on && NF && $1 !~ /^#/' "$DOC")
[ -n "$rules" ] || { echo "check-layers: no \`\`\`layers block in $DOC" >&2; exit 2; }

cd "$ROOT"
mapfile -t files < <(git ls-files -- '*.cpp' '*.hpp' '*.cu' '*.h' 2>/dev/null || true)
if [ "${#files[@]}" -eq 0 ]; then  # not a git checkout (a test's scratch tree)
  mapfile -t files < <(find . -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' -o -name '*.h' \) \
                         -not -path './build*' | sed 's|^\./||' | sort)
fi

printf '%s\n' "${files[@]}" | awk -v rules="$rules" '
  BEGIN {
    n = split(rules, lines, "\n")
    for (i = 1; i <= n; i++) {
      k = split(lines[i], f, /[ \t]+/)
      if (f[1] == "module") {
        path[++modules] = f[2]
        for (j = 4; j <= k; j++) allowed[f[2], f[j]] = 1   # "*": any module (the wiring)
        allowed[f[2], f[2]] = 1
      } else if (f[1] == "vendor") {
        vendor[++vendors] = f[2]
        for (j = 4; j <= k; j++) vendor_in[f[2], f[j]] = 1
        vendor_places[f[2]] = k - 3
      }
    }
  }
  # The module a repository path belongs to: the longest matching module path, or "".
  function module_of(p,    i, best) {
    best = ""
    for (i = 1; i <= modules; i++) {
      if ((p == path[i] || index(p, path[i] "/") == 1) && length(path[i]) > length(best)) best = path[i]
    }
    return best
  }
  function under(p, prefix) { return p == prefix || index(p, prefix "/") == 1 }
  {
    file = $0
    from = module_of(file)
    line = 0
    while ((getline text < file) > 0) {
      line++
      if (text ~ /^[ \t]*#[ \t]*include[ \t]*"/) {
        inc = text
        sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
        to = module_of(inc)
        if (from == "" || to == "") continue        # not project code, or a generated header
        if (!((from, to) in allowed) && !((from, "*") in allowed)) {
          printf "%s:%d: %s may not include %s (\"%s\"): not in docs/architecture.md\047s layers\n", file, line, from, to, inc
          bad++
        }
      } else if (from != "" && text ~ /^[ \t]*#[ \t]*include[ \t]*</) {
        inc = text
        sub(/^[^<]*</, "", inc); sub(/>.*$/, "", inc)
        for (v = 1; v <= vendors; v++) {
          if (index(inc, vendor[v]) != 1) continue
          ok = 0
          for (key in vendor_in) {
            split(key, pair, SUBSEP)
            if (pair[1] == vendor[v] && under(file, pair[2])) ok = 1
          }
          if (!ok) {
            printf "%s:%d: vendor header <%s> outside its adapters (docs/architecture.md)\n", file, line, inc
            bad++
          }
        }
      }
    }
    close(file)
  }
  END {
    if (bad) { printf "check-layers: %d include(s) break the layering\n", bad > "/dev/stderr"; exit 1 }
  }'
