#include "runtime/Device.h"
#include "compiler/Compiler.h"
#include "compiler/Spirv.h"
#include "compiler/WorkGroupContext.h"
#include "runtime/Config.h"
#include "runtime/DeviceQueue.h"
#include "runtime/Error.h"
#include "runtime/ExtensionEnums.h"
#include "runtime/Image.h"
#include "runtime/MutableCommand.h"
#include "runtime/Platform.h"
#include "runtime/Topology.h"
#include "scheduler/Executor.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace clcpu {
namespace {

/// Device extensions: compiler/Extensions.def, the one list the compiler
/// also defines the extension macros from.
const std::vector<NamedVersion> DeviceExtensions = {
#define CLCPU_EXTENSION(Name, Major, Minor, Patch)                             \
  {#Name, CL_MAKE_VERSION(Major, Minor, Patch)},
#include "compiler/Extensions.def"
};
/// The extensions reported with image support (CLCPU_IMAGES).
const std::vector<NamedVersion> ImageExtensions = {
#define CLCPU_IMAGE_EXTENSION(Name, Major, Minor, Patch)                       \
  {#Name, CL_MAKE_VERSION(Major, Minor, Patch)},
#include "compiler/Extensions.def"
};

/// The last minor version of SPIR-V 1.x that IL programs may have.
cl_uint spirvMaxMinor() { return (compiler::MaxSpirvVersion >> 8) & 0xff; }

/// Whether the device takes IL programs: the SPIR-V translator is there.
bool ilPrograms() {
  return compiler::spirvTranslatorFound(config().SpirvTranslator);
}

/// DeviceExtensions less cl_khr_il_program when the device takes no IL
/// programs (no SPIR-V translator).
std::vector<NamedVersion> reportedExtensions(bool IlPrograms) {
  std::vector<NamedVersion> V;
  for (const NamedVersion &E : DeviceExtensions)
    if (IlPrograms || std::strcmp(E.Name, "cl_khr_il_program") != 0)
      V.push_back(E);
  if (config().Images)
    V.insert(V.end(), ImageExtensions.begin(), ImageExtensions.end());
  return V;
}

/// OpenCL C 3.0 optional features: compiler::openclCFeatures(), the one list
/// the compiler also defines the feature macros from.
std::vector<cl_name_version> openclCFeatures() {
  std::vector<cl_name_version> V;
  std::vector<std::string> Names = compiler::openclCFeatures();
  if (config().Images)
    Names.insert(Names.end(), compiler::imageFeatures().begin(),
                 compiler::imageFeatures().end());
  for (const std::string &F : Names) {
    cl_name_version NV{};
    // An extension's feature has its extension's version; the others are
    // OpenCL C 3.0's.
    NV.version = CL_MAKE_VERSION(3, 0, 0);
    if (std::string Ext = compiler::featureExtension(F); !Ext.empty())
      for (const NamedVersion &E : DeviceExtensions)
        if (E.Name == Ext)
          NV.version = E.Version;
    std::strncpy(NV.name, F.c_str(), CL_NAME_VERSION_MAX_NAME_SIZE - 1);
    V.push_back(NV);
  }
  return V;
}

const NamedVersion OpenCLCVersions[] = {
    {"OpenCL C", CL_MAKE_VERSION(1, 0, 0)},
    {"OpenCL C", CL_MAKE_VERSION(1, 1, 0)},
    {"OpenCL C", CL_MAKE_VERSION(1, 2, 0)},
    // Every OpenCL C 2.0 feature: generic address space, program-scope
    // variables, C11 atomics, work-group collectives, pipes, device-side
    // enqueue (CTS test_pipes and test_device_execution pass whole).
    {"OpenCL C", CL_MAKE_VERSION(2, 0, 0)},
    {"OpenCL C", CL_MAKE_VERSION(3, 0, 0)},
};

/// cl_khr_kernel_clock: the scopes whose feature macros programs see
/// (compiler::openclCFeatures()).
cl_device_kernel_clock_capabilities_khr kernelClockScopes() {
  static const std::pair<const char *, cl_device_kernel_clock_capabilities_khr>
      Scopes[] = {
          {"__opencl_c_kernel_clock_scope_device",
           CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR},
          {"__opencl_c_kernel_clock_scope_work_group",
           CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR},
          {"__opencl_c_kernel_clock_scope_sub_group",
           CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR},
      };
  const std::vector<std::string> &F = compiler::openclCFeatures();
  cl_device_kernel_clock_capabilities_khr Caps = 0;
  for (auto [Name, Bit] : Scopes)
    if (std::find(F.begin(), F.end(), Name) != F.end())
      Caps |= Bit;
  return Caps;
}

constexpr cl_device_affinity_domain AllDomains[] = {
    CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE};

constexpr size_t MaxWorkGroupSize = 4096;
// Every work-item of a group has a slot in the bounds-check report.
static_assert(MaxWorkGroupSize <= CheckReportSlots);
constexpr cl_uint MemBaseAddrAlignBits = 1024; // 128 bytes: one AVX-512 pair
constexpr cl_ulong LocalMemSize = 64 * 1024;

/// A UUID that depends on \p Key alone: two 64-bit FNV-1a hashes of it
/// (different offset bases), with the version and variant bits of RFC 9562's
/// custom UUIDs (version 8).
std::array<cl_uchar, CL_UUID_SIZE_KHR> stableUuid(const std::string &Key) {
  std::array<cl_uchar, CL_UUID_SIZE_KHR> U{};
  uint64_t Bases[2] = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
  for (unsigned H = 0; H < 2; ++H) {
    uint64_t V = Bases[H];
    for (unsigned char C : Key)
      V = (V ^ C) * 0x100000001b3ull;
    for (unsigned B = 0; B < 8; ++B)
      U[H * 8 + B] = static_cast<cl_uchar>(V >> (8 * B));
  }
  U[6] = static_cast<cl_uchar>((U[6] & 0x0f) | 0x80);
  U[8] = static_cast<cl_uchar>((U[8] & 0x3f) | 0x80);
  return U;
}

/// Worker threads for a device of \p Cpus CPUs: one per CPU, at most what
/// the process's CPU quota pays for; CLCPU_NUM_THREADS chooses fewer.
unsigned workerCount(size_t Cpus) {
  unsigned Allowed = static_cast<unsigned>(std::max<size_t>(Cpus, 1));
  if (unsigned Quota = Topology::get().quotaWorkers())
    Allowed = std::min(Allowed, Quota);
  unsigned Wanted = config().NumThreads;
  if (!Wanted)
    return Allowed;
  // More workers than CPUs would only take turns on them, and a worker
  // preempted inside a work-group holds up every barrier of its group.
  if (Wanted > Allowed) {
    warnLine("CLCPU_NUM_THREADS=" + std::to_string(Wanted) + " exceeds the " +
             std::to_string(Allowed) +
             " CPUs this device may use (affinity mask, cgroup quota); using " +
             std::to_string(Allowed) + " workers");
    return Allowed;
  }
  return Wanted;
}

} // namespace

Device::Device(Platform *P, Device *Parent, std::vector<unsigned> Cpus,
               std::vector<cl_device_partition_property> PartitionType)
    : Plat(P), Parent(Parent), Cpus(std::move(Cpus)),
      PartitionType(std::move(PartitionType)) {
  Name = Topology::get().cpuModel();
  if (Parent)
    Parent->retainInternal();
}

Device *Device::createRoot(Platform *P) {
  return new Device(P, nullptr, Topology::get().cpus(), {});
}

void Device::retainDevice() {
  if (!isRoot())
    retain();
}

bool Device::releaseDevice() { return isRoot() || release(); }

Device::~Device() {
  // A sub-device keeps its parent alive for as long as it exists.
  if (Parent)
    Parent->releaseInternal();
}

cl_ulong Device::localMemSize() { return LocalMemSize; }

Executor &Device::executor() {
  std::call_once(ExecutorOnce, [this] {
    unsigned Threads = workerCount(Cpus.size());
    std::vector<unsigned> Set = Cpus;
    Exec = &Executor::shared(Cpus, Threads,
                             [Set] { Topology::get().bindThread(Set); });
  });
  return *Exec;
}

cl_device_affinity_domain Device::affinityDomains() const {
  // Only the domains that really split this device are supported: one
  // instance holding every CPU would make in_device again (and CTS
  // test_buffers/buffer_migrate expects every advertised domain to succeed).
  cl_device_affinity_domain Mask = 0;
  for (cl_device_affinity_domain D : AllDomains)
    if (Topology::get().groupsByDomain(Cpus, D).size() > 1)
      Mask |= D;
  if (Mask)
    Mask |= CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
  return Mask;
}

cl_int
Device::planPartition(const cl_device_partition_property *Props,
                      std::vector<std::vector<unsigned>> &Groups,
                      std::vector<cl_device_partition_property> &Type) const {
  const Topology &T = Topology::get();
  const cl_uint CUs = computeUnits();
  Groups.clear();
  Type.clear();
  // CL_INVALID_VALUE if values specified in properties are not valid or if
  // values specified in properties are valid but not supported by the device.
  if (!Props || Props[0] == 0)
    return fail(CL_INVALID_VALUE, "properties is NULL or empty");
  switch (Props[0]) {
  case CL_DEVICE_PARTITION_EQUALLY: {
    cl_device_partition_property N = Props[1];
    if (Props[2] != 0)
      return fail(CL_INVALID_VALUE,
                  "CL_DEVICE_PARTITION_EQUALLY takes exactly one value");
    // CL_INVALID_VALUE if values specified in properties are not valid.
    if (N == 0)
      return fail(CL_INVALID_VALUE, "CL_DEVICE_PARTITION_EQUALLY count is 0");
    // CL_INVALID_DEVICE_PARTITION_COUNT if the total number of compute units
    // requested exceeds CL_DEVICE_MAX_COMPUTE_UNITS for in_device, if the
    // number of compute units requested for one or more sub-devices is less
    // than zero.
    if (N < 0 || static_cast<cl_uint>(N) > CUs)
      return fail(CL_INVALID_DEVICE_PARTITION_COUNT,
                  "CL_DEVICE_PARTITION_EQUALLY count " + std::to_string(N) +
                      " is not in 1.." + std::to_string(CUs));
    // CL_DEVICE_PARTITION_FAILED if the partition name is supported by the
    // implementation but in_device could not be further partitioned.
    // (n = all compute units would only make one copy of in_device.)
    if (static_cast<cl_uint>(N) == CUs)
      return fail(CL_DEVICE_PARTITION_FAILED,
                  "CL_DEVICE_PARTITION_EQUALLY count " + std::to_string(N) +
                      " is every compute unit: in_device cannot be "
                      "partitioned further");
    for (cl_uint I = 0; I + N <= CUs; I += N)
      Groups.emplace_back(Cpus.begin() + I, Cpus.begin() + I + N);
    Type = {CL_DEVICE_PARTITION_EQUALLY, N, 0};
    return CL_SUCCESS;
  }
  case CL_DEVICE_PARTITION_BY_COUNTS: {
    cl_uint Used = 0;
    size_t I = 1;
    Type.push_back(CL_DEVICE_PARTITION_BY_COUNTS);
    for (; Props[I] != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END; ++I) {
      cl_device_partition_property N = Props[I];
      // CL_INVALID_DEVICE_PARTITION_COUNT if ... the number of compute units
      // requested for one or more sub-devices is less than zero or the total
      // ... exceeds CL_DEVICE_PARTITION_MAX_COMPUTE_UNITS.
      if (N < 0)
        return fail(
            CL_INVALID_DEVICE_PARTITION_COUNT,
            "negative compute-unit count in CL_DEVICE_PARTITION_BY_COUNTS");
      if (Used + static_cast<cl_ulong>(N) > CUs)
        return fail(CL_INVALID_DEVICE_PARTITION_COUNT,
                    "CL_DEVICE_PARTITION_BY_COUNTS asks for more than " +
                        std::to_string(CUs) + " compute units");
      if (N == 0)
        return fail(CL_INVALID_DEVICE_PARTITION_COUNT,
                    "a sub-device of zero compute units was requested");
      Groups.emplace_back(Cpus.begin() + Used, Cpus.begin() + Used + N);
      Used += static_cast<cl_uint>(N);
      Type.push_back(N);
    }
    // CL_INVALID_DEVICE_PARTITION_COUNT if the partition name specified in
    // properties is CL_DEVICE_PARTITION_BY_COUNTS and the number of
    // sub-devices requested exceeds CL_DEVICE_PARTITION_MAX_SUB_DEVICES.
    if (Groups.empty())
      return fail(CL_INVALID_DEVICE_PARTITION_COUNT,
                  "CL_DEVICE_PARTITION_BY_COUNTS lists no sub-device");
    if (Props[I + 1] != 0)
      return fail(
          CL_INVALID_VALUE,
          "properties continue after CL_DEVICE_PARTITION_BY_COUNTS_LIST_END");
    Type.push_back(CL_DEVICE_PARTITION_BY_COUNTS_LIST_END);
    Type.push_back(0);
    return CL_SUCCESS;
  }
  case CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN: {
    auto Domain = static_cast<cl_device_affinity_domain>(Props[1]);
    if (Props[2] != 0)
      return fail(CL_INVALID_VALUE,
                  "CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN takes one value");
    cl_device_affinity_domain Supported = affinityDomains();
    if (Domain == 0 || (Domain & (Domain - 1)) != 0 || !(Supported & Domain))
      return fail(CL_INVALID_VALUE, "affinity domain " +
                                        std::to_string(Domain) +
                                        " is not supported by this device");
    if (Domain == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE) {
      // "Split the device along the next partitionable affinity domain": the
      // outermost level that really splits this device.
      for (cl_device_affinity_domain D : AllDomains) {
        auto G = T.groupsByDomain(Cpus, D);
        if (G.size() > 1) {
          Groups = std::move(G);
          break;
        }
      }
      if (Groups.empty())
        return fail(CL_DEVICE_PARTITION_FAILED,
                    "no affinity domain splits this device further");
    } else {
      Groups = T.groupsByDomain(Cpus, Domain);
      // CL_DEVICE_PARTITION_FAILED if the partition name is supported by the
      // implementation but in_device could not be further partitioned.
      // (One group is in_device again: all its compute units share the
      // domain. Partitioning it would never end.)
      if (Groups.size() < 2)
        return fail(CL_DEVICE_PARTITION_FAILED,
                    "all compute units of in_device share affinity domain " +
                        std::to_string(Domain) +
                        ": it cannot be partitioned further");
    }
    Type = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
            static_cast<cl_device_partition_property>(Domain), 0};
    return CL_SUCCESS;
  }
  default:
    return fail(CL_INVALID_VALUE,
                "unknown partition property " + std::to_string(Props[0]));
  }
}

cl_int Device::partitionCount(const cl_device_partition_property *Props,
                              cl_uint &Count) {
  std::vector<std::vector<unsigned>> Groups;
  std::vector<cl_device_partition_property> Type;
  cl_int Err = planPartition(Props, Groups, Type);
  Count = static_cast<cl_uint>(Groups.size());
  return Err;
}

cl_int Device::partition(const cl_device_partition_property *Props,
                         std::vector<Device *> &Out) {
  std::vector<std::vector<unsigned>> Groups;
  std::vector<cl_device_partition_property> Type;
  if (cl_int Err = planPartition(Props, Groups, Type))
    return Err;
  for (auto &G : Groups)
    Out.push_back(new Device(Plat, this, std::move(G), Type));
  return CL_SUCCESS;
}

cl_int Device::getInfo(cl_device_info Param, InfoOut Out) const {
  const Topology &T = Topology::get();
  const VectorIsa Isa = hostVectorIsa();
  const cl_uint VecBytes = vectorBytes(Isa);
  // Integer SIMD is 128-bit wide on AVX (without AVX2).
  const cl_uint IntVecBytes = Isa == VectorIsa::Avx ? 16 : VecBytes;
  const cl_ulong GlobalMem = T.totalMemory();
  const cl_ulong MaxAlloc = std::max<cl_ulong>(GlobalMem / 4, 128ull << 20);

  switch (Param) {
  case CL_DEVICE_TYPE:
    return Out.value<cl_device_type>(CL_DEVICE_TYPE_CPU);
  case CL_DEVICE_VENDOR_ID:
    return Out.value<cl_uint>(T.cpuVendor() == "AuthenticAMD" ? 0x1022
                                                              : 0x8086);
  case CL_DEVICE_MAX_COMPUTE_UNITS:
    return Out.value<cl_uint>(computeUnits());
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
    return Out.value<cl_uint>(3);
  case CL_DEVICE_MAX_WORK_GROUP_SIZE:
    return Out.value<size_t>(MaxWorkGroupSize);
  case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
    size_t Sizes[3] = {MaxWorkGroupSize, MaxWorkGroupSize, MaxWorkGroupSize};
    return Out.bytes(Sizes, sizeof Sizes);
  }
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    return Out.value<cl_uint>(IntVecBytes / 1);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    return Out.value<cl_uint>(IntVecBytes / 2);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
    return Out.value<cl_uint>(IntVecBytes / 4);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    return Out.value<cl_uint>(IntVecBytes / 8);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    return Out.value<cl_uint>(VecBytes / 4);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    return Out.value<cl_uint>(VecBytes / 8);
  // "If the cl_khr_fp16 extension is not supported, ... must return 0."
  // Half is computed in float lanes (builtins/half.cl; F16C converts), so
  // a vector holds as many halves as it computes floats.
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
    return Out.value<cl_uint>(VecBytes / 4);
  case CL_DEVICE_MAX_CLOCK_FREQUENCY:
    return Out.value<cl_uint>(T.maxClockMHz());
  case CL_DEVICE_ADDRESS_BITS:
    return Out.value<cl_uint>(64);
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
    return Out.value<cl_ulong>(MaxAlloc);
  // Images, unless CLCPU_IMAGES=0 turns them off (runtime/Config.def);
  // without image support every limit is 0.
  case CL_DEVICE_IMAGE_SUPPORT:
    return Out.value<cl_bool>(config().Images ? CL_TRUE : CL_FALSE);
  case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    return Out.value<cl_uint>(config().Images ? ImageLimits::MaxReadArgs : 0);
  case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    return Out.value<cl_uint>(config().Images ? ImageLimits::MaxWriteArgs : 0);
  case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
    return Out.value<cl_uint>(config().Images ? ImageLimits::MaxReadWriteArgs
                                              : 0);
  // A non-zero pitch alignment says 2D images can be created from buffers
  // (OpenCL 3.0: the cl_khr_image2d_from_buffer feature).
  case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
    return Out.value<cl_uint>(config().Images ? ImageLimits::PitchAlignment
                                              : 0);
  case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
    return Out.value<cl_uint>(
        config().Images ? ImageLimits::BaseAddressAlignment : 0);
  case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    return Out.value<size_t>(config().Images ? ImageLimits::Max2DWidth : 0);
  case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
    return Out.value<size_t>(config().Images ? ImageLimits::Max2DHeight : 0);
  case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    return Out.value<size_t>(config().Images ? ImageLimits::Max3DWidth : 0);
  case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    return Out.value<size_t>(config().Images ? ImageLimits::Max3DHeight : 0);
  case CL_DEVICE_IMAGE3D_MAX_DEPTH:
    return Out.value<size_t>(config().Images ? ImageLimits::Max3DDepth : 0);
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
    return Out.value<size_t>(config().Images ? ImageLimits::MaxBufferSize : 0);
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
    return Out.value<size_t>(config().Images ? ImageLimits::MaxArraySize : 0);
  case CL_DEVICE_MAX_SAMPLERS:
    return Out.value<cl_uint>(config().Images ? ImageLimits::MaxSamplers : 0);
  case CL_DEVICE_MAX_PARAMETER_SIZE:
    return Out.value<size_t>(1024);
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
    return Out.value<cl_uint>(MemBaseAddrAlignBits);
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
    return Out.value<cl_uint>(128);
  case CL_DEVICE_SINGLE_FP_CONFIG:
    return Out.value<cl_device_fp_config>(CL_FP_DENORM | CL_FP_INF_NAN |
                                          CL_FP_ROUND_TO_NEAREST | CL_FP_FMA |
                                          CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT);
  // The minimum the spec requires of a device with double precision, which
  // the x86-64 FPU and the builtins library meet.
  case CL_DEVICE_DOUBLE_FP_CONFIG:
    // The required minimum (FMA, round to nearest, INF/NaN, denormals) plus
    // the directed rounding modes the hardware has, as OpenCL 1.0 required
    // them (the CTS test_api/min_max_double_fp_config still checks them).
    return Out.value<cl_device_fp_config>(
        CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
        CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM);
  // cl_khr_fp16: at least round to nearest (or to zero) and INF/NaN. Each
  // half operation is the float one rounded once to half, which is the
  // correctly rounded half result, denormals included; fma is exact
  // (builtins/half.cl).
  case CL_DEVICE_HALF_FP_CONFIG:
    return Out.value<cl_device_fp_config>(CL_FP_DENORM | CL_FP_INF_NAN |
                                          CL_FP_ROUND_TO_NEAREST | CL_FP_FMA);
  // cl_ext_float_atomics: "Describes the floating-point atomic operations
  // supported by the device." Add/sub and min/max in global and local
  // memory for float, double and half (builtins/c11atomic.cl); load,
  // store and exchange of float and double are OpenCL C 2.0's own, so the
  // LOAD_STORE bits (which the extension adds for half) are set too.
  case CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT:
  case CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT:
  case CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT:
    return Out.value<cl_device_fp_atomic_capabilities_ext>(
        CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT |
        CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT |
        CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT |
        CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT |
        CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT |
        CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT);
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
    return Out.value<cl_device_mem_cache_type>(CL_READ_WRITE_CACHE);
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
    return Out.value<cl_uint>(T.cacheLine());
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
    return Out.value<cl_ulong>(T.cacheSize(2) ? T.cacheSize(2)
                                              : T.cacheSize(1));
  case CL_DEVICE_GLOBAL_MEM_SIZE:
    return Out.value<cl_ulong>(GlobalMem);
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
    return Out.value<cl_ulong>(std::min<cl_ulong>(MaxAlloc, 64ull << 20));
  case CL_DEVICE_MAX_CONSTANT_ARGS:
    return Out.value<cl_uint>(8);
  case CL_DEVICE_LOCAL_MEM_TYPE:
    return Out.value<cl_device_local_mem_type>(CL_GLOBAL);
  case CL_DEVICE_LOCAL_MEM_SIZE:
    return Out.value<cl_ulong>(localMemSize());
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
    return Out.value<cl_bool>(CL_FALSE);
  case CL_DEVICE_HOST_UNIFIED_MEMORY:
    return Out.value<cl_bool>(CL_TRUE);
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
    return Out.value<size_t>(1);
  case CL_DEVICE_ENDIAN_LITTLE:
    return Out.value<cl_bool>(CL_TRUE);
  case CL_DEVICE_AVAILABLE:
    return Out.value<cl_bool>(CL_TRUE);
  // clBuildProgram/clCompileProgram/clLinkProgram compile and link OpenCL C
  // in process (compiler/).
  case CL_DEVICE_COMPILER_AVAILABLE:
  case CL_DEVICE_LINKER_AVAILABLE:
    return Out.value<cl_bool>(CL_TRUE);
  case CL_DEVICE_EXECUTION_CAPABILITIES:
    return Out.value<cl_device_exec_capabilities>(CL_EXEC_KERNEL);
  case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
    return Out.value<cl_command_queue_properties>(
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  // On-device queues (runtime/DeviceQueue.h): kernels enqueue children
  // that run on this device's workers once the parent's groups ended.
  case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
    return Out.value<cl_command_queue_properties>(
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
    return Out.value<cl_uint>(DeviceQueuePreferredSize);
  case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
    return Out.value<cl_uint>(DeviceQueueMaxSize);
  case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
    return Out.value<cl_uint>(MaxOnDeviceQueues);
  case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
    return Out.value<cl_uint>(MaxOnDeviceEvents);
  case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
    return Out.value<cl_device_device_enqueue_capabilities>(
        CL_DEVICE_QUEUE_SUPPORTED | CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT);
  case CL_DEVICE_NAME:
    return Out.string(Name);
  case CL_DEVICE_VENDOR:
    return Out.string(T.cpuVendor());
  case CL_DRIVER_VERSION:
    return Out.string(driverBuildVersion());
  case CL_DEVICE_PROFILE:
    return Out.string("FULL_PROFILE");
  case CL_DEVICE_VERSION:
    return Out.string(std::string("OpenCL 3.0 clcpu ") + isaName(Isa));
  case CL_DEVICE_NUMERIC_VERSION:
    return Out.value<cl_version>(CL_MAKE_VERSION(3, 0, 0));
  case CL_DEVICE_OPENCL_C_VERSION:
    // The highest OpenCL C 1.x or 2.x the device supports (3.0 is in
    // CL_DEVICE_OPENCL_C_ALL_VERSIONS).
    return Out.string("OpenCL C 2.0 clcpu");
  // cl_khr_extended_versioning: "the OpenCL C version supported by the
  // device", as CL_DEVICE_OPENCL_C_VERSION names it.
  case CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR:
    return Out.value<cl_version_khr>(CL_MAKE_VERSION_KHR(2, 0, 0));
  // cl_khr_device_uuid: the UUIDs name the device (its CPU and its CPUs, so
  // sub-devices differ) and the driver (its version and build); the same in
  // every process on the same machine. A LUID is a Windows adapter's: none
  // here.
  case CL_DEVICE_UUID_KHR: {
    std::string Key = "clcpu device\n" + T.cpuVendor() + "\n" + T.cpuModel() +
                      "\n" + isaName(Isa) + "\n";
    for (unsigned C : Cpus)
      Key += std::to_string(C) + ",";
    std::array<cl_uchar, CL_UUID_SIZE_KHR> U = stableUuid(Key);
    return Out.bytes(U.data(), U.size());
  }
  case CL_DRIVER_UUID_KHR: {
    std::array<cl_uchar, CL_UUID_SIZE_KHR> U =
        stableUuid(std::string("clcpu driver\n") + driverBuildVersion());
    return Out.bytes(U.data(), U.size());
  }
  case CL_DEVICE_LUID_VALID_KHR:
    return Out.value<cl_bool>(CL_FALSE);
  case CL_DEVICE_LUID_KHR: {
    cl_uchar Luid[CL_LUID_SIZE_KHR] = {};
    return Out.bytes(Luid, sizeof Luid);
  }
  case CL_DEVICE_NODE_MASK_KHR:
    return Out.value<cl_uint>(0);
  // cl_khr_integer_dot_product 2.0.0:
  // "CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR is always set",
  // and "CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR must be set in
  // version 2.x of the extension"; their feature macros are in
  // compiler::openclCFeatures().
  case CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR:
    return Out.value<cl_device_integer_dot_product_capabilities_khr>(
        CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR |
        CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR);
  // "A dot product operation is deemed accelerated if its implementation
  // provides a performance advantage over application-provided code
  // composed from elementary instructions, either because the
  // implementation uses optimized machine code sequences whose generation
  // from application-provided code cannot be guaranteed ...".
  // Unsigned-by-signed bytes, plain or accumulated with signed saturation,
  // are one vpdpbusd / vpdpbusds per vector of work-items where the CPU has
  // AVX-512 VNNI or AVX-VNNI (compiler/passes/VnniDotProduct.cpp, which
  // finds the builtins' shape; an application's own byte arithmetic gets
  // there only if it happens to have that shape). Every other combination
  // is the multiply-adds an application's own code gets. Packed or not,
  // the operands are the same 32-bit words.
  case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR:
  case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR: {
    const cl_bool Mixed = compiler::hostVnniDotProduct() ? CL_TRUE : CL_FALSE;
    cl_device_integer_dot_product_acceleration_properties_khr P{};
    P.mixed_signedness_accelerated = Mixed;
    P.accumulating_saturating_mixed_signedness_accelerated = Mixed;
    return Out.value(P);
  }
  case CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR:
    return Out.value<cl_device_kernel_clock_capabilities_khr>(
        kernelClockScopes());
  case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
    return Out.array(nameVersions(OpenCLCVersions));
  case CL_DEVICE_OPENCL_C_FEATURES:
    return Out.array(openclCFeatures());
  // cl_khr_command_buffer: kernels with printf run in command-buffers like
  // anywhere (printf writes at once, compiler/Printf.cpp); device-side
  // enqueue from a recorded kernel is not claimed (no test covers it). A
  // replay runs the works of its enqueue
  // (updates make new ones), so any number may be pending at once
  // (simultaneous use).
  case CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR:
    return Out.value<cl_device_command_buffer_capabilities_khr>(
        CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR |
        CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR);
  // cl_khr_command_buffer_mutable_dispatch: an update makes the changed
  // command's work again, so every field can change (runtime/
  // MutableCommand.h).
  case CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR:
    return Out.value<cl_mutable_dispatch_fields_khr>(MutableDispatchFields);
  // A command-buffer replays on a queue of any properties: in order or out
  // of order, with or without profiling.
  case CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR:
    return Out.value<cl_command_queue_properties>(0);
  case CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR:
    return Out.value<cl_command_queue_properties>(
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  case CL_DEVICE_EXTENSIONS:
    return Out.string(joinNames(reportedExtensions(ilPrograms())));
  case CL_DEVICE_EXTENSIONS_WITH_VERSION:
    return Out.array(nameVersions(reportedExtensions(ilPrograms())));
  case CL_DEVICE_PLATFORM:
    return Out.value<cl_platform_id>(Plat->handle());
  case CL_DEVICE_BUILT_IN_KERNELS:
    return Out.string("");
  case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
    return Out.bytes(nullptr, 0);
  // SPIR-V 1.0 up to what the translator reads (compiler/Spirv.cpp); none
  // without the translator.
  case CL_DEVICE_ILS_WITH_VERSION: {
    std::vector<cl_name_version> V;
    for (cl_uint Minor = 0; ilPrograms() && Minor <= spirvMaxMinor(); ++Minor) {
      cl_name_version NV{};
      NV.version = CL_MAKE_VERSION(1, Minor, 0);
      std::strncpy(NV.name, "SPIR-V", CL_NAME_VERSION_MAX_NAME_SIZE - 1);
      V.push_back(NV);
    }
    return Out.array(V);
  }
  case CL_DEVICE_IL_VERSION: {
    std::string S;
    for (cl_uint Minor = 0; ilPrograms() && Minor <= spirvMaxMinor(); ++Minor)
      S += (S.empty() ? "SPIR-V_1." : " SPIR-V_1.") + std::to_string(Minor);
    return Out.string(S);
  }
  case CL_DEVICE_PARENT_DEVICE:
    return Out.value<cl_device_id>(Parent ? Parent->handle() : nullptr);
  case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
    return Out.value<cl_uint>(computeUnits() > 1 ? computeUnits() : 0);
  case CL_DEVICE_PARTITION_PROPERTIES: {
    std::vector<cl_device_partition_property> P;
    if (computeUnits() > 1) {
      P = {CL_DEVICE_PARTITION_EQUALLY, CL_DEVICE_PARTITION_BY_COUNTS};
      if (affinityDomains())
        P.push_back(CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
    } else {
      // "If the device cannot be partitioned ... a value of 0 is returned."
      P = {0};
    }
    return Out.array(P);
  }
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
    return Out.value<cl_device_affinity_domain>(
        computeUnits() > 1 ? affinityDomains() : 0);
  case CL_DEVICE_PARTITION_TYPE:
    if (PartitionType.empty())
      return Out.bytes(nullptr, 0);
    return Out.array(PartitionType);
  case CL_DEVICE_REFERENCE_COUNT:
    return Out.value<cl_uint>(isRoot() ? 1 : referenceCount());
  case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
    return Out.value<cl_bool>(CL_TRUE);
  case CL_DEVICE_PRINTF_BUFFER_SIZE:
    return Out.value<size_t>(1 << 20);
  case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
    // Program-scope variables live in the JIT'd program's data, like a
    // shared library's globals (compiler/WorkGroupFunction.cpp checks it).
    return Out.value<size_t>(compiler::MaxGlobalVariableSize);
  case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
    return Out.value<size_t>(compiler::MaxGlobalVariableSize);
  case CL_DEVICE_SVM_CAPABILITIES:
    // The CPU shares the host's address space: any host pointer is usable.
    return Out.value<cl_device_svm_capabilities>(
        CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
        CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS);
  // Pipes (__opencl_c_pipes; builtins/pipe.cl, builtins/PipeLayout.h). A
  // pipe argument is a pointer like a buffer's: the limit is the spec's
  // minimum, which the CTS's limits test builds kernels with.
  case CL_DEVICE_MAX_PIPE_ARGS:
    return Out.value<cl_uint>(16);
  // Reservations are positions in the ring, held by no table: any number
  // may be active (each takes a share of the pipe's capacity); this is the
  // number a work-item is guaranteed to hold at once.
  case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    return Out.value<cl_uint>(4096);
  // Packets are copied with memcpy: any size works; the spec's minimum for
  // the full profile keeps a pipe's per-packet overhead (two 32-bit words)
  // small next to its packets.
  case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    return Out.value<cl_uint>(1024);
  case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
    // The last work-group of a dimension may be smaller (scheduler/NDRange).
    return Out.value<cl_bool>(CL_TRUE);
  case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
    // work_group_* run on fibers (compiler/Barriers.cpp, scheduler/Fiber).
    return Out.value<cl_bool>(CL_TRUE);
  case CL_DEVICE_PIPE_SUPPORT:
    // __opencl_c_pipes (compiler/Frontend.cpp).
    return Out.value<cl_bool>(CL_TRUE);
  case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
    // __opencl_c_generic_address_space (compiler/Frontend.cpp).
    return Out.value<cl_bool>(CL_TRUE);
  case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
    // "Is CL_TRUE if this device supports independent forward progress of
    // sub-groups": a sub-group that waits for another one (a loop whose exit
    // depends on an atomic or volatile load) must not keep it from running.
    // The work-items of a group are fibers on one thread, switched
    // cooperatively; the compiler puts a yield on the back edge of every such
    // loop (compiler/Barriers.cpp, unless -cl-no-subgroup-ifp), and the
    // scheduler runs every other runnable work-item before resuming the
    // yielder, so the sub-group waited for makes progress.
    return Out.value<cl_bool>(CL_TRUE);
  case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
    return Out.value<cl_uint>(0); // 0: natural alignment
  case CL_DEVICE_MAX_NUM_SUB_GROUPS:
    // Sub-groups of subGroupSize() consecutive work-items: a largest group
    // has this many (the last one partial).
    return Out.value<cl_uint>(static_cast<cl_uint>(
        (MaxWorkGroupSize + subGroupSize() - 1) / subGroupSize()));
  case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    // builtins/c11atomic.cl: every atomic is sequentially consistent and
    // device-wide; matches the __opencl_c_atomic_* features
    // (compiler::openclCFeatures()).
    return Out.value<cl_device_atomic_capabilities>(
        CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
        CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
        CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES);
  case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
    // builtins/misc.cl: every fence is a sequentially consistent fence.
    return Out.value<cl_device_atomic_capabilities>(
        CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
        CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM |
        CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE |
        CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES);
  case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return Out.value<size_t>(VecBytes / 4);
  case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
    // No CTS version has passed yet; the spec allows an empty string until
    // the implementation is submitted.
    return Out.string("v0000-01-01-00");
  default:
    return unknownParam(Param);
  }
}

std::vector<cl_device_id> deviceHandles(const std::vector<Device *> &Devs) {
  std::vector<cl_device_id> H;
  for (Device *D : Devs)
    H.push_back(D->handle());
  return H;
}

} // namespace clcpu
