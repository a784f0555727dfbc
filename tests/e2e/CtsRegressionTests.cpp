// Regressions found by the Khronos OpenCL CTS (docs/CONFORMANCE.md): each
// case names the spec section and the CTS binary/sub-test that failed.

#include "Common.h"
#include "SchedulerCommon.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
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

TEST_CASE("4.2 / 4.3.1: every advertised affinity domain partitions the "
          "device, and every successful partition makes smaller devices (CTS "
          "test_buffers/buffer_migrate failed, test_device_partition/"
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
      // A domain is advertised only where it splits the device.
      if (Depth == 0)
        CHECK(Err == CL_SUCCESS);
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

TEST_CASE("6.12: __OPENCL_VERSION__ is the device's OpenCL version "
          "(CTS test_basic/kernel_preprocessor_macros)",
          "[cts]") {
  sched::Env E;
  char Version[128] = {};
  REQUIRE(clGetDeviceInfo(E.D, CL_DEVICE_VERSION, sizeof Version, Version,
                          nullptr) == CL_SUCCESS);
  int Major = 0, Minor = 0;
  REQUIRE(std::sscanf(Version, "OpenCL %d.%d", &Major, &Minor) == 2);
  for (const char *Std : {"-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0"}) {
    INFO(Std);
    cl_kernel K = E.kernel(R"(
      kernel void v(global int *out) {
      #ifdef __OPENCL_VERSION__
        out[0] = __OPENCL_VERSION__;
      #else
        out[0] = -1;
      #endif
        out[1] = __OPENCL_C_VERSION__;
      })",
                           "v", Std);
    cl_mem Out = E.buffer(std::vector<int>(2, 0));
    E.arg(K, 0, Out);
    size_t G = 1;
    REQUIRE(E.run(K, 1, &G, nullptr) == CL_SUCCESS);
    std::vector<int> R = E.read<int>(Out, 2);
    CHECK(R[0] == Major * 100 + Minor * 10);
    CHECK(R[1] == (Std[10] - '0') * 100 + (Std[12] - '0') * 10);
  }
}

TEST_CASE("6.9: a kernel calling another kernel runs it as a function of the "
          "caller's work-item (CTS test_basic/kernel_call_kernel_function)",
          "[cts]") {
  sched::Env E;
  // The callee uses work-item functions and a __local variable of its own.
  cl_kernel K = E.kernel(R"(
    kernel void inner(global int *out) {
      local int tile[64];
      size_t l = get_local_id(0);
      tile[l] = (int)get_global_id(0) * 2;
      barrier(CLK_LOCAL_MEM_FENCE);
      out[get_global_id(0)] = tile[get_local_size(0) - 1 - l];
    }
    kernel void outer(global int *out, global int *plain) {
      inner(out);
      plain[get_global_id(0)] = (int)get_global_id(0) + 1;
    })",
                         "outer");
  const size_t N = 256, L = 64;
  cl_mem Out = E.buffer(std::vector<int>(N, 0));
  cl_mem Plain = E.buffer(std::vector<int>(N, 0));
  E.arg(K, 0, Out);
  E.arg(K, 1, Plain);
  REQUIRE(E.run(K, 1, &N, &L) == CL_SUCCESS);
  std::vector<int> R = E.read<int>(Out, N), P = E.read<int>(Plain, N);
  for (size_t I = 0; I < N; ++I) {
    size_t Group = I / L * L, Mirror = Group + (L - 1 - I % L);
    CHECK(R[I] == static_cast<int>(Mirror * 2));
    CHECK(P[I] == static_cast<int>(I + 1));
  }
}

TEST_CASE("6.11.2 / 5.9.3: CL_KERNEL_ATTRIBUTES lists vec_type_hint with the "
          "OpenCL C type name (CTS test_api/kernel_attributes)",
          "[cts]") {
  sched::Env E;
  const char *Types[] = {"char",   "uchar2",  "short3", "ushort4",
                         "int8",   "uint16",  "long",   "ulong4",
                         "ulong8", "ulong16", "float4", "double2"};
  for (const char *T : Types) {
    INFO(T);
    std::string Src = std::string("kernel __attribute__((vec_type_hint(") + T +
                      "))) void k(global int *p) { p[0] = 1; }";
    cl_kernel K = E.kernel(Src, "k");
    char Attrs[256] = {};
    REQUIRE(clGetKernelInfo(K, CL_KERNEL_ATTRIBUTES, sizeof Attrs, Attrs,
                            nullptr) == CL_SUCCESS);
    CHECK(std::string(Attrs) == std::string("vec_type_hint(") + T + ")");
  }
}

