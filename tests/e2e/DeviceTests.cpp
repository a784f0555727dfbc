// End-to-end: device queries and partitioning through the ICD loader
// (OpenCL 3.0 API spec, 4.2 "Querying Devices", 4.3 "Partitioning a Device").

#include "Common.h"
#include "runtime/ExtensionEnums.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <sstream>

namespace {
const cl_device_info AllDeviceQueries[] = {
    CL_DEVICE_TYPE,
    CL_DEVICE_VENDOR_ID,
    CL_DEVICE_MAX_COMPUTE_UNITS,
    CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS,
    CL_DEVICE_MAX_WORK_GROUP_SIZE,
    CL_DEVICE_MAX_WORK_ITEM_SIZES,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE,
    CL_DEVICE_MAX_CLOCK_FREQUENCY,
    CL_DEVICE_ADDRESS_BITS,
    CL_DEVICE_MAX_READ_IMAGE_ARGS,
    CL_DEVICE_MAX_WRITE_IMAGE_ARGS,
    CL_DEVICE_MAX_MEM_ALLOC_SIZE,
    CL_DEVICE_IMAGE2D_MAX_WIDTH,
    CL_DEVICE_IMAGE2D_MAX_HEIGHT,
    CL_DEVICE_IMAGE3D_MAX_WIDTH,
    CL_DEVICE_IMAGE3D_MAX_HEIGHT,
    CL_DEVICE_IMAGE3D_MAX_DEPTH,
    CL_DEVICE_IMAGE_SUPPORT,
    CL_DEVICE_MAX_PARAMETER_SIZE,
    CL_DEVICE_MAX_SAMPLERS,
    CL_DEVICE_MEM_BASE_ADDR_ALIGN,
    CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE,
    CL_DEVICE_SINGLE_FP_CONFIG,
    CL_DEVICE_GLOBAL_MEM_CACHE_TYPE,
    CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE,
    CL_DEVICE_GLOBAL_MEM_CACHE_SIZE,
    CL_DEVICE_GLOBAL_MEM_SIZE,
    CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE,
    CL_DEVICE_MAX_CONSTANT_ARGS,
    CL_DEVICE_LOCAL_MEM_TYPE,
    CL_DEVICE_LOCAL_MEM_SIZE,
    CL_DEVICE_ERROR_CORRECTION_SUPPORT,
    CL_DEVICE_PROFILING_TIMER_RESOLUTION,
    CL_DEVICE_ENDIAN_LITTLE,
    CL_DEVICE_AVAILABLE,
    CL_DEVICE_COMPILER_AVAILABLE,
    CL_DEVICE_EXECUTION_CAPABILITIES,
    CL_DEVICE_QUEUE_ON_HOST_PROPERTIES,
    CL_DEVICE_NAME,
    CL_DEVICE_VENDOR,
    CL_DEVICE_PROFILE,
    CL_DEVICE_VERSION,
    CL_DEVICE_EXTENSIONS,
    CL_DEVICE_PLATFORM,
    CL_DEVICE_DOUBLE_FP_CONFIG,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF,
    CL_DEVICE_HOST_UNIFIED_MEMORY,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_INT,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF,
    CL_DEVICE_OPENCL_C_VERSION,
    CL_DEVICE_LINKER_AVAILABLE,
    CL_DEVICE_BUILT_IN_KERNELS,
    CL_DEVICE_IMAGE_MAX_BUFFER_SIZE,
    CL_DEVICE_IMAGE_MAX_ARRAY_SIZE,
    CL_DEVICE_PARENT_DEVICE,
    CL_DEVICE_PARTITION_MAX_SUB_DEVICES,
    CL_DEVICE_PARTITION_PROPERTIES,
    CL_DEVICE_PARTITION_AFFINITY_DOMAIN,
    CL_DEVICE_PARTITION_TYPE,
    CL_DEVICE_REFERENCE_COUNT,
    CL_DEVICE_PREFERRED_INTEROP_USER_SYNC,
    CL_DEVICE_PRINTF_BUFFER_SIZE,
    CL_DEVICE_IMAGE_PITCH_ALIGNMENT,
    CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT,
    CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS,
    CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE,
    CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES,
    CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE,
    CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE,
    CL_DEVICE_MAX_ON_DEVICE_QUEUES,
    CL_DEVICE_MAX_ON_DEVICE_EVENTS,
    CL_DEVICE_SVM_CAPABILITIES,
    CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE,
    CL_DEVICE_MAX_PIPE_ARGS,
    CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS,
    CL_DEVICE_PIPE_MAX_PACKET_SIZE,
    CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT,
    CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT,
    CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT,
    CL_DEVICE_IL_VERSION,
    CL_DEVICE_MAX_NUM_SUB_GROUPS,
    CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
    CL_DEVICE_NUMERIC_VERSION,
    CL_DEVICE_EXTENSIONS_WITH_VERSION,
    CL_DEVICE_ILS_WITH_VERSION,
    CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION,
    CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES,
    CL_DEVICE_ATOMIC_FENCE_CAPABILITIES,
    CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT,
    CL_DEVICE_OPENCL_C_ALL_VERSIONS,
    CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
    CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT,
    CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT,
    CL_DEVICE_OPENCL_C_FEATURES,
    CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES,
    CL_DEVICE_PIPE_SUPPORT,
    CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED,
    CL_DRIVER_VERSION,
    CL_DEVICE_HALF_FP_CONFIG,
    // cl_khr_extended_versioning, cl_khr_device_uuid
    CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR,
    CL_DEVICE_UUID_KHR,
    CL_DRIVER_UUID_KHR,
    CL_DEVICE_LUID_VALID_KHR,
    CL_DEVICE_LUID_KHR,
    CL_DEVICE_NODE_MASK_KHR,
    // cl_ext_float_atomics
    CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT,
    CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT,
    CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT,
    // cl_khr_integer_dot_product
    CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR,
    CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR,
    CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR,
    // cl_khr_kernel_clock
    CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR,
};

bool hasExtension(cl_device_id D, const std::string &Name) {
  std::istringstream In(deviceString(D, CL_DEVICE_EXTENSIONS));
  for (std::string E; In >> E;)
    if (E == Name)
      return true;
  return false;
}

std::vector<cl_uchar> uuid(cl_device_id D, cl_device_info Q) {
  std::vector<cl_uchar> U(CL_UUID_SIZE_KHR);
  size_t Size = 0;
  REQUIRE(clGetDeviceInfo(D, Q, U.size(), U.data(), &Size) == CL_SUCCESS);
  CHECK(Size == CL_UUID_SIZE_KHR);
  return U;
}
} // namespace

