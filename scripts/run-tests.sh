#!/usr/bin/env bash
# README command (2): set up, build and run the whole test suite with ctest.
# Extra arguments go to the cmake configure step (e.g. -DCLCPU_TSAN=ON).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh "$@"
BUILD_DIR=${CLCPU_BUILD_DIR:-build}
ctest --test-dir "$BUILD_DIR" --output-on-failure -j2
echo
"$BUILD_DIR/tests/clcpu_unit_tests" "[entry-points-remaining]" -s | grep -E "^(Unimplemented|  cl)" || true
