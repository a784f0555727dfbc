// End-to-end: platform queries through the ICD loader (OpenCL 3.0 API spec,
// 4.1 "Querying Platform Info").

#include "Common.h"

#include <catch2/catch.hpp>

#include <cstring>

TEST_CASE("4.1: the loader finds the clcpu platform", "[platform]") {
  cl_platform_id P = clcpuPlatform();
  REQUIRE(P != nullptr);
  char Buf[256];
  REQUIRE(clGetPlatformInfo(P, CL_PLATFORM_VERSION, sizeof Buf, Buf, nullptr) ==
          CL_SUCCESS);
  CHECK(std::strncmp(Buf, "OpenCL 3.0 ", 11) == 0);
  cl_version V = 0;
  REQUIRE(clGetPlatformInfo(P, CL_PLATFORM_NUMERIC_VERSION, sizeof V, &V,
                            nullptr) == CL_SUCCESS);
  CHECK(CL_VERSION_MAJOR(V) == 3);
}

TEST_CASE("4.1: every platform query answers", "[platform]") {
  cl_platform_id P = clcpuPlatform();
  REQUIRE(P);
  for (cl_platform_info Q :
       {CL_PLATFORM_PROFILE, CL_PLATFORM_VERSION, CL_PLATFORM_NUMERIC_VERSION,
        CL_PLATFORM_NAME, CL_PLATFORM_VENDOR, CL_PLATFORM_EXTENSIONS,
        CL_PLATFORM_EXTENSIONS_WITH_VERSION, CL_PLATFORM_HOST_TIMER_RESOLUTION,
        CL_PLATFORM_ICD_SUFFIX_KHR}) {
    INFO("param 0x" << std::hex << Q);
    size_t Size = 0;
    REQUIRE(clGetPlatformInfo(P, Q, 0, nullptr, &Size) == CL_SUCCESS);
    std::vector<char> Buf(Size + 1);
    CHECK(clGetPlatformInfo(P, Q, Size, Buf.data(), nullptr) == CL_SUCCESS);
  }
}

TEST_CASE("4.1: bad platform queries get the spec's error", "[platform]") {
  cl_platform_id P = clcpuPlatform();
  REQUIRE(P);
  char Buf[4];
  // CL_INVALID_VALUE if param_name is not one of the supported values.
  CHECK(clGetPlatformInfo(P, 0x1234, sizeof Buf, Buf, nullptr) ==
        CL_INVALID_VALUE);
  // ... or if size in bytes specified by param_value_size is < size of
  // return type.
  CHECK(clGetPlatformInfo(P, CL_PLATFORM_NAME, 2, Buf, nullptr) ==
        CL_INVALID_VALUE);
  // clGetPlatformIDs: CL_INVALID_VALUE if num_entries is zero and platforms
  // is not NULL, or both num_platforms and platforms are NULL.
  cl_platform_id Ps[1];
  CHECK(clGetPlatformIDs(0, Ps, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetPlatformIDs(1, nullptr, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("4.1: host timer is monotonic in ns", "[platform]") {
  cl_device_id D = clcpuDevice();
  cl_ulong A = 0, B = 0, Dev = 0;
  REQUIRE(clGetHostTimer(D, &A) == CL_SUCCESS);
  REQUIRE(clGetDeviceAndHostTimer(D, &Dev, &B) == CL_SUCCESS);
  CHECK(B >= A);
  CHECK(Dev > 0);
  CHECK(clGetHostTimer(D, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetHostTimer(nullptr, &A) == CL_INVALID_DEVICE);
}