TEST_CASE("cl_khr_extended_versioning: the platform and device list it; the "
          "OpenCL C numeric version matches CL_DEVICE_OPENCL_C_VERSION",
          "[device]") {
  cl_device_id D = clcpuDevice();
  REQUIRE(D);
  CHECK(hasExtension(D, "cl_khr_extended_versioning"));
  char Ext[1024] = {};
  REQUIRE(clGetPlatformInfo(clcpuPlatform(), CL_PLATFORM_EXTENSIONS, sizeof Ext,
                            Ext, nullptr) == CL_SUCCESS);
  CHECK(std::string(Ext).find("cl_khr_extended_versioning") !=
        std::string::npos);
  cl_version_khr V =
      deviceInfo<cl_version_khr>(D, CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR);
  // "OpenCL C <major>.<minor> ..."
  std::string S = deviceString(D, CL_DEVICE_OPENCL_C_VERSION);
  CHECK(S.rfind("OpenCL C " + std::to_string(CL_VERSION_MAJOR_KHR(V)) + "." +
                    std::to_string(CL_VERSION_MINOR_KHR(V)) + " ",
                0) == 0);
  CHECK(deviceInfo<cl_version_khr>(D, CL_DEVICE_NUMERIC_VERSION_KHR) ==
        CL_MAKE_VERSION_KHR(3, 0, 0));
}

