#include "runtime/Topology.h"
#include "compiler/Binary.h"
#include "runtime/CpuQuota.h"
#include "runtime/Error.h"

#include <hwloc.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <thread>
#include <unistd.h>

namespace clcpu {
namespace {

hwloc_topology_t topo(void *P) { return static_cast<hwloc_topology_t>(P); }

hwloc_obj_type_t domainType(cl_device_affinity_domain D) {
  switch (D) {
  case CL_DEVICE_AFFINITY_DOMAIN_NUMA:
    return HWLOC_OBJ_NUMANODE;
  case CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE:
    return HWLOC_OBJ_L4CACHE;
  case CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE:
    return HWLOC_OBJ_L3CACHE;
  case CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE:
    return HWLOC_OBJ_L2CACHE;
  case CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE:
    return HWLOC_OBJ_L1CACHE;
  default:
    return HWLOC_OBJ_TYPE_MAX;
  }
}

/// "model name" from /proc/cpuinfo; hwloc's CPUModel is the same string but
/// is absent on some virtual machines.
std::string procCpuinfo(const char *Key) {
  std::ifstream F("/proc/cpuinfo");
  std::string Line;
  while (std::getline(F, Line))
    if (Line.rfind(Key, 0) == 0) {
      auto Colon = Line.find(':');
      if (Colon != std::string::npos)
        return Line.substr(Line.find_first_not_of(" \t", Colon + 1));
    }
  return {};
}

/// "0-3,8" for log lines.
std::string cpuList(hwloc_const_bitmap_t Set) {
  char *Text = nullptr;
  if (hwloc_bitmap_list_asprintf(&Text, Set) < 0 || !Text)
    return "?";
  std::string S = Text;
  std::free(Text);
  return S;
}

} // namespace

const Topology &Topology::get() {
  // Never destroyed: TBB workers woken late (a kernel's helper tasks) may
  // still enter an arena, and bind themselves, while the process runs its
  // static destructors.
  static const Topology *T = new Topology(nullptr);
  return *T;
}

std::unique_ptr<Topology> Topology::synthetic(const std::string &Description) {
  std::unique_ptr<Topology> T(new Topology(Description.c_str()));
  if (!T->Hwloc)
    return nullptr;
  return T;
}

Topology::Topology(const char *Synthetic) {
  hwloc_topology_t T;
  if (hwloc_topology_init(&T) != 0)
    T = nullptr;
  else if ((Synthetic && hwloc_topology_set_synthetic(T, Synthetic) != 0) ||
           hwloc_topology_load(T) != 0) {
    hwloc_topology_destroy(T);
    T = nullptr;
  }
  if (!T) {
    if (Synthetic)
      return;
    logLine("hwloc could not read the topology; assuming a flat machine");
    unsigned N = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned I = 0; I < N; ++I)
      Cpus.push_back(I);
    TotalMemory = 1ull << 30;
    return;
  }
  Hwloc = T;
  ThisSystem = hwloc_topology_is_thissystem(T);
  readCpus();
  readMachine();
}

void Topology::readCpus() {
  hwloc_topology_t T = topo(Hwloc);
  // The PUs this process may use: hwloc's allowed set reflects cgroup
  // cpusets; the affinity mask (taskset, an MPI launcher's binding) is the
  // process's binding, the union of its threads' masks, so a host thread
  // that pinned itself to one core does not shrink the device.
  hwloc_bitmap_t Set = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(T));
  if (ThisSystem) {
    hwloc_bitmap_t Bound = hwloc_bitmap_alloc();
    if (hwloc_get_cpubind(T, Bound, HWLOC_CPUBIND_PROCESS) == 0) {
      hwloc_bitmap_t Both = hwloc_bitmap_alloc();
      hwloc_bitmap_and(Both, Set, Bound);
      if (hwloc_bitmap_iszero(Both))
        warnLine("the affinity mask (" + cpuList(Bound) +
                 ") holds none of the allowed CPUs (" + cpuList(Set) +
                 "); using the allowed CPUs");
      else
        std::swap(Set, Both);
      hwloc_bitmap_free(Both);
    }
    hwloc_bitmap_free(Bound);
  }
  if (hwloc_bitmap_iszero(Set)) {
    warnLine("hwloc reports no allowed CPU; using CPU 0");
    hwloc_bitmap_only(Set, 0);
  }
  unsigned Idx;
  hwloc_bitmap_foreach_begin(Idx, Set) Cpus.push_back(Idx);
  hwloc_bitmap_foreach_end();
  logLine("device CPUs: " + cpuList(Set));
  hwloc_bitmap_free(Set);

  if (!ThisSystem)
    return;
  if (std::optional<double> Limit = cgroupCpuLimit()) {
    // Workers beyond the quota would only be throttled in turn; rounding
    // up uses the fraction of a CPU left over.
    QuotaWorkers = static_cast<unsigned>(
        std::clamp(std::ceil(*Limit - 1e-9), 1.0, 65536.0));
    logLine("cgroup CPU quota: " + std::to_string(*Limit) + " CPUs, at most " +
            std::to_string(QuotaWorkers) + " workers");
  }
}

