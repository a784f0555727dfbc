#!/usr/bin/env bash
# README command (1): set up, build, register the driver with the system ICD
# loader (/etc/OpenCL/vendors/clcpu.icd), then run real OpenCL programs
# through that loader and show what they print.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
BUILD_DIR=${CLCPU_BUILD_DIR:-build}
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO cmake --install "$BUILD_DIR" --prefix /usr/local
$SUDO ldconfig || true

echo
echo "== clinfo -l (system ICD loader, every registered platform) =="
clinfo -l
echo
echo "== clinfo, the installed clcpu.icd alone (system loader) =="
OCL_ICD_VENDORS=/etc/OpenCL/vendors/clcpu.icd clinfo

echo
echo "== examples, through the system ICD loader =="
"$BUILD_DIR/examples/saxpy/saxpy"
for EXAMPLE in scan compact radix_sort segmented_scan matmul; do
  echo
  "$BUILD_DIR/examples/$EXAMPLE/$EXAMPLE"
done
