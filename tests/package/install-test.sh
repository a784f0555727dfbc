#!/bin/sh
# The Debian package installs, runs and removes like any OpenCL driver
# (cmake/Package.cmake): apt-get installs it, clinfo -l lists clcpu through
# the system loader, an example program runs on it with Clang's development
# files out of reach, apt-get remove takes the library and the .icd file
# away and clinfo -l no longer lists it.
#
# Usage: install-test.sh BUILD_DIR EXAMPLE_PROGRAM
# Needs root and a machine where clcpu is not installed already (it would
# be removed at the end); otherwise it reports why and is skipped (77).
set -eu
BUILD=$1
EXAMPLE=$2
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "installing a package needs root"
command -v apt-get >/dev/null || skip "no apt-get"
installed() { dpkg-query -W -f='${Status}' clcpu 2>/dev/null | grep -q "ok installed"; }
if installed || [ -e /etc/OpenCL/vendors/clcpu.icd ]; then
  skip "clcpu is installed on this machine already (cmake --install or the package)"
fi
unset OCL_ICD_VENDORS

DEB=$(ls "$BUILD"/clcpu_*.deb 2>/dev/null | head -n 1)
[ -n "$DEB" ] || { echo "FAIL: no clcpu_*.deb in $BUILD (package_build)"; exit 1; }
echo "== $DEB"
dpkg-deb --info "$DEB" | sed -n '/Package:/,$p'
dpkg-deb --contents "$DEB"

echo "== clinfo -l before"
clinfo -l
if clinfo -l | grep -q clcpu; then echo "FAIL: clcpu listed before"; exit 1; fi

cleanup() { apt-get purge -y clcpu >/dev/null 2>&1 || true; }
trap cleanup EXIT
# Every dependency is on the machine already (the build needs them).
apt-get install -y "$(realpath "$DEB")"

LIB=$(dpkg -L clcpu | grep '/libclcpu\.so\.[0-9]*$')
echo "== installed: $LIB -> $(readlink -f "$LIB"); /etc/OpenCL/vendors/clcpu.icd: $(cat /etc/OpenCL/vendors/clcpu.icd)"
if ldd "$LIB" | grep -F "$(realpath "$BUILD")"; then
  echo "FAIL: the installed driver links into the build tree"; exit 1
fi

echo "== clinfo -l installed"
clinfo -l
clinfo -l | grep -q "Platform #.*: clcpu" || { echo "FAIL: clcpu not listed"; exit 1; }

# The example through the system loader, with a fresh kernel cache (the
# program is compiled, not loaded). Where a private mount namespace is
# allowed, Clang's resource directory and the build tree are hidden first:
# the installed driver must need neither.
CACHE=$(mktemp -d)
RUN="CLCPU_CACHE_DIR=$CACHE \"$EXAMPLE\""
if unshare -m sh -c 'mount -t tmpfs none /usr/lib/llvm-19/lib/clang' 2>/dev/null; then
  echo "== example, with /usr/lib/llvm-19/lib/clang and $BUILD hidden"
  COPY=$(mktemp -d)
  cp "$EXAMPLE" "$COPY/"
  unshare -m sh -c "mount -t tmpfs none /usr/lib/llvm-19/lib/clang &&
    mount -t tmpfs none \"$(realpath "$BUILD")\" &&
    CLCPU_CACHE_DIR=$CACHE \"$COPY/$(basename "$EXAMPLE")\""
  rm -rf "$COPY"
else
  echo "== example (no private mount namespace here: Clang's files stay visible)"
  CLCPU_CACHE_DIR=$CACHE "$EXAMPLE"
fi
rm -rf "$CACHE"

echo "== apt-get remove clcpu"
apt-get remove -y clcpu
trap - EXIT
for F in "$LIB" /etc/OpenCL/vendors/clcpu.icd; do
  if [ -e "$F" ]; then echo "FAIL: $F left behind"; exit 1; fi
done
echo "== clinfo -l after removal"
clinfo -l
if clinfo -l | grep -q clcpu; then echo "FAIL: clcpu still listed"; exit 1; fi
# What remove leaves to purge (the package's record): nothing of it stays.
dpkg --purge clcpu >/dev/null
echo "PASS"
