#!/usr/bin/env bash
# README command (1): set up, build the driver and the examples (not the
# test suite), make the Debian package and install it (it registers the
# driver with the system ICD loader), then run real OpenCL programs through
# that loader and show what they print.
set -euo pipefail
cd "$(dirname "$0")/.."
EXAMPLES="saxpy scan compact radix_sort segmented_scan matmul image_resize"
CLCPU_BUILD_TARGETS="clcpu $EXAMPLES" ./scripts/build.sh
BUILD_DIR=${CLCPU_BUILD_DIR:-build}
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
rm -f "$BUILD_DIR"/clcpu_*.deb
(cd "$BUILD_DIR" && cpack -G DEB)
$SUDO apt-get install -y "$(realpath "$BUILD_DIR"/clcpu_*.deb)"

echo
echo "== clinfo -l (system ICD loader, every registered platform) =="
clinfo -l
echo
echo "== clinfo, the installed clcpu.icd alone (system loader) =="
OCL_ICD_VENDORS=/etc/OpenCL/vendors/clcpu.icd clinfo

echo
echo "== examples, through the system ICD loader =="
for EXAMPLE in $EXAMPLES; do
  echo
  "$BUILD_DIR/examples/$EXAMPLE/$EXAMPLE"
done
