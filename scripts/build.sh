#!/usr/bin/env bash
# Set up, configure and build clcpu into ./build (or $CLCPU_BUILD_DIR).
# Extra arguments go to cmake's configure step (e.g. -DCLCPU_TSAN=ON);
# CLCPU_BUILD_TARGETS names the targets to build (default: all).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
BUILD_DIR=${CLCPU_BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
# CLCPU_BUILD_TARGETS (space-separated) builds only those targets.
# shellcheck disable=SC2086
cmake --build "$BUILD_DIR" -j2 ${CLCPU_BUILD_TARGETS:+--target $CLCPU_BUILD_TARGETS}
