#!/usr/bin/env bash
# The Debian package, tested as a user installs it: builds the .deb from the test build
# (build/, made by scripts/test.sh; nothing is rebuilt that is up to date), runs lintian on it,
# makes a clean Debian 12 root with debootstrap from the mirror apt uses here, installs the
# package there with `apt-get install ./collbench_*.deb` (apt resolves its dependencies), and
# inside (chroot, in its own mount and PID namespace) runs:
#   collbench --version; mpirun -np 2 collbench preflight; collbench run -b 8 -e 1M -J r.json;
#   collbench validate r.json; collbench topo; man collbench; the completion of `collbench ru`
# then `apt-get remove collbench` and `dpkg --purge collbench`, after which none of the
# package's paths may remain.
#
#   scripts/test-package.sh
#
# The debootstrap root is cached as a tarball per mirror and ISO week in
# COLLBENCH_PACKAGE_CACHE (default /var/cache/collbench-test-package), with the .debs apt
# downloads into it, so that a second run neither bootstraps nor downloads again.
# Exit status: 0 when every step passed; 1 with a one-line reason when one failed; 77 when it
# cannot run here (not root, no debootstrap, unshare or chroot, no network to the mirror).
# Timings: docs/packaging.md.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"  # ROOT_DIR, BUILD_DIR, configure_and_build

CACHE="${COLLBENCH_PACKAGE_CACHE:-/var/cache/collbench-test-package}"
WORK="$BUILD_DIR/package-test"
LOG="$BUILD_DIR/package-test.log"  # what ran in the root, kept after the root is removed
SUITE=bookworm
start=$SECONDS

fail() { echo "test-package: FAIL: $*" >&2; exit 1; }
skip() { echo "test-package: SKIP: $*" >&2; exit 77; }
step() { echo "test-package: [$((SECONDS - start)) s] $*" >&2; }

[ "$(id -u)" -eq 0 ] || skip "needs root (debootstrap, chroot, namespaces)"
for tool in unshare chroot cpack; do command -v "$tool" >/dev/null || skip "$tool not found"; done
if ! command -v debootstrap >/dev/null || ! command -v lintian >/dev/null; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap lintian >/dev/null; } 2>/dev/null ||
    skip "debootstrap and lintian are not installed and could not be (apt-get install debootstrap lintian)"
fi