TEST_CASE("5.8.1: a program created from a binary belongs to the devices of "
          "its device_list only (CTS test_api/binary_create)",
          "[cts]") {
  cl_device_id Root = clcpuDevice();
  REQUIRE(Root);
  if (deviceInfo<cl_uint>(Root, CL_DEVICE_MAX_COMPUTE_UNITS) < 2)
    return; // needs two sub-devices
  cl_device_partition_property One[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_device_id Sub[2] = {};
  REQUIRE(clCreateSubDevices(Root, One, 2, Sub, nullptr) == CL_SUCCESS);
  cl_int Err = -1;
  cl_context C = clCreateContext(nullptr, 2, Sub, nullptr, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  const char *Src = "kernel void k(global int *p) { p[0] = 7; }";
  cl_program P = clCreateProgramWithSource(C, 1, &Src, nullptr, &Err);
  REQUIRE(clBuildProgram(P, 0, nullptr, "", nullptr, nullptr) == CL_SUCCESS);
  size_t Sizes[2] = {};
  REQUIRE(clGetProgramInfo(P, CL_PROGRAM_BINARY_SIZES, sizeof Sizes, Sizes,
                           nullptr) == CL_SUCCESS);
  std::vector<unsigned char> Bin0(Sizes[0]), Bin1(Sizes[1]);
  unsigned char *Bins[2] = {Bin0.data(), Bin1.data()};
  REQUIRE(clGetProgramInfo(P, CL_PROGRAM_BINARIES, sizeof Bins, Bins,
                           nullptr) == CL_SUCCESS);

  const unsigned char *B = Bin1.data();
  cl_program FromBin =
      clCreateProgramWithBinary(C, 1, &Sub[1], &Sizes[1], &B, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  cl_uint N = 0;
  CHECK(clGetProgramInfo(FromBin, CL_PROGRAM_NUM_DEVICES, sizeof N, &N,
                         nullptr) == CL_SUCCESS);
  CHECK(N == 1);
  cl_device_id Devs[2] = {};
  size_t Ret = 0;
  CHECK(clGetProgramInfo(FromBin, CL_PROGRAM_DEVICES, sizeof Devs, Devs,
                         &Ret) == CL_SUCCESS);
  CHECK(Ret == sizeof(cl_device_id));
  CHECK(Devs[0] == Sub[1]);
  // CL_INVALID_DEVICE: device_list names a device not of the program.
  CHECK(clBuildProgram(FromBin, 1, &Sub[0], "", nullptr, nullptr) ==
        CL_INVALID_DEVICE);
  REQUIRE(clBuildProgram(FromBin, 1, &Sub[1], "", nullptr, nullptr) ==
          CL_SUCCESS);
  cl_kernel K = clCreateKernel(FromBin, "k", &Err);
  REQUIRE(Err == CL_SUCCESS);
  size_t WG = 0;
  // clGetKernelWorkGroupInfo: CL_INVALID_DEVICE if device is not in the list
  // of devices associated with kernel; NULL is fine with one device.
  CHECK(clGetKernelWorkGroupInfo(K, Sub[0], CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof WG, &WG, nullptr) == CL_INVALID_DEVICE);
  CHECK(clGetKernelWorkGroupInfo(K, nullptr, CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof WG, &WG, nullptr) == CL_SUCCESS);
  cl_mem M = clCreateBuffer(C, CL_MEM_READ_WRITE, 4, nullptr, &Err);
  REQUIRE(clSetKernelArg(K, 0, sizeof M, &M) == CL_SUCCESS);
  cl_command_queue Q0 = clCreateCommandQueue(C, Sub[0], 0, &Err);
  cl_command_queue Q1 = clCreateCommandQueue(C, Sub[1], 0, &Err);
  size_t G = 1;
  // clEnqueueNDRangeKernel: CL_INVALID_PROGRAM_EXECUTABLE if there is no
  // successfully built program executable available for device associated
  // with command_queue.
  CHECK(clEnqueueNDRangeKernel(Q0, K, 1, nullptr, &G, nullptr, 0, nullptr,
                               nullptr) == CL_INVALID_PROGRAM_EXECUTABLE);
  CHECK(clEnqueueNDRangeKernel(Q1, K, 1, nullptr, &G, nullptr, 0, nullptr,
                               nullptr) == CL_SUCCESS);
  int V = 0;
  CHECK(clEnqueueReadBuffer(Q1, M, CL_TRUE, 0, 4, &V, 0, nullptr, nullptr) ==
        CL_SUCCESS);
  CHECK(V == 7);
  clReleaseCommandQueue(Q0);
  clReleaseCommandQueue(Q1);
  clReleaseMemObject(M);
  clReleaseKernel(K);
  clReleaseProgram(FromBin);
  clReleaseProgram(P);
  clReleaseContext(C);
  clReleaseDevice(Sub[0]);
  clReleaseDevice(Sub[1]);
}

TEST_CASE("4.2: CL_DEVICE_DOUBLE_FP_CONFIG has the OpenCL 1.0 minimum with "
          "directed rounding (CTS test_api/min_max_double_fp_config)",
          "[cts]") {
  cl_device_id D = clcpuDevice();
  REQUIRE(D);
  auto Config = deviceInfo<cl_device_fp_config>(D, CL_DEVICE_DOUBLE_FP_CONFIG);
  const cl_device_fp_config Min = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST |
                                  CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF |
                                  CL_FP_INF_NAN | CL_FP_DENORM;
  CHECK((Config & Min) == Min);
}

TEST_CASE("6.15.7: normalize of vectors near FLT_MAX and near zero "
          "(CTS test_geometrics/geom_normalize)",
          "[cts]") {
  sched::Env E;
  cl_kernel K = E.kernel(R"(
    kernel void n(global const float2 *in, global float2 *out) {
      out[get_global_id(0)] = normalize(in[get_global_id(0)]);
    })",
                         "n");
  // Inputs whose length overflows, whose squares underflow, and a mix.
  std::vector<float> In = {-3.07059e+38f, 2.23992e+38f, 3e-30f, -4e-30f,
                           1e-45f,        0.0f,         1e30f,  1e-30f,
                           0.0f,          -0.0f,        3.0f,   4.0f};
  cl_mem MIn = E.buffer(In), MOut = E.buffer(std::vector<float>(In.size()));
  E.arg(K, 0, MIn);
  E.arg(K, 1, MOut);
  size_t G = In.size() / 2;
  REQUIRE(E.run(K, 1, &G, nullptr) == CL_SUCCESS);
  std::vector<float> R = E.read<float>(MOut, In.size());
  for (size_t I = 0; I < In.size(); I += 2) {
    long double X = In[I], Y = In[I + 1], L = std::sqrt(X * X + Y * Y);
    INFO("input " << In[I] << ", " << In[I + 1]);
    if (L == 0) {
      CHECK(R[I] == In[I]);
      CHECK(R[I + 1] == In[I + 1]);
      continue;
    }
    // 7.4: normalize within 2 + n ulp; 1e-6 relative is far looser than
    // the bug (results of 0) and far tighter than any wrong scaling.
    CHECK(std::fabs(R[I] - static_cast<float>(X / L)) <= 1e-6);
    CHECK(std::fabs(R[I + 1] - static_cast<float>(Y / L)) <= 1e-6);
  }
}

TEST_CASE("6.3: integer division by zero and INT_MIN / -1 give a value, "
          "not a trap (CTS test_integer_ops/long_math: SIGFPE)",
          "[cts]") {
  sched::Env E;
  cl_kernel K = E.kernel(R"(
    kernel void d(global const long *x, global const long *y, global long *q,
                  global long *r, global const int *a, global const int *b,
                  global int *qi, global uint *qu) {
      size_t i = get_global_id(0);
      q[i] = x[i] / y[i];
      r[i] = x[i] % y[i];
      int4 va = vload4(i, a), vb = vload4(i, b);
      vstore4(va / vb, i, qi);
      qu[i] = (uint)a[i] / (uint)b[i];
    })",
                         "d");
  const long Min = std::numeric_limits<long>::min();
  const int IMin = std::numeric_limits<int>::min();
  std::vector<long> X = {7, Min, 5, -9}, Y = {0, -1, 2, 0};
  std::vector<int> A = {1, IMin, 8, 3, 4, 5, 6, 7, 0, 0, 1, 2, 3, 4, 5, 6},
                   B = {0, -1, 2, 0, 1, 1, 1, 1, 0, 3, 0, 1, 1, 1, 1, 1};
  cl_mem MX = E.buffer(X), MY = E.buffer(Y),
         MQ = E.buffer(std::vector<long>(4)),
         MR = E.buffer(std::vector<long>(4)), MA = E.buffer(A),
         MB = E.buffer(B), MQI = E.buffer(std::vector<int>(16)),
         MQU = E.buffer(std::vector<unsigned>(4));
  cl_mem Args[] = {MX, MY, MQ, MR, MA, MB, MQI, MQU};
  for (cl_uint I = 0; I < 8; ++I)
    E.arg(K, I, Args[I]);
  size_t G = 4;
  REQUIRE(E.run(K, 1, &G, nullptr) == CL_SUCCESS);
  std::vector<long> Q = E.read<long>(MQ, 4), R = E.read<long>(MR, 4);
  std::vector<int> QI = E.read<int>(MQI, 16);
  // The defined cases are exact; the others only had to not trap.
  CHECK(Q[2] == 2);
  CHECK(R[2] == 1);
  CHECK(QI[2] == 4);
  CHECK(QI[4] == 4);
  CHECK(QI[9] == 0);
}

TEST_CASE("5.6.1 / 5.9.5: a USE_HOST_PTR buffer larger than its SVM "
          "allocation, and clearing a kernel's SVM pointers (CTS test_svm "
          "allocate_shared_buffer_negative, set_kernel_exec_info_svm_ptrs)",
          "[cts]") {
  sched::Env E;
  const size_t Size = 4096;
  void *P = clSVMAlloc(E.C, CL_MEM_READ_WRITE, Size, 0);
  REQUIRE(P);
  cl_int Err = CL_SUCCESS;
  // CL_INVALID_BUFFER_SIZE if CL_MEM_USE_HOST_PTR is set in flags and
  // host_ptr is a pointer returned by clSVMAlloc and size is greater than
  // the size passed to clSVMAlloc.
  cl_mem Big = clCreateBuffer(E.C, CL_MEM_USE_HOST_PTR, 2 * Size, P, &Err);
  CHECK(Big == nullptr);
  CHECK(Err == CL_INVALID_BUFFER_SIZE);
  cl_mem Fits = clCreateBuffer(E.C, CL_MEM_USE_HOST_PTR, Size, P, &Err);
  CHECK(Err == CL_SUCCESS);
  if (Fits)
    clReleaseMemObject(Fits);

  cl_kernel K = E.kernel("kernel void k(global int *p) { p[0] = 1; }", "k");
  void *Ptrs[] = {P};
  CHECK(clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof Ptrs,
                            Ptrs) == CL_SUCCESS);
  CHECK(clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr) ==
        CL_SUCCESS);
  // A NULL list with a size is still an error.
  CHECK(clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof Ptrs,
                            nullptr) == CL_INVALID_VALUE);
  clSVMFree(E.C, P);
}

