#!/usr/bin/env bash
# Set up, configure and build clcpu into ./build (or $CLCPU_BUILD_DIR).
# Extra arguments go to cmake's configure step (e.g. -DCLCPU_TSAN=ON).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
BUILD_DIR=${CLCPU_BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
cmake --build "$BUILD_DIR" -j2