# The mirror apt uses for bookworm: deb822 .sources first, then sources.list lines.
mirror_of_apt() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk -v suite="$SUITE" 'BEGIN { RS = ""; FS = "\n" }
      { uri = ""; ok = 0
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^URIs:/) { split($i, a, " "); uri = a[2] }
          if ($i ~ /^Suites:/) { n = split($i, s, " "); for (j = 2; j <= n; j++) if (s[j] == suite) ok = 1 }
        }
        if (ok && uri != "") { print uri; exit } }' "$f"
  done
  [ -f /etc/apt/sources.list ] && awk -v suite="$SUITE" '$1 == "deb" && $3 == suite { print $2; exit }' /etc/apt/sources.list
  return 0
}
MIRROR="${COLLBENCH_PACKAGE_MIRROR:-$(mirror_of_apt | head -n1)}"
[ -n "$MIRROR" ] || skip "no $SUITE mirror in /etc/apt/sources.list or /etc/apt/sources.list.d/*.sources"
host="$(sed -E 's#^[a-z]+://([^/:]+).*#\1#' <<<"$MIRROR")"
port=80
[[ "$MIRROR" == https://* ]] && port=443
timeout 10 bash -c "exec 3<>/dev/tcp/$host/$port" 2>/dev/null || skip "no network to the mirror $MIRROR"

# 1. The packages, from the test build.
step "building the package from $BUILD_DIR"
[ -f "$BUILD_DIR/CMakeCache.txt" ] || configure_and_build >/dev/null
# The packaged binaries: collbench_cli_docs builds the host one (cmake/CollbenchInstall.cmake).
# COLLBENCH_BUILD_LOCK: a lock file for a build folder that others build in too (flock).
lock=()
[ -n "${COLLBENCH_BUILD_LOCK:-}" ] && lock=(flock "$COLLBENCH_BUILD_LOCK")
"${lock[@]}" cmake --build "$BUILD_DIR" --target collbench collbench_cli_docs >"$BUILD_DIR/package-build.log" 2>&1 ||
  fail "building collbench and its man page failed (see $BUILD_DIR/package-build.log)"
rm -rf "$BUILD_DIR/packages"
cpack --config "$BUILD_DIR/CPackConfig.cmake" -B "$BUILD_DIR/packages" >"$BUILD_DIR/packages.log" 2>&1 ||
  fail "cpack failed: $(grep -m1 -i error "$BUILD_DIR/packages.log" || tail -1 "$BUILD_DIR/packages.log")"
debs=("$BUILD_DIR"/packages/*.deb)
host_debs=("$BUILD_DIR"/packages/collbench_*.deb)
deb="${host_debs[0]}"
[ -f "$deb" ] || fail "cpack wrote no collbench_*.deb"

# 2. lintian: errors fail; warnings are listed in docs/packaging.md.
step "lintian ${debs[*]##*/}"
lintian --pedantic "${debs[@]}" >"$BUILD_DIR/packages/lintian.txt" 2>&1 || true
if grep -q '^E: ' "$BUILD_DIR/packages/lintian.txt"; then
  fail "lintian: $(grep -m1 '^E: ' "$BUILD_DIR/packages/lintian.txt") (all: $BUILD_DIR/packages/lintian.txt)"
fi

# 3. The clean root: from the cache, or debootstrap (then cached).
mkdir -p "$CACHE/archives/partial"
key="$SUITE-minbase-$(tr -c 'A-Za-z0-9.\n' _ <<<"$host")-$(date +%G-W%V)"
tarball="$CACHE/$key.tar.gz"
root="$WORK/root"
if findmnt -rn -o TARGET | grep -q "^$WORK"; then fail "something is still mounted under $WORK"; fi
rm -rf "$WORK"
mkdir -p "$root"
if [ -f "$tarball" ]; then
  step "unpacking the cached root $tarball"
  tar -C "$root" -xzf "$tarball" || fail "could not unpack $tarball"
else
  step "debootstrap --variant=minbase $SUITE from $MIRROR (first run this week: minutes)"
  debootstrap --variant=minbase "$SUITE" "$root" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 ||
    fail "debootstrap failed: $(tail -1 "$WORK/debootstrap.log")"
  rm -f "$CACHE/$SUITE-minbase-$(tr -c 'A-Za-z0-9.\n' _ <<<"$host")"-*.tar.gz
  tar -C "$root" -czf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/tmp/collbench"
cp "$deb" "$root/tmp/collbench/"

# 4. Inside the root. Every mount is in this namespace only: none outlives the test.
cat >"$root/tmp/collbench/inside.sh" <<'INSIDE'
set -uo pipefail
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
fail() { echo "FAIL: $*"; exit 1; }
say() { echo "== $*"; }
cd /tmp/collbench
say "apt-get install ./$DEB"
apt-get update -qq >apt.log 2>&1 || fail "apt-get update in the root: $(tail -1 apt.log)"
apt-get install -y -qq --no-install-recommends man-db >>apt.log 2>&1 || fail "apt-get install man-db: $(tail -1 apt.log)"
apt-get install -y -qq "./$DEB" >>apt.log 2>&1 || fail "apt-get install ./$DEB: $(tail -1 apt.log)"
dpkg -L collbench >files.txt || fail "dpkg -L collbench"
say "collbench --version"
collbench --version || fail "collbench --version"
say "mpirun -np 2 collbench preflight"
mpirun --allow-run-as-root --oversubscribe -np 2 collbench preflight >preflight.log 2>&1 ||
  fail "mpirun -np 2 collbench preflight: $(tail -1 preflight.log)"
cat preflight.log
grep -q "OK" preflight.log || fail "preflight printed no OK: $(tail -1 preflight.log)"
say "collbench run -b 8 -e 1M -J r.json; collbench validate r.json"
collbench run -b 8 -e 1M -J r.json --no-progress >run.log 2>&1 || fail "collbench run: $(tail -1 run.log)"
tail -n 4 run.log
collbench validate r.json || fail "collbench validate r.json"
say "collbench topo"
collbench topo >topo.log 2>&1 || fail "collbench topo: $(tail -1 topo.log)"
head -n 8 topo.log
say "man collbench"
MANWIDTH=80 man collbench >man.txt 2>man.err || fail "man collbench: $(head -1 man.err)"
grep -q "preflight" man.txt || fail "man collbench does not mention preflight"
head -n 4 man.txt
say "collbench ru<TAB>"
reply="$(bash -c 'source /usr/share/bash-completion/completions/collbench; COMP_WORDS=(collbench ru); COMP_CWORD=1; _collbench; echo "${COMPREPLY[*]}"')"
[[ " $reply " == *" run "* ]] || fail "collbench ru<TAB> completed to '$reply', not run"
echo "COMPREPLY: $reply"
say "apt-get remove collbench; dpkg --purge collbench"
apt-get remove -y -qq collbench >>apt.log 2>&1 || fail "apt-get remove collbench: $(tail -1 apt.log)"
# apt knows a package installed from a file only while it is installed: dpkg purges.
dpkg --purge collbench >>apt.log 2>&1 || fail "dpkg --purge collbench: $(tail -1 apt.log)"
dpkg -s collbench >/dev/null 2>&1 && fail "collbench is still known to dpkg after purge"
left=()
while read -r path; do
  [ "$path" = /. ] && continue
  [ -e "$path" ] || [ -L "$path" ] || continue
  # A directory another package owns (/usr/bin, /usr/share/man/man1) stays.
  [ -d "$path" ] && [ ! -L "$path" ] && dpkg -S "$path" >/dev/null 2>&1 && continue
  left+=("$path")
done <files.txt
[ "${#left[@]}" -eq 0 ] || fail "left after purge: ${left[*]}"
echo "PASS: $(grep -c . files.txt) paths installed and removed"
INSIDE

step "installing and running in the root (chroot, own mount and PID namespace)"
set +e
# shellcheck disable=SC2016  # the inner script expands its own arguments
unshare --mount --pid --fork --propagation private bash -c '
  set -e
  root="$1"; archives="$2"
  mount -t proc proc "$root/proc"
  mount -t sysfs sysfs "$root/sys"
  mkdir -p "$root/dev/shm" && mount -t tmpfs tmpfs "$root/dev/shm"
  mount --bind "$archives" "$root/var/cache/apt/archives"
  DEB="$3" chroot "$root" /bin/bash /tmp/collbench/inside.sh' _ "$root" "$CACHE/archives" "$(basename "$deb")" \
  >"$LOG" 2>&1
rc=$?
set -e
sed 's/^/test-package:   /' "$LOG" | grep -E '^test-package:   (==|PASS|FAIL)' >&2 || true
if [ "$rc" -ne 0 ]; then
  fail "$(grep -m1 '^FAIL: ' "$LOG" | sed 's/^FAIL: //' || echo "the root exited $rc (see $LOG)")"
fi
grep -q '^PASS: ' "$LOG" || fail "the root ended without PASS (see $LOG)"
if findmnt -rn -o TARGET | grep -q "^$WORK"; then fail "a mount outlived the namespace under $WORK"; fi
rm -rf "$WORK"
echo "test-package: PASS in $((SECONDS - start)) s: ${debs[*]##*/}; lintian without errors; installed, run and purged in a clean $SUITE root" >&2