TEST_CASE("cl_khr_device_uuid: stable UUIDs, one per device (sub-devices "
          "differ), one per driver; no LUID",
          "[device]") {
  cl_device_id D = clcpuDevice();
  REQUIRE(D);
  CHECK(hasExtension(D, "cl_khr_device_uuid"));
  std::vector<cl_uchar> Dev = uuid(D, CL_DEVICE_UUID_KHR);
  std::vector<cl_uchar> Drv = uuid(D, CL_DRIVER_UUID_KHR);
  CHECK(Dev == uuid(D, CL_DEVICE_UUID_KHR));
  CHECK(Dev != Drv);
  CHECK(Dev != std::vector<cl_uchar>(CL_UUID_SIZE_KHR, 0));
  CHECK(deviceInfo<cl_bool>(D, CL_DEVICE_LUID_VALID_KHR) == CL_FALSE);
  size_t Size = 0;
  REQUIRE(clGetDeviceInfo(D, CL_DEVICE_LUID_KHR, 0, nullptr, &Size) ==
          CL_SUCCESS);
  CHECK(Size == CL_LUID_SIZE_KHR);
  // A UUID buffer one byte short: CL_INVALID_VALUE.
  cl_uchar Short[CL_UUID_SIZE_KHR - 1];
  CHECK(clGetDeviceInfo(D, CL_DEVICE_UUID_KHR, sizeof Short, Short, nullptr) ==
        CL_INVALID_VALUE);
  if (deviceInfo<cl_uint>(D, CL_DEVICE_MAX_COMPUTE_UNITS) < 2)
    return;
  cl_device_partition_property Props[] = {
      CL_DEVICE_PARTITION_BY_COUNTS, 1, 1,
      CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  cl_device_id Subs[2] = {};
  REQUIRE(clCreateSubDevices(D, Props, 2, Subs, nullptr) == CL_SUCCESS);
  CHECK(uuid(Subs[0], CL_DEVICE_UUID_KHR) != Dev);
  CHECK(uuid(Subs[0], CL_DEVICE_UUID_KHR) != uuid(Subs[1], CL_DEVICE_UUID_KHR));
  CHECK(uuid(Subs[0], CL_DRIVER_UUID_KHR) == Drv);
  for (cl_device_id S : Subs)
    clReleaseDevice(S);
}

TEST_CASE("4.2: one CPU device; every OpenCL 3.0 device query answers",
          "[device]") {
  cl_platform_id P = clcpuPlatform();
  REQUIRE(P);
  cl_uint N = 0;
  REQUIRE(clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 0, nullptr, &N) == CL_SUCCESS);
  CHECK(N == 1);
  cl_device_id D = clcpuDevice();
  REQUIRE(D);
  for (cl_device_info Q : AllDeviceQueries) {
    INFO("param 0x" << std::hex << Q);
    size_t Size = 12345;
    REQUIRE(clGetDeviceInfo(D, Q, 0, nullptr, &Size) == CL_SUCCESS);
    std::vector<char> Buf(Size + 1);
    size_t Size2 = 0;
    CHECK(clGetDeviceInfo(D, Q, Size, Buf.data(), &Size2) == CL_SUCCESS);
    CHECK(Size2 == Size);
  }
  CHECK(deviceInfo<cl_device_type>(D, CL_DEVICE_TYPE) == CL_DEVICE_TYPE_CPU);
  CHECK(deviceInfo<cl_uint>(D, CL_DEVICE_MAX_COMPUTE_UNITS) >= 1);
  // CL_DEVICE_MEM_BASE_ADDR_ALIGN: at least the size of long16 in bits.
  CHECK(deviceInfo<cl_uint>(D, CL_DEVICE_MEM_BASE_ADDR_ALIGN) >= 1024);
}