void Topology::readMachine() {
  hwloc_topology_t T = topo(Hwloc);
  for (hwloc_obj_t N =
           hwloc_get_next_obj_by_type(T, HWLOC_OBJ_NUMANODE, nullptr);
       N; N = hwloc_get_next_obj_by_type(T, HWLOC_OBJ_NUMANODE, N))
    TotalMemory += N->attr->numanode.local_memory;
  // Memory hot-plugged into a virtual machine can be missing from the NUMA
  // nodes' counts; the kernel's total is the floor.
  long Pages = sysconf(_SC_PHYS_PAGES), PageSize = sysconf(_SC_PAGESIZE);
  if (ThisSystem && Pages > 0 && PageSize > 0)
    TotalMemory = std::max<std::uint64_t>(
        TotalMemory, static_cast<std::uint64_t>(Pages) * PageSize);
  if (!TotalMemory)
    TotalMemory = 1ull << 30;

  const hwloc_obj_type_t CacheTypes[5] = {HWLOC_OBJ_TYPE_MAX, HWLOC_OBJ_L1CACHE,
                                          HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE,
                                          HWLOC_OBJ_L4CACHE};
  for (unsigned L = 1; L <= 4; ++L)
    if (hwloc_obj_t C = hwloc_get_next_obj_by_type(T, CacheTypes[L], nullptr)) {
      Caches[L] = C->attr->cache.size;
      if (L == 1 && C->attr->cache.linesize)
        CacheLine = C->attr->cache.linesize;
    }

  hwloc_obj_t Pkg = hwloc_get_next_obj_by_type(T, HWLOC_OBJ_PACKAGE, nullptr);
  if (const char *M =
          Pkg ? hwloc_obj_get_info_by_name(Pkg, "CPUModel") : nullptr)
    CpuModel = M;
  if (const char *V =
          Pkg ? hwloc_obj_get_info_by_name(Pkg, "CPUVendor") : nullptr)
    CpuVendor = V;
  if (CpuModel.empty())
    CpuModel = procCpuinfo("model name");
  if (CpuVendor.empty())
    CpuVendor = procCpuinfo("vendor_id");
  if (CpuModel.empty())
    CpuModel = "Unknown CPU";
  if (CpuVendor.empty())
    CpuVendor = "Unknown vendor";

  std::ifstream Max("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  unsigned long KHz = 0;
  if (Max >> KHz)
    ClockMHz = static_cast<cl_uint>(KHz / 1000);
  else
    ClockMHz = static_cast<cl_uint>(std::stod("0" + procCpuinfo("cpu MHz")));
}

Topology::~Topology() {
  if (Hwloc)
    hwloc_topology_destroy(topo(Hwloc));
}

std::uint64_t Topology::cacheSize(unsigned Level) const {
  return Level >= 1 && Level <= 4 ? Caches[Level] : 0;
}

std::vector<std::vector<unsigned>>
Topology::groupsByDomain(const std::vector<unsigned> &DevCpus,
                         cl_device_affinity_domain Domain) const {
  std::vector<std::vector<unsigned>> Groups;
  hwloc_obj_type_t Ty = domainType(Domain);
  if (!Hwloc || Ty == HWLOC_OBJ_TYPE_MAX)
    return Groups;
  hwloc_topology_t T = topo(Hwloc);
  for (hwloc_obj_t O = hwloc_get_next_obj_by_type(T, Ty, nullptr); O;
       O = hwloc_get_next_obj_by_type(T, Ty, O)) {
    std::vector<unsigned> G;
    for (unsigned C : DevCpus)
      if (hwloc_bitmap_isset(O->cpuset, C))
        G.push_back(C);
    if (!G.empty())
      Groups.push_back(std::move(G));
  }
  return Groups;
}

bool Topology::bindThread(const std::vector<unsigned> &Set) const {
  // Another machine's topology (HWLOC_SYNTHETIC, HWLOC_XMLFILE) names CPUs
  // this one may not have.
  if (!Hwloc || !ThisSystem || Set.empty())
    return false;
  hwloc_bitmap_t B = hwloc_bitmap_alloc();
  for (unsigned C : Set)
    hwloc_bitmap_set(B, C);
  bool Ok = hwloc_set_cpubind(topo(Hwloc), B, HWLOC_CPUBIND_THREAD) == 0;
  hwloc_bitmap_free(B);
  return Ok;
}

unsigned Topology::numaNodes() const {
  if (!Hwloc)
    return 1;
  int N = hwloc_get_nbobjs_by_type(topo(Hwloc), HWLOC_OBJ_NUMANODE);
  return N > 1 ? static_cast<unsigned>(N) : 1;
}

MemoryPlacement
Topology::placementFor(const std::vector<unsigned> &DevCpus) const {
  MemoryPlacement P;
  if (numaNodes() < 2)
    return P;
  hwloc_topology_t T = topo(Hwloc);
  for (hwloc_obj_t N =
           hwloc_get_next_obj_by_type(T, HWLOC_OBJ_NUMANODE, nullptr);
       N; N = hwloc_get_next_obj_by_type(T, HWLOC_OBJ_NUMANODE, N))
    if (std::any_of(DevCpus.begin(), DevCpus.end(), [&](unsigned C) {
          return hwloc_bitmap_isset(N->cpuset, C);
        }))
      P.Nodes.push_back(N->os_index);
  if (P.Nodes.size() == 1)
    P.Kind = MemoryPlacement::Bind;
  else if (P.Nodes.size() > 1)
    P.Kind = MemoryPlacement::Interleave;
  return P;
}

bool Topology::place(void *Addr, size_t Bytes, const MemoryPlacement &P) const {
  if (P.Kind == MemoryPlacement::FirstTouch || !Hwloc || !ThisSystem)
    return true;
  hwloc_bitmap_t Nodes = hwloc_bitmap_alloc();
  for (unsigned N : P.Nodes)
    hwloc_bitmap_set(Nodes, N);
  hwloc_membind_policy_t Policy = P.Kind == MemoryPlacement::Bind
                                      ? HWLOC_MEMBIND_BIND
                                      : HWLOC_MEMBIND_INTERLEAVE;
  bool Ok = hwloc_set_area_membind(topo(Hwloc), Addr, Bytes, Nodes, Policy,
                                   HWLOC_MEMBIND_BYNODESET) == 0;
  hwloc_bitmap_free(Nodes);
  return Ok;
}

VectorIsa hostVectorIsa() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
    return VectorIsa::Avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return VectorIsa::Avx2;
  if (__builtin_cpu_supports("avx"))
    return VectorIsa::Avx;
  if (__builtin_cpu_supports("sse4.2"))
    return VectorIsa::Sse42;
  return VectorIsa::Sse2;
}

unsigned vectorBytes(VectorIsa Isa) {
  switch (Isa) {
  case VectorIsa::Avx512:
    return 64;
  case VectorIsa::Avx2:
  case VectorIsa::Avx:
    return 32;
  default:
    return 16;
  }
}

unsigned subGroupSize() { return compiler::hostSubGroupSize(); }

const char *isaName(VectorIsa Isa) {
  switch (Isa) {
  case VectorIsa::Avx512:
    return "AVX-512";
  case VectorIsa::Avx2:
    return "AVX2";
  case VectorIsa::Avx:
    return "AVX";
  case VectorIsa::Sse42:
    return "SSE4.2";
  default:
    return "SSE2";
  }
}

} // namespace clcpu
