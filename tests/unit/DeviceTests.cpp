// Unit tests for runtime/Device and runtime/Topology (OpenCL 3.0 API spec,
// 4.2 "Querying Devices" and 4.3 "Partitioning a Device").

#include "runtime/Device.h"
#include "runtime/Platform.h"
#include "runtime/Topology.h"

#include <catch2/catch.hpp>

using namespace clcpu;

TEST_CASE("Topology: the root device has one compute unit per allowed CPU",
          "[device]") {
  Device *D = Platform::get().devices().front();
  CHECK(D->computeUnits() == Topology::get().cpus().size());
  CHECK(Topology::get().totalMemory() > 0);
  CHECK(Topology::get().cacheLine() >= 16);
}

TEST_CASE("4.3: partition by counts covers exactly the requested cores",
          "[device]") {
  Device *D = Platform::get().devices().front();
  if (D->computeUnits() < 2) {
    WARN("needs 2 compute units");
    return;
  }
  cl_device_partition_property Props[] = {
      CL_DEVICE_PARTITION_BY_COUNTS, 1, 1,
      CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  std::vector<Device *> Subs;
  REQUIRE(D->partition(Props, Subs) == CL_SUCCESS);
  REQUIRE(Subs.size() == 2);
  CHECK(Subs[0]->cpus() != Subs[1]->cpus());
  CHECK(Subs[0]->parent() == D);
  for (Device *S : Subs)
    S->releaseDevice();
}

TEST_CASE("4.3: affinity-domain groups partition the device's CPUs",
          "[device]") {
  Device *D = Platform::get().devices().front();
  for (cl_device_affinity_domain Dom :
       {CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE,
        CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
        CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE}) {
    auto Groups = Topology::get().groupsByDomain(D->cpus(), Dom);
    size_t Total = 0;
    for (auto &G : Groups)
      Total += G.size();
    if (!Groups.empty())
      CHECK(Total == D->cpus().size());
  }
}

TEST_CASE("Topology: a synthetic two-node machine groups its CPUs by node "
          "and places memory by the node rule",
          "[device][numa]") {
  std::unique_ptr<Topology> T =
      Topology::synthetic("package:1 numa:2 core:2 pu:1");
  REQUIRE(T);
  CHECK(T->cpus() == std::vector<unsigned>{0, 1, 2, 3});
  CHECK(T->numaNodes() == 2);
  auto Groups = T->groupsByDomain(T->cpus(), CL_DEVICE_AFFINITY_DOMAIN_NUMA);
  CHECK(Groups == std::vector<std::vector<unsigned>>{{0, 1}, {2, 3}});
  // A sub-device on one node: its buffers on that node.
  MemoryPlacement One = T->placementFor({2, 3});
  CHECK(One.Kind == MemoryPlacement::Bind);
  CHECK(One.Nodes == std::vector<unsigned>{1});
  // CPUs of both nodes (the root device, or one CPU of each): interleaved.
  for (const std::vector<unsigned> &Cpus :
       {std::vector<unsigned>{0, 1, 2, 3}, std::vector<unsigned>{1, 2}}) {
    MemoryPlacement Both = T->placementFor(Cpus);
    CHECK(Both.Kind == MemoryPlacement::Interleave);
    CHECK(Both.Nodes == std::vector<unsigned>{0, 1});
  }
  // Another machine's topology binds nothing, and says so.
  CHECK_FALSE(T->bindThread({0}));
  CHECK(T->quotaWorkers() == 0);
}

TEST_CASE("Topology: one NUMA node leaves pages to first touch",
          "[device][numa]") {
  std::unique_ptr<Topology> T = Topology::synthetic("package:2 core:2 pu:2");
  REQUIRE(T);
  CHECK(T->cpus().size() == 8);
  CHECK(T->numaNodes() == 1);
  CHECK(T->placementFor(T->cpus()).Kind == MemoryPlacement::FirstTouch);
  CHECK(T->groupsByDomain(T->cpus(), CL_DEVICE_AFFINITY_DOMAIN_NUMA).size() <=
        1);
}

TEST_CASE("Topology: hwloc rejects a malformed synthetic description",
          "[device][numa]") {
  CHECK_FALSE(Topology::synthetic("numa:two"));
}
