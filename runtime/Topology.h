#ifndef CLCPU_RUNTIME_TOPOLOGY_H
#define CLCPU_RUNTIME_TOPOLOGY_H

#include <CL/cl.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clcpu {

/// Where the pages of a buffer go on a machine with several NUMA nodes.
struct MemoryPlacement {
  enum Policy {
    FirstTouch, // the kernel's default: one node, or nothing to choose
    Bind,       // every page on the one node of the device's CPUs
    Interleave, // pages spread round-robin over the device's nodes
  } Kind = FirstTouch;
  /// OS indices of the NUMA nodes (Bind: one; Interleave: several).
  std::vector<unsigned> Nodes;
};

/// What the device reports about the machine, read once from hwloc and the
/// CPU's feature flags.
///
/// hwloc also reads a topology other than this machine's when
/// HWLOC_SYNTHETIC or HWLOC_XMLFILE is set: the devices then take that
/// topology's CPUs and domains, and nothing is bound.
class Topology {
public:
  /// The machine this process runs on (lazy singleton, thread-safe).
  static const Topology &get();
  /// A topology described by hwloc's synthetic syntax ("package:1 numa:2
  /// core:2 pu:1"), for tests of the multi-node logic; null if hwloc
  /// rejects the description.
  static std::unique_ptr<Topology> synthetic(const std::string &Description);

  /// OS indices of the processing units this process may run on: hwloc's
  /// allowed CPUs (cgroup cpusets) that are also in the process's affinity
  /// mask (taskset, numactl, an MPI launcher's binding) when the driver
  /// loads. Never empty.
  const std::vector<unsigned> &cpus() const { return Cpus; }
  /// The most worker threads the process's CPU quota pays for (cgroup
  /// cpu.max, rounded up, at least 1); 0 when no quota applies.
  unsigned quotaWorkers() const { return QuotaWorkers; }
  /// NUMA nodes of the machine (1 if hwloc reports none).
  unsigned numaNodes() const;
  std::string cpuModel() const { return CpuModel; }
  std::string cpuVendor() const { return CpuVendor; }
  cl_uint maxClockMHz() const { return ClockMHz; }
  std::uint64_t totalMemory() const { return TotalMemory; }
  /// Size and line size of the data cache at \p Level (1-4); 0 if absent.
  std::uint64_t cacheSize(unsigned Level) const;
  unsigned cacheLine() const { return CacheLine; }

  /// Groups of \p Cpus that share one object of the given affinity domain
  /// (CL_DEVICE_AFFINITY_DOMAIN_NUMA, _L4_CACHE ... _L1_CACHE). Empty when
  /// the machine has no such object.
  std::vector<std::vector<unsigned>>
  groupsByDomain(const std::vector<unsigned> &Cpus,
                 cl_device_affinity_domain Domain) const;

  /// Pins the calling thread to \p Cpus. Returns false if hwloc refused.
  bool bindThread(const std::vector<unsigned> &Cpus) const;

  /// Where buffers used by devices made of \p Cpus should live. The rule:
  /// CPUs all on one node of a multi-node machine (a sub-device by
  /// CL_DEVICE_AFFINITY_DOMAIN_NUMA) bind the pages to that node; CPUs on
  /// several nodes interleave the pages over those nodes, since the
  /// work-groups that touch a page may run on any of them (the host
  /// thread's first touch would put every page on its own node); one node
  /// leaves the kernel's first touch.
  MemoryPlacement placementFor(const std::vector<unsigned> &Cpus) const;
  /// Applies \p P to the pages of [\p Addr, \p Addr + \p Bytes), which must
  /// be page-aligned and not yet touched. Returns false if the kernel
  /// refused (the pages then follow first touch).
  bool place(void *Addr, size_t Bytes, const MemoryPlacement &P) const;

  ~Topology();

private:
  explicit Topology(const char *Synthetic);
  void readCpus();
  void readMachine();
  void *Hwloc = nullptr; // hwloc_topology_t
  bool ThisSystem = false;
  unsigned QuotaWorkers = 0;
  std::vector<unsigned> Cpus;
  std::string CpuModel, CpuVendor;
  cl_uint ClockMHz = 0;
  std::uint64_t TotalMemory = 0;
  std::uint64_t Caches[5] = {};
  unsigned CacheLine = 64;
};

/// Vector ISA of the host CPU, detected at run time.
enum class VectorIsa { Sse2, Sse42, Avx, Avx2, Avx512 };
VectorIsa hostVectorIsa();
/// Bytes in one SIMD register of \p Isa (16, 32 or 64).
unsigned vectorBytes(VectorIsa Isa);
const char *isaName(VectorIsa Isa);
/// The sub-group size (cl_khr_subgroups): 32-bit lanes of the host's SIMD
/// registers (16 with AVX-512, 8 with AVX/AVX2, 4 with SSE), as the
/// compiler folds it into the kernels (compiler::hostSubGroupSize).
unsigned subGroupSize();

} // namespace clcpu

#endif
