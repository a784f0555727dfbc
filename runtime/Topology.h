#ifndef CLCPU_RUNTIME_TOPOLOGY_H
#define CLCPU_RUNTIME_TOPOLOGY_H

#include <CL/cl.h>

#include <cstdint>
#include <string>
#include <vector>

namespace clcpu {

/// What the device reports about the machine, read once from hwloc and the
/// CPU's feature flags.
class Topology {
public:
  /// The machine this process runs on (lazy singleton, thread-safe).
  static const Topology &get();

  /// OS indices of the processing units this process may run on.
  const std::vector<unsigned> &cpus() const { return Cpus; }
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

  ~Topology();

private:
  Topology();
  void *Hwloc = nullptr; // hwloc_topology_t
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