TEST_CASE("6.15.12 (C11 atomics): the _explicit forms without a scope, on "
          "generic pointers under OpenCL C 3.0 (CTS test_c11_atomics: "
          "builds failed once generic address space was advertised)",
          "[cts]") {
  sched::Env E;
  cl_kernel K = E.kernel(R"(
    kernel void k(volatile global atomic_int *c, volatile global atomic_int *s,
                  volatile global atomic_flag *f, global int *out) {
      atomic_fetch_add_explicit(c, 1, memory_order_relaxed);
      atomic_fetch_max_explicit(c + 1, (int)get_global_id(0),
                                memory_order_acq_rel);
      if (get_global_id(0) == 0) {
        atomic_store_explicit(s, 7, memory_order_release);
        out[0] = atomic_load_explicit(s, memory_order_acquire);
        out[1] = atomic_exchange_explicit(s, 9, memory_order_seq_cst);
        int expected = 9;
        out[2] = atomic_compare_exchange_strong_explicit(
            s, &expected, 11, memory_order_seq_cst, memory_order_relaxed);
        out[3] = atomic_compare_exchange_weak_explicit(
            s, &expected, 13, memory_order_seq_cst, memory_order_relaxed);
        out[4] = expected;
        out[5] = atomic_flag_test_and_set_explicit(f, memory_order_seq_cst);
        atomic_flag_clear_explicit(f, memory_order_seq_cst);
        out[6] = atomic_flag_test_and_set_explicit(f, memory_order_seq_cst);
      }
    })",
                         "k", "-cl-std=CL3.0");
  cl_mem C = E.buffer(std::vector<int>(2)), S = E.buffer(std::vector<int>(1)),
         F = E.buffer(std::vector<int>(1)), Out = E.buffer(std::vector<int>(7));
  E.arg(K, 0, C);
  E.arg(K, 1, S);
  E.arg(K, 2, F);
  E.arg(K, 3, Out);
  const size_t G = 1000;
  REQUIRE(E.run(K, 1, &G, nullptr) == CL_SUCCESS);
  std::vector<int> R = E.read<int>(C, 2), O = E.read<int>(Out, 7);
  CHECK(R[0] == 1000);
  CHECK(R[1] == 999);
  CHECK(O[0] == 7);
  CHECK(O[1] == 7);
  CHECK(O[2] == 1);  // 9 == 9: stored 11
  CHECK(O[3] == 0);  // 11 != 9: failed,
  CHECK(O[4] == 11); // expected updated
  CHECK(O[5] == 0);
  CHECK(O[6] == 0);
}

