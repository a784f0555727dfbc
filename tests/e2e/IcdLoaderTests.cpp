// End-to-end: what the ICD loader needs from the driver (cl_khr_icd).

#include "Common.h"

#include <CL/cl_ext.h>
#include <catch2/catch.hpp>

TEST_CASE("cl_khr_icd: extension functions are found for the platform",
          "[icd]") {
  cl_platform_id P = clcpuPlatform();
  REQUIRE(P);
  void *Fn =
      clGetExtensionFunctionAddressForPlatform(P, "clIcdGetPlatformIDsKHR");
  REQUIRE(Fn);
  auto GetIDs = reinterpret_cast<clIcdGetPlatformIDsKHR_fn>(Fn);
  cl_uint N = 0;
  CHECK(GetIDs(0, nullptr, &N) == CL_SUCCESS);
  CHECK(N == 1);
  CHECK(clGetExtensionFunctionAddressForPlatform(P, "clNoSuchFunctionKHR") ==
        nullptr);
}

TEST_CASE("cl_khr_icd: an unimplemented entry point fails cleanly", "[icd]") {
  // clCreateFromGLBuffer: cl_khr_gl_sharing is not advertised.
  cl_device_id D = clcpuDevice();
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, nullptr);
  REQUIRE(C);
  cl_int Err = CL_SUCCESS;
  // Through the loader, which forwards by the dispatch table in the handle.
  using Fn = cl_mem(CL_API_CALL *)(cl_context, cl_mem_flags, cl_uint, cl_int *);
  auto F = extensionFunction<Fn>("clCreateFromGLBuffer");
  REQUIRE(F);
  CHECK(F(C, 0, 0, &Err) == nullptr);
  CHECK(Err == CL_INVALID_OPERATION);
  clReleaseContext(C);
}
