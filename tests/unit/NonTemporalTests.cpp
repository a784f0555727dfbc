// compiler/passes/NonTemporalStores.cpp: the size above which a launch's
// stores may become non-temporal. Which stores of a work-group function do,
// behind what check, and where an sfence orders them, is checked on the IR
// in tests/lit/kernels/streaming_stores*.cl.

#include "compiler/Compiler.h"

#include <catch2/catch.hpp>

#include <cstdint>

using namespace clcpu::compiler;

TEST_CASE("5.10, #6 (a VM shown its host's 300 MiB L3): the streaming "
          "threshold counts at most 12 MiB of last-level cache per CPU",
          "[compiler]") {
  constexpr uint64_t MiB = uint64_t(1) << 20;
  CHECK(countCpuList("0-1") == 2);
  CHECK(countCpuList("0") == 1);
  CHECK(countCpuList("0-3,8,10-11") == 7);
  CHECK(countCpuList("") == 0);
  CHECK(countCpuList("x") == 0);
  CHECK(countCpuList("3-1") == 0);
  // A VM shown its host's 300 MiB, shared by CPUs 0-1.
  CHECK(streamingThreshold(300 * MiB, 2) == 24 * MiB);
  // A desktop part and a server CCX keep their whole cache.
  CHECK(streamingThreshold(32 * MiB, 16) == 32 * MiB);
  CHECK(streamingThreshold(96 * MiB, 8) == 96 * MiB);
  // Unknown sharing: the size as reported; unknown size: 8 MiB.
  CHECK(streamingThreshold(300 * MiB, 0) == 300 * MiB);
  CHECK(streamingThreshold(0, 2) == 8 * MiB);
  // The process-wide value is one of these.
  CHECK(streamingStoreMinBytes() > 0);
}