TEST_CASE("3.3.5 (independent forward progress): compare-and-swap loops that "
          "retry thousands of times, and a work-item waiting for a later "
          "one, finish (CTS test_c11_atomics ran out of time: one fiber "
          "switch per round)",
          "[cts][fibers]") {
  // The shape of the CTS's atomic_compare_exchange_strong kernel: every
  // work-item of one 1024-item group runs a fixed number of rounds and
  // goes on until one swap succeeded; the loop's exit reads the swap's
  // result, so the compiler makes it yield (compiler/Barriers.cpp).
  const char *Src = R"(
kernel void cas(volatile global atomic_int *dest, global int *old,
                global int *wins, int rounds) {
  uint tid = get_global_id(0);
  int expected, previous, won = 0;
  old[tid] = tid;
  expected = tid;
  if (atomic_compare_exchange_strong(&dest[0], &expected, old[tid]) ||
      expected == tid)
    old[tid] = -1;
  else
    for (int i = 0; i < rounds || won == 0; i++) {
      previous = expected;
      if (atomic_compare_exchange_strong(&dest[0], &expected, old[tid])) {
        old[tid] = expected;
        won++;
      } else if (previous == expected) {
        old[tid] = -2; // a spurious failure: not allowed for _strong
        break;
      }
    }
  wins[tid] = won;
}
// Work-item 0 waits for the group's last work-item, which runs after it.
kernel void wait_last(volatile global atomic_int *flag, global int *out) {
  int lid = get_local_id(0), n = get_local_size(0);
  if (lid == 0) {
    int spins = 0;
    while (atomic_load(flag) == 0)
      ++spins;
    out[0] = spins >= 0;
  }
  if (lid == n - 1)
    atomic_store(flag, 1);
}
)";
  sched::Env E;
  cl_program P = E.build(Src, "-cl-std=CL3.0");
  const int N = 1024, Rounds = 2000;
  // dest starts at a value no work-item id has, so the first swap fails.
  cl_mem Dest = E.buffer(std::vector<int>{-5});
  cl_mem Old = E.buffer(std::vector<int>(N, 0));
  cl_mem Wins = E.buffer(std::vector<int>(N, 0));
  E.launch(P, "cas", N, N, Dest, Old, Wins, Rounds);
  std::vector<int> W = E.read<int>(Wins, N);
  long Total = 0;
  size_t None = 0;
  for (int X : W) {
    Total += X;
    None += X == 0;
  }
  CHECK(None == 0); // every work-item's loop ran until it won
  CHECK(Total >= N);
  // Each success exchanged old[tid] with dest, so dest and old[] together
  // still hold -5 and every work-item id once (how the CTS checks it; an
  // unexpected success or a spurious failure would leave -1 or -2).
  std::vector<int> All = E.read<int>(Old, N);
  All.push_back(E.read<int>(Dest, 1)[0]);
  std::sort(All.begin(), All.end());
  std::vector<int> Want = {-5};
  for (int I = 0; I < N; ++I)
    Want.push_back(I);
  CHECK(All == Want);

  cl_mem Flag = E.buffer(std::vector<int>{0});
  cl_mem Out = E.buffer(std::vector<int>{0});
  E.run(P, "wait_last", {Flag, Out}, 256, 256);
  CHECK(E.read<int>(Out, 1)[0] == 1);
}
