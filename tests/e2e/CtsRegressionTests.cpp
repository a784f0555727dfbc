// Regressions found by the Khronos OpenCL CTS (docs/CONFORMANCE.md): each
// case names the spec section and the CTS binary/sub-test that failed.

#include "Common.h"

#include <catch2/catch.hpp>

#include <vector>

TEST_CASE("4.2: clGetDeviceIDs rejects device_type 0 "
          "(CTS test_api/negative_get_device_ids)",
          "[cts]") {
  cl_platform_id P = clcpuPlatform();
  REQUIRE(P);
  cl_device_id D = nullptr;
  cl_uint N = 0;
  // CL_INVALID_DEVICE_TYPE if device_type is not a valid value: 0 names no
  // device type at all.
  CHECK(clGetDeviceIDs(P, 0, 1, &D, &N) == CL_INVALID_DEVICE_TYPE);
  CHECK(clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 1, &D, &N) == CL_SUCCESS);
}

TEST_CASE("4.4: clCreateContextFromType rejects device_type 0 "
          "(CTS test_api/negative_create_context_from_type)",
          "[cts]") {
  cl_context_properties Props[] = {
      CL_CONTEXT_PLATFORM,
      reinterpret_cast<cl_context_properties>(clcpuPlatform()), 0};
  cl_int Err = CL_SUCCESS;
  CHECK(clCreateContextFromType(Props, 0, nullptr, nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_DEVICE_TYPE);
  cl_context C = clCreateContextFromType(Props, CL_DEVICE_TYPE_CPU, nullptr,
                                         nullptr, &Err);
  CHECK(Err == CL_SUCCESS);
  if (C)
    clReleaseContext(C);
}

TEST_CASE("4.3.1: CL_DEVICE_PARTITION_EQUALLY by every compute unit cannot "
          "partition further; counts out of range (CTS "
          "test_api/negative_create_sub_devices)",
          "[cts]") {
  cl_device_id D = clcpuDevice();
  REQUIRE(D);
  cl_uint CUs = deviceInfo<cl_uint>(D, CL_DEVICE_MAX_COMPUTE_UNITS);
  REQUIRE(CUs >= 1);
  std::vector<cl_device_id> Out(CUs);
  cl_uint N = 0;
  // CL_DEVICE_PARTITION_FAILED if the partition name is supported by the
  // implementation but in_device could not be further partitioned.
  cl_device_partition_property All[] = {
      CL_DEVICE_PARTITION_EQUALLY,
      static_cast<cl_device_partition_property>(CUs), 0};
  CHECK(clCreateSubDevices(D, All, CUs, Out.data(), &N) ==
        CL_DEVICE_PARTITION_FAILED);
  CHECK(clCreateSubDevices(D, All, 0, nullptr, &N) ==
        CL_DEVICE_PARTITION_FAILED);
  // CL_INVALID_DEVICE_PARTITION_COUNT if the total number of compute units
  // requested exceeds CL_DEVICE_MAX_COMPUTE_UNITS for in_device, or if the
  // number requested for one or more sub-devices is less than zero.
  cl_device_partition_property TooMany[] = {
      CL_DEVICE_PARTITION_EQUALLY,
      static_cast<cl_device_partition_property>(CUs + 1), 0};
  CHECK(clCreateSubDevices(D, TooMany, CUs + 1, Out.data(), &N) ==
        CL_INVALID_DEVICE_PARTITION_COUNT);
  cl_device_partition_property Negative[] = {CL_DEVICE_PARTITION_EQUALLY, -1,
                                             0};
  CHECK(clCreateSubDevices(D, Negative, CUs, Out.data(), &N) ==
        CL_INVALID_DEVICE_PARTITION_COUNT);
  // 0 is not a valid count.
  cl_device_partition_property Zero[] = {CL_DEVICE_PARTITION_EQUALLY, 0, 0};
  CHECK(clCreateSubDevices(D, Zero, CUs, Out.data(), &N) == CL_INVALID_VALUE);
  if (CUs >= 2) {
    // A smaller count still partitions.
    cl_device_partition_property One[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    REQUIRE(clCreateSubDevices(D, One, CUs, Out.data(), &N) == CL_SUCCESS);
    CHECK(N == CUs);
    for (cl_uint I = 0; I < N; ++I)
      clReleaseDevice(Out[I]);
  }
}

TEST_CASE("4.3.1: every successful affinity-domain partition makes smaller "
          "devices (CTS test_device_partition/"
          "partition_by_affinity_domain_numa hung)",
          "[cts]") {
  cl_device_id D = clcpuDevice();
  REQUIRE(D);
  cl_device_affinity_domain Domains = deviceInfo<cl_device_affinity_domain>(
      D, CL_DEVICE_PARTITION_AFFINITY_DOMAIN);
  for (cl_device_affinity_domain Dom :
       {CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE,
        CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
        CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE,
        CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE}) {
    if (!(Domains & Dom))
      continue;
    INFO("affinity domain " << Dom);
    cl_device_partition_property Props[] = {
        CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
        static_cast<cl_device_partition_property>(Dom), 0};
    // Like the CTS: partition, then partition the first sub-device again,
    // until the device reports CL_DEVICE_PARTITION_FAILED (or no longer
    // supports partitioning). Each level must have fewer compute units.
    cl_device_id Cur = D;
    std::vector<cl_device_id> Held;
    for (int Depth = 0;; ++Depth) {
      REQUIRE(Depth < 64);
      cl_uint CUs = deviceInfo<cl_uint>(Cur, CL_DEVICE_MAX_COMPUTE_UNITS);
      cl_uint N = 0;
      cl_int Err = clCreateSubDevices(Cur, Props, 0, nullptr, &N);
      if (Err != CL_SUCCESS) {
        CHECK((Err == CL_DEVICE_PARTITION_FAILED || Err == CL_INVALID_VALUE));
        break;
      }
      CHECK(N >= 2);
      std::vector<cl_device_id> Subs(N);
      REQUIRE(clCreateSubDevices(Cur, Props, N, Subs.data(), nullptr) ==
              CL_SUCCESS);
      for (cl_device_id S : Subs)
        CHECK(deviceInfo<cl_uint>(S, CL_DEVICE_MAX_COMPUTE_UNITS) < CUs);
      for (cl_uint I = 1; I < N; ++I)
        clReleaseDevice(Subs[I]);
      Held.push_back(Subs[0]);
      Cur = Subs[0];
    }
    for (cl_device_id S : Held)
      clReleaseDevice(S);
  }
}

TEST_CASE("5.9.2: a buffer set as a kernel argument is freed when the "
          "application releases it (CTS test_api/"
          "retain_mem_object_set_kernel_arg)",
          "[cts][kernel]") {
  cl_device_id D = clcpuDevice();
  cl_int Err = 0;
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  const char *Src = "kernel void k(global int *p) { p[0] = 1; }";
  cl_program P = clCreateProgramWithSource(C, 1, &Src, nullptr, &Err);
  REQUIRE(clBuildProgram(P, 1, &D, "", nullptr, nullptr) == CL_SUCCESS);
  cl_kernel K = clCreateKernel(P, "k", &Err);
  REQUIRE(Err == CL_SUCCESS);
  cl_mem B = clCreateBuffer(C, CL_MEM_READ_WRITE, 64, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  bool Destroyed = false;
  REQUIRE(clSetMemObjectDestructorCallback(
              B, [](cl_mem, void *U) { *static_cast<bool *>(U) = true; },
              &Destroyed) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(K, 0, sizeof B, &B) == CL_SUCCESS);
  REQUIRE(clReleaseMemObject(B) == CL_SUCCESS);
  CHECK(Destroyed);
  clReleaseKernel(K);
  clReleaseProgram(P);
  clReleaseContext(C);
}
