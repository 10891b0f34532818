#!/usr/bin/env bash
# Package.install: `cmake --install` into a scratch prefix, then the installed tool alone: it
# runs, its result file validates, nccl-tests' names and the published references work, and
# it holds no path of the source or build tree (the schemas and references are compiled in).
#   install_test.sh BUILD_DIR SOURCE_DIR
# Exit 0 when the install tree is complete and works; 1: the first problem, in one line.
set -euo pipefail
build="$1" source="$2"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
fail() { echo "install: $*" >&2; exit 1; }
prefix="$scratch/prefix"

cmake --install "$build" --prefix "$prefix" >"$scratch/install.log" 2>&1 ||
  fail "cmake --install failed: $(tail -1 "$scratch/install.log")"
bin="$prefix/bin/collbench"
[ -x "$bin" ] || fail "no bin/collbench"
for schema in "$source"/report/documents/schema/*.schema.json; do
  cmp -s "$schema" "$prefix/share/collbench/schema/$(basename "$schema")" ||
    fail "share/collbench/schema/$(basename "$schema") differs from the source"
done
for f in share/man/man1/collbench.1.gz share/bash-completion/completions/collbench share/doc/collbench/README.md \
         share/doc/collbench/copyright share/doc/collbench/changelog.Debian.gz share/doc/collbench/docs/packaging.md; do
  [ -s "$prefix/$f" ] || fail "$f is missing"
done
while read -r name; do
  [ "$(readlink "$prefix/bin/$name")" = collbench ] || fail "bin/$name is not a link to collbench"
  [ -e "$prefix/share/man/man1/$name.1.gz" ] || fail "no man page link for $name"
done < <(sed -n 's/^COLLBENCH_COLLECTIVE([ ]*[A-Za-z0-9]*,[ ]*\([a-z_0-9]*\)).*/\1_perf/p' "$source/bench/coll/collectives.def")

# The tool works from the prefix, from a folder outside both trees.
cd "$scratch"
"$bin" --version >/dev/null || fail "collbench --version failed"
"$bin" run -b 8 -e 1K --no-progress -J run.json >run.log 2>&1 || fail "collbench run failed: $(tail -1 run.log)"
"$bin" validate run.json >validate.log 2>&1 || fail "collbench validate run.json failed: $(tail -1 validate.log)"
"$prefix/bin/all_reduce_perf" -b 8 -e 64 >perf.log 2>&1 || fail "all_reduce_perf failed: $(tail -1 perf.log)"
grep -q "all_reduce" run.json || fail "run.json names no all_reduce"
# The published references: a name that is not one lists those compiled in.
set +e
"$bin" run -b 8 -e 8 --expect no-such-system >expect.log 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "--expect no-such-system exited $rc, not 2 (bad usage)"
grep -q "h200-8x" expect.log || fail "--expect no-such-system does not list the published references: $(head -1 expect.log)"
for f in "$bin" "$prefix/share/man/man1/collbench.1.gz"; do
  ! grep -qF "$source" "$f" || fail "$f names the source tree $source"
  ! grep -qF "$build" "$f" || fail "$f names the build tree $build"
done

# Where NCCL is built: bin/collbench is the host build, collbench-cuda the NCCL one.
if [ -e "$prefix/bin/collbench-cuda" ]; then
  ! ldd "$bin" | grep -q "libnccl" || fail "bin/collbench (the host build) links NCCL"
  "$prefix/bin/collbench-cuda" --help | grep -q "backends: nccl" || fail "collbench-cuda has no NCCL backend"
  [ "$(readlink "$prefix/libexec/collbench-cuda/all_reduce_perf")" = collbench ] ||
    fail "libexec/collbench-cuda/all_reduce_perf is not a link to its collbench"
fi
echo "install: the tree under a scratch prefix is complete; run, validate, all_reduce_perf and --expect work there"
