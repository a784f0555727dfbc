// End-to-end: pipes (__opencl_c_pipes) through the ICD loader. The host
// side (OpenCL 3.0 API spec 5.4: clCreatePipe, clGetPipeInfo, pipes as
// memory objects and kernel arguments, with their bad inputs) and every
// pipe built-in (OpenCL C 3.0 6.15.16, the sub-group ones of
// cl_khr_subgroups): single packets, reservations of a work-item, of a
// work-group and of a sub-group, the queries; producers and consumers in
// separate launches, on two queues at once, and in one NDRange, each
// checked for lost and duplicated packets.

#include "SchedulerCommon.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

using sched::Env;

namespace {
const char *const Std = "-cl-std=CL3.0";

/// A pipe of \p MaxPackets packets of \p PacketSize bytes, released with
/// the environment.
cl_mem makePipe(Env &E, cl_uint PacketSize, cl_uint MaxPackets) {
  cl_int Err = -1;
  cl_mem P = clCreatePipe(E.C, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS,
                          PacketSize, MaxPackets, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  REQUIRE(P);
  E.Mems.push_back(P);
  return P;
}

/// Checks that \p Got holds each of 0 .. N-1 exactly once.
void checkPermutation(std::vector<cl_int> Got, size_t N) {
  REQUIRE(Got.size() == N);
  std::sort(Got.begin(), Got.end());
  size_t Bad = 0;
  for (size_t I = 0; I < N; ++I)
    if (Got[I] != cl_int(I) && Bad++ < 4)
      FAIL_CHECK("sorted packet " << I << " is " << Got[I]);
  CHECK(Bad == 0);
}

/// Runs kernel "produce" of \p Prog with arguments \p ProdArgs on the
/// environment's queue and kernel "consume" with \p ConsArgs on a second
/// queue, at once: N work-items in groups of \p Local each, the producer
/// enqueued and flushed first; returns when both have finished.
void produceAndConsume(Env &E, cl_program Prog,
                       std::pair<cl_mem, cl_mem> ProdArgs,
                       std::pair<cl_mem, cl_mem> ConsArgs, size_t N,
                       size_t Local) {
  cl_int Err = -1;
  cl_command_queue Q2 = clCreateCommandQueue(E.C, E.D, 0, &Err);
  REQUIRE(Err == CL_SUCCESS);
  cl_kernel Prod = clCreateKernel(Prog, "produce", &Err);
  REQUIRE(Err == CL_SUCCESS);
  cl_kernel Cons = clCreateKernel(Prog, "consume", &Err);
  REQUIRE(Err == CL_SUCCESS);
  E.Kernels.push_back(Prod);
  E.Kernels.push_back(Cons);
  E.arg(Prod, 0, ProdArgs.first);
  E.arg(Prod, 1, ProdArgs.second);
  E.arg(Cons, 0, ConsArgs.first);
  E.arg(Cons, 1, ConsArgs.second);
  size_t G = N, L = Local;
  REQUIRE(clEnqueueNDRangeKernel(E.Q, Prod, 1, nullptr, &G, &L, 0, nullptr,
                                 nullptr) == CL_SUCCESS);
  REQUIRE(clFlush(E.Q) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(Q2, Cons, 1, nullptr, &G, &L, 0, nullptr,
                                 nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(Q2) == CL_SUCCESS);
  REQUIRE(clFinish(E.Q) == CL_SUCCESS);
  clReleaseCommandQueue(Q2);
}

const char *const SinglePackets = R"(
kernel void produce(write_only pipe int p, global int *status) {
  int g = get_global_id(0);
  status[g] = write_pipe(p, &g);
}
kernel void consume(read_only pipe int p, global int *out,
                    global int *status) {
  int g = get_global_id(0);
  int v = -1;
  status[g] = read_pipe(p, &v);
  out[g] = v;
}
)";
} // namespace

TEST_CASE("5.4 / 4.2: the device reports pipe support and its limits",
          "[pipe]") {
  cl_device_id D = clcpuDevice();
  REQUIRE(D);
  CHECK(deviceInfo<cl_bool>(D, CL_DEVICE_PIPE_SUPPORT) == CL_TRUE);
  // Device Queries table: the minimums for a device with pipe support.
  CHECK(deviceInfo<cl_uint>(D, CL_DEVICE_MAX_PIPE_ARGS) >= 16);
  CHECK(deviceInfo<cl_uint>(D, CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS) >= 1);
  CHECK(deviceInfo<cl_uint>(D, CL_DEVICE_PIPE_MAX_PACKET_SIZE) >= 1024);
  // "__opencl_c_pipes ... requires support for
  // __opencl_c_generic_address_space".
  CHECK(featureVersion(D, "__opencl_c_pipes") == CL_MAKE_VERSION(3, 0, 0));
  CHECK(deviceInfo<cl_bool>(D, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT) ==
        CL_TRUE);
}

TEST_CASE("5.4.1 / 5.4.2: clCreatePipe, clGetPipeInfo and clGetMemObjectInfo "
          "of a pipe",
          "[pipe]") {
  Env E;
  cl_int Err = -1;
  // "If the value specified for flags is 0, the default is used which is
  // CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS."
  for (cl_mem_flags F :
       {cl_mem_flags(0), cl_mem_flags(CL_MEM_READ_WRITE),
        cl_mem_flags(CL_MEM_HOST_NO_ACCESS),
        cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS)}) {
    cl_mem P = clCreatePipe(E.C, F, 16, 100, nullptr, &Err);
    REQUIRE(Err == CL_SUCCESS);
    E.Mems.push_back(P);
    cl_uint U = 0;
    size_t Size = 0;
    CHECK(clGetPipeInfo(P, CL_PIPE_PACKET_SIZE, sizeof U, &U, &Size) ==
          CL_SUCCESS);
    CHECK(U == 16);
    CHECK(Size == sizeof U);
    CHECK(clGetPipeInfo(P, CL_PIPE_MAX_PACKETS, sizeof U, &U, nullptr) ==
          CL_SUCCESS);
    CHECK(U == 100);
    // "If the properties argument specified in clCreatePipe used to create
    // pipe was NULL, the implementation must return a value of 0 in
    // param_value_size_ret."
    Size = 1;
    CHECK(clGetPipeInfo(P, CL_PIPE_PROPERTIES, 0, nullptr, &Size) ==
          CL_SUCCESS);
    CHECK(Size == 0);
    cl_mem_object_type T = 0;
    CHECK(clGetMemObjectInfo(P, CL_MEM_TYPE, sizeof T, &T, nullptr) ==
          CL_SUCCESS);
    CHECK(T == CL_MEM_OBJECT_PIPE);
    cl_context C = nullptr;
    CHECK(clGetMemObjectInfo(P, CL_MEM_CONTEXT, sizeof C, &C, nullptr) ==
          CL_SUCCESS);
    CHECK(C == E.C);
    size_t Bytes = 0;
    CHECK(clGetMemObjectInfo(P, CL_MEM_SIZE, sizeof Bytes, &Bytes, nullptr) ==
          CL_SUCCESS);
    CHECK(Bytes >= 16 * 100);
  }
  cl_mem P = makePipe(E, 4, 4);
  cl_uint U = 0;
  // clGetPipeInfo: CL_INVALID_VALUE if param_name is not valid, or if size
  // in bytes specified by param_value_size is < size of return type.
  CHECK(clGetPipeInfo(P, CL_MEM_SIZE, sizeof U, &U, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clGetPipeInfo(P, CL_PIPE_PACKET_SIZE, 1, &U, nullptr) ==
        CL_INVALID_VALUE);
  // CL_INVALID_MEM_OBJECT if pipe is a not a valid pipe object.
  cl_mem Buf = E.buffer(std::vector<cl_int>(4));
  CHECK(clGetPipeInfo(Buf, CL_PIPE_PACKET_SIZE, sizeof U, &U, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  CHECK(clGetPipeInfo(nullptr, CL_PIPE_PACKET_SIZE, sizeof U, &U, nullptr) ==
        CL_INVALID_MEM_OBJECT);
}

TEST_CASE("5.4.1: clCreatePipe refuses bad packet sizes, counts, flags and "
          "properties",
          "[pipe]") {
  Env E;
  cl_uint Max = deviceInfo<cl_uint>(E.D, CL_DEVICE_PIPE_MAX_PACKET_SIZE);
  auto Create = [&](cl_mem_flags F, cl_uint Size, cl_uint N,
                    const cl_pipe_properties *Props) {
    cl_int Err = CL_SUCCESS;
    cl_mem P = clCreatePipe(E.C, F, Size, N, Props, &Err);
    CHECK(P == nullptr);
    if (P)
      clReleaseMemObject(P);
    return Err;
  };
  // CL_INVALID_CONTEXT if context is not a valid context.
  cl_int Err = CL_SUCCESS;
  CHECK(clCreatePipe(nullptr, 0, 4, 4, nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_CONTEXT);
  // CL_INVALID_PIPE_SIZE if pipe_packet_size is 0 or the pipe_packet_size
  // exceeds CL_DEVICE_PIPE_MAX_PACKET_SIZE ... or if pipe_max_packets is 0.
  CHECK(Create(0, 0, 4, nullptr) == CL_INVALID_PIPE_SIZE);
  CHECK(Create(0, Max + 1, 4, nullptr) == CL_INVALID_PIPE_SIZE);
  CHECK(Create(0, 4, 0, nullptr) == CL_INVALID_PIPE_SIZE);
  // "Only CL_MEM_READ_WRITE and CL_MEM_HOST_NO_ACCESS can be specified when
  // creating a pipe object": CL_INVALID_VALUE for the others, the host
  // pointer flags among them (a pipe has no host pointer).
  for (cl_mem_flags F : std::initializer_list<cl_mem_flags>{
           CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_USE_HOST_PTR,
           CL_MEM_COPY_HOST_PTR, CL_MEM_ALLOC_HOST_PTR, CL_MEM_HOST_READ_ONLY,
           CL_MEM_HOST_WRITE_ONLY, cl_mem_flags(1) << 40}) {
    INFO("flags " << F);
    CHECK(Create(F, 4, 4, nullptr) == CL_INVALID_VALUE);
  }
  // "properties ... In OpenCL 3.0 it must be NULL."
  cl_pipe_properties Props[] = {0};
  CHECK(Create(0, 4, 4, Props) == CL_INVALID_VALUE);
  // More packets than an allocation may hold: the allocation fails, it
  // does not wrap.
  CHECK(Create(0, Max, 0xffffffffu, nullptr) ==
        CL_MEM_OBJECT_ALLOCATION_FAILURE);
}

TEST_CASE("5.9.2 / 5.2: pipes and buffers are not interchangeable", "[pipe]") {
  Env E;
  cl_kernel K = E.kernel(R"(
kernel void k(read_only pipe int p, global int *b) {
  int v;
  if (read_pipe(p, &v) == 0) b[0] = v;
})",
                         "k", "-cl-std=CL3.0 -cl-kernel-arg-info");
  cl_mem P = makePipe(E, 4, 8);
  cl_mem B = E.buffer(std::vector<cl_int>(8));
  // CL_INVALID_MEM_OBJECT for an argument declared to be a memory object
  // when the specified arg_value is not a valid memory object.
  CHECK(clSetKernelArg(K, 0, sizeof B, &B) == CL_INVALID_MEM_OBJECT);
  CHECK(clSetKernelArg(K, 1, sizeof P, &P) == CL_INVALID_MEM_OBJECT);
  cl_mem Null = nullptr;
  CHECK(clSetKernelArg(K, 0, sizeof Null, &Null) == CL_INVALID_MEM_OBJECT);
  // CL_INVALID_ARG_VALUE if arg_value specified is not a valid value.
  CHECK(clSetKernelArg(K, 0, sizeof P, nullptr) == CL_INVALID_ARG_VALUE);
  // CL_INVALID_ARG_SIZE if the argument is a memory object and arg_size !=
  // sizeof(cl_mem).
  CHECK(clSetKernelArg(K, 0, 4, &P) == CL_INVALID_ARG_SIZE);
  CHECK(clSetKernelArgSVMPointer(K, 0, B) == CL_INVALID_ARG_VALUE);
  CHECK(clSetKernelArg(K, 0, sizeof P, &P) == CL_SUCCESS);
  CHECK(clSetKernelArg(K, 1, sizeof B, &B) == CL_SUCCESS);
  // clGetKernelArgInfo: "CL_KERNEL_ARG_TYPE_PIPE ... if the argument is a
  // pipe", with its access qualifier.
  cl_kernel_arg_type_qualifier Q = 0;
  CHECK(clGetKernelArgInfo(K, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof Q, &Q,
                           nullptr) == CL_SUCCESS);
  CHECK(Q == CL_KERNEL_ARG_TYPE_PIPE);
  CHECK(clGetKernelArgInfo(K, 1, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof Q, &Q,
                           nullptr) == CL_SUCCESS);
  CHECK(Q == CL_KERNEL_ARG_TYPE_NONE);
  cl_kernel_arg_access_qualifier A = 0;
  CHECK(clGetKernelArgInfo(K, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof A, &A,
                           nullptr) == CL_SUCCESS);
  CHECK(A == CL_KERNEL_ARG_ACCESS_READ_ONLY);
  // Buffer commands: CL_INVALID_MEM_OBJECT if buffer is not a valid buffer
  // object.
  cl_int V[2] = {};
  CHECK(clEnqueueReadBuffer(E.Q, P, CL_TRUE, 0, 4, V, 0, nullptr, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  CHECK(clEnqueueWriteBuffer(E.Q, P, CL_TRUE, 0, 4, V, 0, nullptr, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  CHECK(clEnqueueCopyBuffer(E.Q, B, P, 0, 0, 4, 0, nullptr, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  cl_int Err = CL_SUCCESS;
  CHECK(clEnqueueMapBuffer(E.Q, P, CL_TRUE, CL_MAP_READ, 0, 4, 0, nullptr,
                           nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_MEM_OBJECT);
  cl_buffer_region R = {0, 4};
  CHECK(clCreateSubBuffer(P, 0, CL_BUFFER_CREATE_TYPE_REGION, &R, &Err) ==
        nullptr);
  CHECK(Err == CL_INVALID_MEM_OBJECT);
}

TEST_CASE("6.15.16.2: read_pipe and write_pipe of single packets; a full "
          "pipe refuses writes, an empty one reads",
          "[pipe]") {
  Env E;
  cl_program Prog = E.build(SinglePackets, Std);
  constexpr size_t Cap = 100, Writers = 130;
  cl_mem P = makePipe(E, sizeof(cl_int), Cap);
  cl_mem WS = E.buffer(std::vector<cl_int>(Writers, 7));
  E.launch(Prog, "produce", Writers, 10, P, WS);
  // "write_pipe ... returns 0 if write_pipe is successful and a negative
  // value if the pipe is full": exactly Cap writes succeed.
  std::vector<cl_int> S = E.read<cl_int>(WS, Writers);
  std::vector<cl_int> Written;
  for (size_t I = 0; I < Writers; ++I) {
    CHECK((S[I] == 0 || S[I] < 0));
    if (S[I] == 0)
      Written.push_back(cl_int(I));
  }
  CHECK(Written.size() == Cap);
  // Readers outnumber the packets: "read_pipe ... returns 0 if read_pipe is
  // successful and a negative value if the pipe is empty".
  constexpr size_t Readers = 150;
  cl_mem Out = E.buffer(std::vector<cl_int>(Readers, -1));
  cl_mem RS = E.buffer(std::vector<cl_int>(Readers, 7));
  E.launch(Prog, "consume", Readers, 10, P, Out, RS);
  std::vector<cl_int> O = E.read<cl_int>(Out, Readers);
  S = E.read<cl_int>(RS, Readers);
  std::vector<cl_int> Read;
  for (size_t I = 0; I < Readers; ++I) {
    CHECK((S[I] == 0 || S[I] < 0));
    if (S[I] == 0)
      Read.push_back(O[I]);
  }
  std::sort(Read.begin(), Read.end());
  CHECK(Read == Written);
}

TEST_CASE("6.15.16.2: a small pipe carries many packets around its ring",
          "[pipe]") {
  // 40 rounds of 7 packets through 10 slots: every position wraps.
  Env E;
  cl_program Prog = E.build(SinglePackets, Std);
  cl_mem P = makePipe(E, sizeof(cl_int), 10);
  cl_mem WS = E.buffer(std::vector<cl_int>(7));
  cl_mem RS = E.buffer(std::vector<cl_int>(7));
  cl_mem Out = E.buffer(std::vector<cl_int>(7));
  for (int Round = 0; Round < 40; ++Round) {
    E.launch(Prog, "produce", 7, 7, P, WS);
    E.launch(Prog, "consume", 7, 7, P, Out, RS);
    INFO("round " << Round);
    CHECK(E.read<cl_int>(WS, 7) == std::vector<cl_int>(7, 0));
    CHECK(E.read<cl_int>(RS, 7) == std::vector<cl_int>(7, 0));
    checkPermutation(E.read<cl_int>(Out, 7), 7);
  }
}

TEST_CASE("6.15.16.2: reserve_write_pipe / reserve_read_pipe, the 4-argument "
          "read_pipe and write_pipe, commits and is_valid_reserve_id",
          "[pipe]") {
  Env E;
  cl_program Prog = E.build(R"(
typedef struct { int a; float b; char c[20]; } packet;
kernel void produce(write_only pipe packet p, global int *status) {
  int g = get_global_id(0);
  reserve_id_t r = reserve_write_pipe(p, 4);
  if (!is_valid_reserve_id(r)) { status[g] = 1; return; }
  int s = 0;
  for (int i = 3; i >= 0; --i) {  // any order inside a reservation
    packet v = {g * 4 + i, (float)g, {0}};
    v.c[19] = (char)i;
    s |= write_pipe(p, r, i, &v);
  }
  packet bad;
  // "index ... must be less than the num_packets reserved": refused here.
  s |= write_pipe(p, r, 4, &bad) == 0 ? 4 : 0;
  commit_write_pipe(p, r);
  status[g] = s;
}
kernel void consume(read_only pipe packet p, global int *out,
                    global int *status) {
  int g = get_global_id(0);
  reserve_id_t r = reserve_read_pipe(p, 4);
  if (!is_valid_reserve_id(r)) { status[g] = 1; return; }
  int s = 0;
  for (int i = 0; i < 4; ++i) {
    packet v;
    s |= read_pipe(p, r, i, &v);
    // The packets of one reservation are consecutive positions, and
    // reservations on both sides are of 4: each read holds one write's.
    if (v.c[19] != i || (v.a & 3) != i || v.b != (float)(v.a / 4)) s |= 2;
    out[g * 4 + i] = v.a;
  }
  commit_read_pipe(p, r);
  status[g] = s;
}
kernel void fail(write_only pipe packet p, global int *status) {
  // More packets than the pipe holds, and none: CLK_NULL_RESERVE_ID.
  status[0] = is_valid_reserve_id(reserve_write_pipe(p, 1000));
  status[1] = is_valid_reserve_id(reserve_write_pipe(p, 0));
  status[2] = is_valid_reserve_id(CLK_NULL_RESERVE_ID);
}
)",
                            Std);
  constexpr size_t N = 96;
  cl_mem P = makePipe(E, 28, N * 4);
  cl_mem WS = E.buffer(std::vector<cl_int>(N, 9));
  E.launch(Prog, "produce", N, 32, P, WS);
  CHECK(E.read<cl_int>(WS, N) == std::vector<cl_int>(N, 0));
  cl_mem FS = E.buffer(std::vector<cl_int>(3, 9));
  E.launch(Prog, "fail", 1, 1, P, FS);
  CHECK(E.read<cl_int>(FS, 3) == std::vector<cl_int>(3, 0));
  // Full now: one more reservation fails.
  E.launch(Prog, "produce", 1, 1, P, WS);
  CHECK(E.read<cl_int>(WS, 1)[0] == 1);
  cl_mem Out = E.buffer(std::vector<cl_int>(N * 4, -1));
  cl_mem RS = E.buffer(std::vector<cl_int>(N, 9));
  E.launch(Prog, "consume", N, 32, P, Out, RS);
  CHECK(E.read<cl_int>(RS, N) == std::vector<cl_int>(N, 0));
  checkPermutation(E.read<cl_int>(Out, N * 4), N * 4);
  // Empty now: one more reservation fails.
  E.launch(Prog, "consume", 1, 1, P, Out, RS);
  CHECK(E.read<cl_int>(RS, 1)[0] == 1);
}

TEST_CASE("6.15.16.3: work_group_reserve_*_pipe and work_group_commit_*_pipe "
          "make one reservation per work-group",
          "[pipe]") {
  // On the barrier regions and on fibers: both compute the reservation and
  // the commit once per group (scheduler/Collectives.cpp).
  std::string Options =
      GENERATE(std::string(Std), std::string(Std) + " -clcpu-force-fibers");
  INFO(Options);
  Env E;
  cl_program Prog = E.build(R"(
kernel void produce(write_only pipe int p, global int *status) {
  size_t l = get_local_id(0), n = get_local_size(0);
  reserve_id_t r = work_group_reserve_write_pipe(p, n);
  int s = is_valid_reserve_id(r) ? write_pipe(p, r, l, &(int){get_global_id(0)})
                                 : 1;
  work_group_commit_write_pipe(p, r);
  status[get_global_id(0)] = s;
}
kernel void consume(read_only pipe int p, global int *out,
                    global int *status) {
  size_t l = get_local_id(0), n = get_local_size(0);
  reserve_id_t r = work_group_reserve_read_pipe(p, n);
  int v = -1, s = is_valid_reserve_id(r) ? read_pipe(p, r, l, &v) : 1;
  work_group_commit_read_pipe(p, r);
  out[get_global_id(0)] = v;
  status[get_global_id(0)] = s;
}
)",
                            Options.c_str());
  constexpr size_t N = 64 * 48, Local = 64;
  cl_mem P = makePipe(E, sizeof(cl_int), N);
  cl_mem WS = E.buffer(std::vector<cl_int>(N, 9));
  E.launch(Prog, "produce", N, Local, P, WS);
  CHECK(E.read<cl_int>(WS, N) == std::vector<cl_int>(N, 0));
  // A full pipe fails the whole group's reservation.
  E.launch(Prog, "produce", Local, Local, P, WS);
  CHECK(E.read<cl_int>(WS, Local) == std::vector<cl_int>(Local, 1));
  cl_mem Out = E.buffer(std::vector<cl_int>(N, -1));
  cl_mem RS = E.buffer(std::vector<cl_int>(N, 9));
  E.launch(Prog, "consume", N, Local, P, Out, RS);
  CHECK(E.read<cl_int>(RS, N) == std::vector<cl_int>(N, 0));
  std::vector<cl_int> O = E.read<cl_int>(Out, N);
  // One reservation per group: a group's packets are one producer
  // group's, in local-id order.
  for (size_t G = 0; G < N / Local; ++G) {
    INFO("consumer group " << G);
    CHECK(O[G * Local] % cl_int(Local) == 0);
    for (size_t L = 1; L < Local; ++L)
      CHECK(O[G * Local + L] == O[G * Local] + cl_int(L));
  }
  checkPermutation(O, N);
}

TEST_CASE("cl_khr_subgroups: sub_group_reserve_*_pipe and "
          "sub_group_commit_*_pipe make one reservation per sub-group",
          "[pipe]") {
  Env E;
  cl_program Prog = E.build(R"(
kernel void produce(write_only pipe int p, global int *status) {
  uint l = get_sub_group_local_id(), n = get_sub_group_size();
  reserve_id_t r = sub_group_reserve_write_pipe(p, n);
  int s = is_valid_reserve_id(r) ? write_pipe(p, r, l, &(int){get_global_id(0)})
                                 : 1;
  sub_group_commit_write_pipe(p, r);
  status[get_global_id(0)] = s;
}
kernel void consume(read_only pipe int p, global int *out,
                    global int *status) {
  uint l = get_sub_group_local_id(), n = get_sub_group_size();
  reserve_id_t r = sub_group_reserve_read_pipe(p, n);
  int v = -1, s = is_valid_reserve_id(r) ? read_pipe(p, r, l, &v) : 1;
  sub_group_commit_read_pipe(p, r);
  out[get_global_id(0)] = v;
  status[get_global_id(0)] = s;
}
)",
                            Std);
  constexpr size_t N = 64 * 32, Local = 64;
  cl_mem P = makePipe(E, sizeof(cl_int), N);
  cl_mem WS = E.buffer(std::vector<cl_int>(N, 9));
  E.launch(Prog, "produce", N, Local, P, WS);
  CHECK(E.read<cl_int>(WS, N) == std::vector<cl_int>(N, 0));
  cl_mem Out = E.buffer(std::vector<cl_int>(N, -1));
  cl_mem RS = E.buffer(std::vector<cl_int>(N, 9));
  E.launch(Prog, "consume", N, Local, P, Out, RS);
  CHECK(E.read<cl_int>(RS, N) == std::vector<cl_int>(N, 0));
  std::vector<cl_int> O = E.read<cl_int>(Out, N);
  size_t W = subGroupWidth(E.D);
  for (size_t S = 0; S < N / W; ++S) {
    INFO("consumer sub-group " << S);
    CHECK(O[S * W] % cl_int(W) == 0);
    for (size_t L = 1; L < W; ++L)
      CHECK(O[S * W + L] == O[S * W] + cl_int(L));
  }
  checkPermutation(O, N);
}

TEST_CASE("6.15.16.4: get_pipe_num_packets and get_pipe_max_packets",
          "[pipe]") {
  Env E;
  cl_program Prog = E.build(std::string(SinglePackets) + R"(
kernel void query_ro(read_only pipe int p, global uint *out) {
  out[0] = get_pipe_num_packets(p);
  out[1] = get_pipe_max_packets(p);
}
kernel void query_wo(write_only pipe int p, global uint *out) {
  out[0] = get_pipe_num_packets(p);
  out[1] = get_pipe_max_packets(p);
}
)",
                            Std);
  cl_mem P = makePipe(E, sizeof(cl_int), 50);
  cl_mem Q = E.buffer(std::vector<cl_uint>(2));
  cl_mem WS = E.buffer(std::vector<cl_int>(30));
  E.launch(Prog, "query_ro", 1, 1, P, Q);
  CHECK(E.read<cl_uint>(Q, 2) == std::vector<cl_uint>{0, 50});
  E.launch(Prog, "produce", 30, 10, P, WS);
  E.launch(Prog, "query_ro", 1, 1, P, Q);
  CHECK(E.read<cl_uint>(Q, 2) == std::vector<cl_uint>{30, 50});
  E.launch(Prog, "query_wo", 1, 1, P, Q);
  CHECK(E.read<cl_uint>(Q, 2) == std::vector<cl_uint>{30, 50});
  cl_mem Out = E.buffer(std::vector<cl_int>(12));
  cl_mem RS = E.buffer(std::vector<cl_int>(12));
  E.launch(Prog, "consume", 12, 4, P, Out, RS);
  E.launch(Prog, "query_wo", 1, 1, P, Q);
  CHECK(E.read<cl_uint>(Q, 2) == std::vector<cl_uint>{18, 50});
}

TEST_CASE("6.15.16: a producer and a consumer kernel on two queues run at "
          "once; no packet is lost or duplicated",
          "[pipe]") {
  // The producer never waits (the pipe holds every packet), the consumer
  // retries until it has read its packet: whichever threads run the two
  // launches, and however their work-groups interleave, each packet is read
  // once.
  Env E;
  cl_program Prog = E.build(R"(
kernel void produce(write_only pipe int p, global int *status) {
  int g = get_global_id(0);
  int s = write_pipe(p, &g);
  if (s) status[0] = s;
}
kernel void consume(read_only pipe int p, global int *out) {
  int v;
  while (read_pipe(p, &v) != 0)
    ;
  out[get_global_id(0)] = v;
}
)",
                            Std);
  constexpr size_t N = size_t(1) << 20;
  cl_mem P = makePipe(E, sizeof(cl_int), N);
  cl_mem Status = E.buffer(std::vector<cl_int>(1, 0));
  cl_mem Out = E.buffer(std::vector<cl_int>(N, -1));
  // The producer first (it never waits for the consumer).
  produceAndConsume(E, Prog, {P, Status}, {P, Out}, N, 256);
  CHECK(E.read<cl_int>(Status, 1)[0] == 0);
  checkPermutation(E.read<cl_int>(Out, N), N);
}

TEST_CASE("6.15.16.3: producer and consumer work-groups on two queues, "
          "retrying through a pipe smaller than what they move; each "
          "group's commit hands its packets on once",
          "[pipe]") {
  // The shape of the pipe_stream benchmark: every group reserves its whole
  // size, retries while the pipe is full (empty), copies, commits. The pipe
  // holds 8 groups' packets of the 512 moved, so each side waits for the
  // other's commits many times. On the barrier regions (the reservation and
  // the commit are collectives computed once per group) and on fibers.
  std::string Options =
      GENERATE(std::string(Std) + " -cl-no-subgroup-ifp",
               std::string(Std) + " -cl-no-subgroup-ifp -clcpu-force-fibers");
  INFO(Options);
  Env E;
  cl_program Prog = E.build(R"(
kernel void produce(global const int *src, write_only pipe int p) {
  reserve_id_t r;
  do
    r = work_group_reserve_write_pipe(p, get_local_size(0));
  while (!is_valid_reserve_id(r));
  write_pipe(p, r, get_local_id(0), &src[get_global_id(0)]);
  work_group_commit_write_pipe(p, r);
}
kernel void consume(read_only pipe int p, global int *dst) {
  reserve_id_t r;
  do
    r = work_group_reserve_read_pipe(p, get_local_size(0));
  while (!is_valid_reserve_id(r));
  read_pipe(p, r, get_local_id(0), &dst[get_global_id(0)]);
  work_group_commit_read_pipe(p, r);
}
)",
                            Options.c_str());
  constexpr size_t Local = 64, Groups = 512, N = Local * Groups;
  std::vector<cl_int> Src(N);
  for (size_t I = 0; I < N; ++I)
    Src[I] = cl_int(I);
  cl_mem In = E.buffer(Src);
  cl_mem Out = E.buffer(std::vector<cl_int>(N, -1));
  cl_mem P = makePipe(E, sizeof(cl_int), 8 * Local);
  produceAndConsume(E, Prog, {In, P}, {P, Out}, N, Local);
  // Each consumer group read one producer group's packets, in order.
  std::vector<cl_int> O = E.read<cl_int>(Out, N);
  for (size_t Gr = 0; Gr < Groups; ++Gr) {
    INFO("consumer group " << Gr);
    REQUIRE(O[Gr * Local] % cl_int(Local) == 0);
    for (size_t I = 1; I < Local; ++I)
      REQUIRE(O[Gr * Local + I] == O[Gr * Local] + cl_int(I));
  }
  checkPermutation(O, N);
}

TEST_CASE("6.15.16: producer and consumer work-items in one NDRange",
          "[pipe]") {
  // Every work-item writes its id, then reads one packet, retrying while
  // the pipe is empty to it. A work-item reads only after its own write, so
  // packets are always there for it (or committed soon by a work-item that
  // is running): the reads find every write exactly once. The same pipe is
  // both arguments: one written, one read.
  Env E;
  cl_kernel K = E.kernel(R"(
kernel void both(write_only pipe int w, read_only pipe int r,
                 global int *out, global int *status) {
  int g = get_global_id(0);
  if (write_pipe(w, &g)) status[0] = 1;
  int v;
  while (read_pipe(r, &v) != 0)
    ;
  out[g] = v;
}
)",
                         "both", Std);
  constexpr size_t N = size_t(1) << 18;
  cl_mem P = makePipe(E, sizeof(cl_int), N);
  cl_mem Out = E.buffer(std::vector<cl_int>(N, -1));
  cl_mem Status = E.buffer(std::vector<cl_int>(1, 0));
  E.arg(K, 0, P);
  E.arg(K, 1, P);
  E.arg(K, 2, Out);
  E.arg(K, 3, Status);
  for (size_t Local : {size_t(1), size_t(64), size_t(256)}) {
    INFO("local size " << Local);
    REQUIRE(E.run(K, 1, &N, &Local) == CL_SUCCESS);
    CHECK(E.read<cl_int>(Status, 1)[0] == 0);
    checkPermutation(E.read<cl_int>(Out, N), N);
  }
}

TEST_CASE("6.15.16.2: pipe calls keep each work-item's order in a "
          "vectorizable work-item loop",
          "[pipe]") {
  // Arithmetic the work-item loop would vectorize around two writes per
  // work-item: the first packet of a work-item must come out before its
  // second, and none may be lost.
  Env E;
  cl_program Prog = E.build(R"(
kernel void produce(write_only pipe int2 p, global const float *x,
                    global float *y, global int *status) {
  int g = get_global_id(0);
  y[g] = x[g] * 2.0f + 1.0f;
  int s = write_pipe(p, &(int2)(g, 0));
  y[g] += 1.0f;
  s |= write_pipe(p, &(int2)(g, 1));
  if (s) status[0] = 1;
}
kernel void drain(read_only pipe int2 p, global int *seen, int n) {
  // One work-item reads every packet in pipe order.
  for (int i = 0; i < 2 * n; ++i) {
    int2 v;
    if (read_pipe(p, &v)) { seen[2 * n] = 1; return; }
    if (v.y == 0) { if (seen[v.x] != 0) seen[2 * n] = 2; seen[v.x] = 1; }
    else { if (seen[v.x] != 1 || seen[n + v.x]) seen[2 * n] = 3;
           seen[n + v.x] = 1; }
  }
}
)",
                            Std);
  constexpr cl_int N = 4096;
  cl_mem P = makePipe(E, 8, 2 * N);
  std::vector<float> X(N);
  std::iota(X.begin(), X.end(), 0.0f);
  cl_mem Xb = E.buffer(X);
  cl_mem Yb = E.buffer(std::vector<float>(N));
  cl_mem Status = E.buffer(std::vector<cl_int>(1, 0));
  E.launch(Prog, "produce", N, 64, P, Xb, Yb, Status);
  CHECK(E.read<cl_int>(Status, 1)[0] == 0);
  std::vector<float> Y = E.read<float>(Yb, N);
  for (cl_int I = 0; I < N; ++I)
    CHECK(Y[I] == X[I] * 2.0f + 2.0f);
  cl_mem Seen = E.buffer(std::vector<cl_int>(2 * N + 1, 0));
  E.launch(Prog, "drain", 1, 1, P, Seen, N);
  std::vector<cl_int> S = E.read<cl_int>(Seen, 2 * N + 1);
  CHECK(S[2 * N] == 0);
  CHECK(std::count(S.begin(), S.end() - 1, 1) == 2 * N);
}

TEST_CASE("cl_khr_subgroups independent forward progress: a work-item waits "
          "for a packet a later work-item of its group writes",
          "[pipe]") {
  // The reader comes first in the group's order: it must not keep the
  // writer from running (compiler/passes/ProgressYields.cpp follows
  // read_pipe's result, a flag set by control flow, to the ring's atomics).
  Env E;
  cl_kernel K = E.kernel(R"(
kernel void k(write_only pipe int w, read_only pipe int r, global int *out) {
  int l = get_local_id(0);
  if (l == 0) {
    int v;
    while (read_pipe(r, &v) != 0)
      ;
    out[0] = v;
  }
  if (l == get_local_size(0) - 1) {
    int v = 42;
    write_pipe(w, &v);
  }
}
)",
                         "k", Std);
  cl_mem P = makePipe(E, sizeof(cl_int), 4);
  cl_mem Out = E.buffer(std::vector<cl_int>(1, 0));
  E.arg(K, 0, P);
  E.arg(K, 1, P);
  E.arg(K, 2, Out);
  for (size_t Local : {size_t(2), size_t(64)}) {
    INFO("local size " << Local);
    REQUIRE(E.run(K, 1, &Local, &Local) == CL_SUCCESS);
    CHECK(E.read<cl_int>(Out, 1)[0] == 42);
  }
}