TEST_CASE("4.2: bad device queries get the spec's error", "[device]") {
  cl_device_id D = clcpuDevice();
  cl_uint V;
  // CL_INVALID_DEVICE if device is not a valid device.
  CHECK(clGetDeviceInfo(nullptr, CL_DEVICE_TYPE, sizeof V, &V, nullptr) ==
        CL_INVALID_DEVICE);
  // CL_INVALID_VALUE if param_name is not one of the supported values.
  CHECK(clGetDeviceInfo(D, 0x7fff, sizeof V, &V, nullptr) == CL_INVALID_VALUE);
  // ... or param_value_size is < size of return type.
  CHECK(clGetDeviceInfo(D, CL_DEVICE_MAX_MEM_ALLOC_SIZE, 4, &V, nullptr) ==
        CL_INVALID_VALUE);
  cl_device_id Out;
  CHECK(clGetDeviceIDs(clcpuPlatform(), CL_DEVICE_TYPE_GPU, 1, &Out, nullptr) ==
        CL_DEVICE_NOT_FOUND);
  CHECK(clGetDeviceIDs(clcpuPlatform(), 0x4000000, 1, &Out, nullptr) ==
        CL_INVALID_DEVICE_TYPE);
  CHECK(clGetDeviceIDs(clcpuPlatform(), CL_DEVICE_TYPE_CPU, 0, &Out, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clGetDeviceIDs(clcpuPlatform(), CL_DEVICE_TYPE_CPU, 1, nullptr,
                       nullptr) == CL_INVALID_VALUE);
}

namespace {
/// CPUs sharing each L<Level> cache, read from sysfs: a source independent of
/// hwloc, which the driver uses.
std::set<std::string> sysfsCacheGroups(int Level) {
  std::set<std::string> Groups;
  for (int Cpu = 0;; ++Cpu) {
    std::string Base =
        "/sys/devices/system/cpu/cpu" + std::to_string(Cpu) + "/cache/";
    if (!std::ifstream(Base + "index0/level"))
      break;
    for (int Idx = 0; Idx < 8; ++Idx) {
      std::ifstream Lv(Base + "index" + std::to_string(Idx) + "/level");
      std::ifstream Ty(Base + "index" + std::to_string(Idx) + "/type");
      int L = 0;
      std::string T;
      if (!(Lv >> L) || !(Ty >> T))
        break;
      if (L != Level || T == "Instruction")
        continue;
      std::ifstream Sh(Base + "index" + std::to_string(Idx) +
                       "/shared_cpu_list");
      std::string S;
      Sh >> S;
      Groups.insert(S);
    }
  }
  return Groups;
}
} // namespace

TEST_CASE("4.3: partition by affinity domain matches the cache topology",
          "[device][partition]") {
  cl_device_id D = clcpuDevice();
  cl_device_affinity_domain Domains = deviceInfo<cl_device_affinity_domain>(
      D, CL_DEVICE_PARTITION_AFFINITY_DOMAIN);
  cl_uint CUs = deviceInfo<cl_uint>(D, CL_DEVICE_MAX_COMPUTE_UNITS);
  if (CUs < 2) {
    WARN("device has one compute unit and cannot be partitioned");
    return;
  }
  for (int Level : {1, 2, 3}) {
    cl_device_affinity_domain Dom =
        Level == 1   ? CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE
        : Level == 2 ? CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE
                     : CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE;
    auto Expected = sysfsCacheGroups(Level);
    INFO("L" << Level << " cache: " << Expected.size() << " instance(s)");
    if (Expected.size() == 1) {
      // One instance holds every CPU: the domain does not split the device,
      // so it is not advertised (CTS test_device_partition recurses on the
      // first sub-device while the domain is supported).
      CHECK(!(Domains & Dom));
      continue;
    }
    if (Expected.empty() || !(Domains & Dom))
      continue;
    cl_device_partition_property Props[] = {
        CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
        static_cast<cl_device_partition_property>(Dom), 0};
    cl_uint N = 0;
    REQUIRE(clCreateSubDevices(D, Props, 0, nullptr, &N) == CL_SUCCESS);
    CHECK(N == Expected.size());
    std::vector<cl_device_id> Subs(N);
    REQUIRE(clCreateSubDevices(D, Props, N, Subs.data(), nullptr) ==
            CL_SUCCESS);
    cl_uint Total = 0;
    for (cl_device_id S : Subs) {
      cl_uint SubCUs = deviceInfo<cl_uint>(S, CL_DEVICE_MAX_COMPUTE_UNITS);
      CHECK(SubCUs == CUs / Expected.size());
      Total += SubCUs;
      CHECK(deviceInfo<cl_device_id>(S, CL_DEVICE_PARENT_DEVICE) == D);
      cl_device_partition_property Type[3] = {};
      REQUIRE(clGetDeviceInfo(S, CL_DEVICE_PARTITION_TYPE, sizeof Type, Type,
                              nullptr) == CL_SUCCESS);
      CHECK(Type[0] == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
      CHECK(Type[1] == static_cast<cl_device_partition_property>(Dom));
      CHECK(clReleaseDevice(S) == CL_SUCCESS);
    }
    CHECK(Total == CUs);
  }
}

TEST_CASE("4.3: partition equally and by counts", "[device][partition]") {
  cl_device_id D = clcpuDevice();
  cl_uint CUs = deviceInfo<cl_uint>(D, CL_DEVICE_MAX_COMPUTE_UNITS);
  if (CUs < 2) {
    WARN("device has one compute unit and cannot be partitioned");
    return;
  }
  cl_device_partition_property Eq[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  std::vector<cl_device_id> Subs(CUs);
  cl_uint N = 0;
  REQUIRE(clCreateSubDevices(D, Eq, CUs, Subs.data(), &N) == CL_SUCCESS);
  CHECK(N == CUs);
  // A sub-device can be partitioned again (here: it cannot, one CU) and
  // reports its own compute units.
  CHECK(deviceInfo<cl_uint>(Subs[0], CL_DEVICE_MAX_COMPUTE_UNITS) == 1);
  // Retain/release counts on sub-devices.
  CHECK(clRetainDevice(Subs[0]) == CL_SUCCESS);
  CHECK(deviceInfo<cl_uint>(Subs[0], CL_DEVICE_REFERENCE_COUNT) == 2);
  CHECK(clReleaseDevice(Subs[0]) == CL_SUCCESS);
  for (cl_device_id S : Subs)
    CHECK(clReleaseDevice(S) == CL_SUCCESS);

  cl_device_partition_property Counts[] = {
      CL_DEVICE_PARTITION_BY_COUNTS, 1,
      static_cast<cl_device_partition_property>(CUs - 1),
      CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  cl_device_id Two[2];
  REQUIRE(clCreateSubDevices(D, Counts, 2, Two, &N) == CL_SUCCESS);
  CHECK(N == 2);
  CHECK(deviceInfo<cl_uint>(Two[1], CL_DEVICE_MAX_COMPUTE_UNITS) == CUs - 1);
  clReleaseDevice(Two[0]);
  clReleaseDevice(Two[1]);

  // Root devices: "the reference count is unchanged".
  CHECK(clRetainDevice(D) == CL_SUCCESS);
  CHECK(deviceInfo<cl_uint>(D, CL_DEVICE_REFERENCE_COUNT) == 1);
  CHECK(clReleaseDevice(D) == CL_SUCCESS);
}

TEST_CASE("4.3: bad partitions get the spec's error", "[device][partition]") {
  cl_device_id D = clcpuDevice();
  cl_uint CUs = deviceInfo<cl_uint>(D, CL_DEVICE_MAX_COMPUTE_UNITS);
  cl_device_id Out[64];
  cl_device_partition_property TooMany[] = {
      CL_DEVICE_PARTITION_BY_COUNTS,
      static_cast<cl_device_partition_property>(CUs + 1),
      CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  CHECK(clCreateSubDevices(D, TooMany, 64, Out, nullptr) ==
        CL_INVALID_DEVICE_PARTITION_COUNT);
  cl_device_partition_property Zero[] = {CL_DEVICE_PARTITION_EQUALLY, 0, 0};
  CHECK(clCreateSubDevices(D, Zero, 64, Out, nullptr) == CL_INVALID_VALUE);
  cl_device_partition_property Unknown[] = {0x9999, 1, 0};
  CHECK(clCreateSubDevices(D, Unknown, 64, Out, nullptr) == CL_INVALID_VALUE);
  CHECK(clCreateSubDevices(D, nullptr, 64, Out, nullptr) == CL_INVALID_VALUE);
  cl_device_partition_property Eq[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  CHECK(clCreateSubDevices(nullptr, Eq, 64, Out, nullptr) == CL_INVALID_DEVICE);
  if (CUs >= 2)
    // CL_INVALID_VALUE if out_devices is not NULL and num_devices is less
    // than the number of sub-devices created by the partition scheme.
    CHECK(clCreateSubDevices(D, Eq, 1, Out, nullptr) == CL_INVALID_VALUE);
}
