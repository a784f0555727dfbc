// End-to-end: cl_khr_command_buffer_mutable_dispatch 0.9.5 through the ICD
// loader (OpenCL API spec, "Mutable Commands" and the mutable parts of
// "Command-Buffers"): the device query, the entry points, updates of
// arguments, SVM arguments, execution information and sizes, pending
// replays keeping what they were enqueued with, the Finalized state of a
// command recorded before its arguments were set, clGetMutableCommandInfoKHR,
// and the error of each bad input.

#include "SchedulerCommon.h"
#include "runtime/api/CommandBufferApi.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace {

using sched::Env;
namespace khr = clcpu::khr;

struct MutableFns {
#define CLCPU_FN(N)                                                            \
  decltype(&khr::N) N = extensionFunction<decltype(&khr::N)>(#N);
  CLCPU_FN(clCreateCommandBufferKHR)
  CLCPU_FN(clFinalizeCommandBufferKHR)
  CLCPU_FN(clReleaseCommandBufferKHR)
  CLCPU_FN(clEnqueueCommandBufferKHR)
  CLCPU_FN(clCommandNDRangeKernelKHR)
  CLCPU_FN(clCommandBarrierWithWaitListKHR)
  CLCPU_FN(clGetCommandBufferInfoKHR)
  CLCPU_FN(clUpdateMutableCommandsKHR)
  CLCPU_FN(clGetMutableCommandInfoKHR)
#undef CLCPU_FN

  /// A command-buffer on \p Q with \p Flags (CL_COMMAND_BUFFER_MUTABLE_KHR
  /// unless told).
  cl_command_buffer_khr
  create(cl_command_queue Q,
         cl_command_buffer_flags_khr Flags = CL_COMMAND_BUFFER_MUTABLE_KHR) {
    cl_command_buffer_properties_khr Props[] = {CL_COMMAND_BUFFER_FLAGS_KHR,
                                                Flags, 0};
    cl_int Err = -1;
    cl_command_buffer_khr B = clCreateCommandBufferKHR(1, &Q, Props, &Err);
    REQUIRE(Err == CL_SUCCESS);
    return B;
  }
  /// Records \p K (1D, \p Global work-items, groups of \p Local or the
  /// driver's choice for 0) with \p Props; its handle.
  cl_mutable_command_khr record(cl_command_buffer_khr B, cl_kernel K,
                                size_t Global, size_t Local = 0,
                                const khr::CommandProperties *Props = nullptr) {
    cl_mutable_command_khr M = nullptr;
    REQUIRE(clCommandNDRangeKernelKHR(B, nullptr, Props, K, 1, nullptr, &Global,
                                      Local ? &Local : nullptr, 0, nullptr,
                                      nullptr, &M) == CL_SUCCESS);
    REQUIRE(M);
    return M;
  }
  /// clUpdateMutableCommandsKHR with the one config \p C.
  cl_int update(cl_command_buffer_khr B, const khr::MutableDispatchConfig &C) {
    const khr::CommandBufferUpdateType Type =
        khr::StructureTypeMutableDispatchConfig;
    const void *Configs[] = {&C};
    return clUpdateMutableCommandsKHR(B, 1, &Type, Configs);
  }
  cl_int replay(cl_command_buffer_khr B) {
    return clEnqueueCommandBufferKHR(0, nullptr, B, 0, nullptr, nullptr);
  }
  cl_command_buffer_state_khr state(cl_command_buffer_khr B) {
    cl_command_buffer_state_khr S = 99;
    REQUIRE(clGetCommandBufferInfoKHR(B, CL_COMMAND_BUFFER_STATE_KHR, sizeof S,
                                      &S, nullptr) == CL_SUCCESS);
    return S;
  }
};

/// A config of \p M that changes nothing.
khr::MutableDispatchConfig config(cl_mutable_command_khr M) {
  khr::MutableDispatchConfig C{};
  C.command = M;
  return C;
}

const char *const Kernels = R"(
kernel void plus(global uint *x, uint v) { x[get_global_id(0)] += v; }
kernel void ids(global uint *gid, global uint *lsz) {
  size_t i = get_global_id(0) - get_global_offset(0);
  gid[i] = get_global_id(0);
  lsz[i] = get_local_size(0);
}
kernel void set(global uint *x, uint v) { x[get_global_id(0)] = v; }
kernel void grid(global uint *out) {
  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] =
      get_global_size(0) * 100 + get_global_size(1);
}
)";

} // namespace

TEST_CASE("cl_khr_command_buffer_mutable_dispatch 0.9.5: listed with its "
          "version, CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR (every "
          "field), entry points found by name",
          "[mutable_dispatch]") {
  cl_device_id D = clcpuDevice();
  REQUIRE(D);
  CHECK(extensionVersion(D, "cl_khr_command_buffer_mutable_dispatch") ==
        CL_MAKE_VERSION(0, 9, 5));
  CHECK(deviceInfo<cl_mutable_dispatch_fields_khr>(
            D, CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR) ==
        (CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR |
         CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR |
         CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR |
         CL_MUTABLE_DISPATCH_ARGUMENTS_KHR |
         CL_MUTABLE_DISPATCH_EXEC_INFO_KHR));
  // "If set, devices must support
  // CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR."
  CHECK(deviceInfo<cl_device_command_buffer_capabilities_khr>(
            D, CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR) &
        CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR);
  MutableFns F;
  CHECK(F.clUpdateMutableCommandsKHR);
  CHECK(F.clGetMutableCommandInfoKHR);
}

TEST_CASE("cl_khr_command_buffer_mutable_dispatch (clUpdateMutableCommandsKHR):"
          " new arguments run at the next replay; a replay enqueued before "
          "the update runs the old ones; updates persist",
          "[mutable_dispatch]") {
  Env E;
  MutableFns F;
  const size_t N = 256;
  cl_mem X = E.buffer(std::vector<cl_uint>(N, 0));
  cl_mem Y = E.buffer(std::vector<cl_uint>(N, 0));
  cl_kernel Plus = E.kernel(Kernels, "plus");
  E.arg(Plus, 0, X);
  E.arg(Plus, 1, cl_uint(1));
  cl_command_buffer_khr CB = F.create(E.Q);
  cl_mutable_command_khr M = F.record(CB, Plus, N);
  REQUIRE(F.clFinalizeCommandBufferKHR(CB) == CL_SUCCESS);
  CHECK(F.state(CB) == CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR);

  // A replay waiting for a user event while the command is updated.
  cl_int Err = -1;
  cl_event Gate = clCreateUserEvent(E.C, &Err);
  REQUIRE(Err == CL_SUCCESS);
  REQUIRE(F.clEnqueueCommandBufferKHR(0, nullptr, CB, 1, &Gate, nullptr) ==
          CL_SUCCESS);
  const cl_uint Ten = 10;
  const cl_mutable_dispatch_arg_khr Args[] = {{0, sizeof(cl_mem), &Y},
                                              {1, sizeof Ten, &Ten}};
  khr::MutableDispatchConfig C = config(M);
  C.num_args = 2;
  C.arg_list = Args;
  REQUIRE(F.update(CB, C) == CL_SUCCESS);
  REQUIRE(F.replay(CB) == CL_SUCCESS);
  REQUIRE(clSetUserEventStatus(Gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clFinish(E.Q) == CL_SUCCESS);
  sched::expectEqual(E.read<cl_uint>(X, N), std::vector<cl_uint>(N, 1), "X");
  sched::expectEqual(E.read<cl_uint>(Y, N), std::vector<cl_uint>(N, 10), "Y");

  // The update persists; the kernel object itself is unchanged ("have no
  // affect on the original kernel object").
  REQUIRE(F.replay(CB) == CL_SUCCESS);
  REQUIRE(clFinish(E.Q) == CL_SUCCESS);
  sched::expectEqual(E.read<cl_uint>(Y, N), std::vector<cl_uint>(N, 20), "Y");
  size_t G = N;
  REQUIRE(E.run(Plus, 1, &G, nullptr) == CL_SUCCESS);
  sched::expectEqual(E.read<cl_uint>(X, N), std::vector<cl_uint>(N, 2), "X");

  // One argument of two: the other keeps its updated value. The same
  // command twice in one call: the configs apply in order.
  const cl_uint Hundred = 100, Thousand = 1000;
  const cl_mutable_dispatch_arg_khr First[] = {{1, sizeof Hundred, &Hundred}};
  const cl_mutable_dispatch_arg_khr Second[] = {
      {1, sizeof Thousand, &Thousand}};
  khr::MutableDispatchConfig C1 = config(M), C2 = config(M);
  C1.num_args = 1;
  C1.arg_list = First;
  C2.num_args = 1;
  C2.arg_list = Second;
  const khr::CommandBufferUpdateType Types[] = {
      khr::StructureTypeMutableDispatchConfig,
      khr::StructureTypeMutableDispatchConfig};
  const void *Both[] = {&C1, &C2};
  REQUIRE(F.clUpdateMutableCommandsKHR(CB, 2, Types, Both) == CL_SUCCESS);
  REQUIRE(F.replay(CB) == CL_SUCCESS);
  REQUIRE(clFinish(E.Q) == CL_SUCCESS);
  sched::expectEqual(E.read<cl_uint>(Y, N), std::vector<cl_uint>(N, 1020), "Y");
  // No config: nothing changes.
  REQUIRE(F.clUpdateMutableCommandsKHR(CB, 0, nullptr, nullptr) == CL_SUCCESS);
  clReleaseEvent(Gate);
  CHECK(F.clReleaseCommandBufferKHR(CB) == CL_SUCCESS);
}

TEST_CASE("cl_khr_command_buffer_mutable_dispatch (cl_mutable_dispatch_"
          "config_khr): SVM arguments, execution information, a NULL "
          "buffer argument",
          "[mutable_dispatch]") {
  Env E;
  MutableFns F;
  const size_t N = 64;
  cl_mem X = E.buffer(std::vector<cl_uint>(N, 0));
  auto *Svm = static_cast<cl_uint *>(
      clSVMAlloc(E.C, CL_MEM_READ_WRITE, N * sizeof(cl_uint), 0));
  REQUIRE(Svm);
  std::fill(Svm, Svm + N, 7u);
  cl_kernel Plus = E.kernel(Kernels, "plus");
  E.arg(Plus, 0, X);
  E.arg(Plus, 1, cl_uint(3));
  cl_command_buffer_khr CB = F.create(E.Q);
  cl_mutable_command_khr M = F.record(CB, Plus, N);
  REQUIRE(F.clFinalizeCommandBufferKHR(CB) == CL_SUCCESS);

  const cl_mutable_dispatch_arg_khr SvmArg[] = {{0, 0, Svm}};
  void *Ptrs[] = {Svm};
  const cl_bool Fine = CL_TRUE;
  const cl_mutable_dispatch_exec_info_khr Infos[] = {
      {CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof Ptrs, Ptrs},
      {CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof Fine, &Fine}};
  khr::MutableDispatchConfig C = config(M);
  C.num_svm_args = 1;
  C.arg_svm_list = SvmArg;
  C.num_exec_infos = 2;
  C.exec_info_list = Infos;
  REQUIRE(F.update(CB, C) == CL_SUCCESS);
  REQUIRE(F.replay(CB) == CL_SUCCESS);
  REQUIRE(clFinish(E.Q) == CL_SUCCESS);
  CHECK(std::all_of(Svm, Svm + N, [](cl_uint V) { return V == 10; }));
  sched::expectEqual(E.read<cl_uint>(X, N), std::vector<cl_uint>(N, 0), "X");

  // Back to a buffer; then a NULL buffer ("the arg_value pointer can be
  // NULL"), which the kernel must not run with here: checked, not run.
  const cl_mutable_dispatch_arg_khr BufArg[] = {{0, sizeof(cl_mem), &X}};
  C = config(M);
  C.num_args = 1;
  C.arg_list = BufArg;
  REQUIRE(F.update(CB, C) == CL_SUCCESS);
  REQUIRE(F.replay(CB) == CL_SUCCESS);
  REQUIRE(clFinish(E.Q) == CL_SUCCESS);
  sched::expectEqual(E.read<cl_uint>(X, N), std::vector<cl_uint>(N, 3), "X");
  const cl_mutable_dispatch_arg_khr NullArg[] = {{0, sizeof(cl_mem), nullptr}};
  C.arg_list = NullArg;
  CHECK(F.update(CB, C) == CL_SUCCESS);
  CHECK(F.clReleaseCommandBufferKHR(CB) == CL_SUCCESS);
  clSVMFree(E.C, Svm);
}

TEST_CASE("cl_khr_command_buffer_mutable_dispatch (cl_mutable_dispatch_"
          "config_khr): global offset, global size and local size; sizes "
          "left NULL stay; work_dim 0 or the recorded one",
          "[mutable_dispatch]") {
  Env E;
  MutableFns F;
  const size_t Max = 128;
  cl_mem Gid = E.buffer(std::vector<cl_uint>(Max, 0));
  cl_mem Lsz = E.buffer(std::vector<cl_uint>(Max, 0));
  cl_kernel Ids = E.kernel(Kernels, "ids");
  E.arg(Ids, 0, Gid);
  E.arg(Ids, 1, Lsz);
  cl_command_buffer_khr CB = F.create(E.Q);
  cl_mutable_command_khr M = F.record(CB, Ids, 32, 8);
  REQUIRE(F.clFinalizeCommandBufferKHR(CB) == CL_SUCCESS);
  auto Expect = [&](size_t Offset, size_t Global, cl_uint Local) {
    REQUIRE(F.replay(CB) == CL_SUCCESS);
    REQUIRE(clFinish(E.Q) == CL_SUCCESS);
    std::vector<cl_uint> G = E.read<cl_uint>(Gid, Max),
                         L = E.read<cl_uint>(Lsz, Max);
    std::vector<cl_uint> WantG(G), WantL(L);
    for (size_t I = 0; I < Global; ++I) {
      WantG[I] = static_cast<cl_uint>(Offset + I);
      WantL[I] = Local;
    }
    sched::expectEqual(G, WantG, "global ids");
    sched::expectEqual(L, WantL, "local sizes");
  };
  Expect(0, 32, 8);

  const size_t Offset = 1000, Global = 96, Local = 16;
  khr::MutableDispatchConfig C = config(M);
  C.global_work_offset = &Offset;
  REQUIRE(F.update(CB, C) == CL_SUCCESS);
  Expect(1000, 32, 8);
  C = config(M);
  C.work_dim = 1;
  C.global_work_size = &Global;
  REQUIRE(F.update(CB, C) == CL_SUCCESS);
  Expect(1000, 96, 8); // the offset and the local size stay
  C = config(M);
  C.local_work_size = &Local;
  REQUIRE(F.update(CB, C) == CL_SUCCESS);
  Expect(1000, 96, 16);

  size_t Info[1] = {0};
  REQUIRE(
      F.clGetMutableCommandInfoKHR(M, CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR,
                                   sizeof Info, Info, nullptr) == CL_SUCCESS);
  CHECK(Info[0] == 96);
  REQUIRE(
      F.clGetMutableCommandInfoKHR(M, CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR,
                                   sizeof Info, Info, nullptr) == CL_SUCCESS);
  CHECK(Info[0] == 16);
  REQUIRE(F.clGetMutableCommandInfoKHR(
              M, CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR, sizeof Info, Info,
              nullptr) == CL_SUCCESS);
  CHECK(Info[0] == 1000);
  CHECK(F.clReleaseCommandBufferKHR(CB) == CL_SUCCESS);

  // A 2D command recorded without a local size: a new global size gets a
  // local size chosen for it.
  cl_mem Out = E.buffer(std::vector<cl_uint>(64, 0));
  cl_kernel Grid = E.kernel(Kernels, "grid");
  E.arg(Grid, 0, Out);
  cl_command_buffer_khr CB2 = F.create(E.Q);
  const size_t Small[2] = {2, 2}, Big[2] = {8, 4};
  cl_mutable_command_khr M2 = nullptr;
  REQUIRE(F.clCommandNDRangeKernelKHR(CB2, nullptr, nullptr, Grid, 2, nullptr,
                                      Small, nullptr, 0, nullptr, nullptr,
                                      &M2) == CL_SUCCESS);
  REQUIRE(F.clFinalizeCommandBufferKHR(CB2) == CL_SUCCESS);
  C = config(M2);
  C.global_work_size = Big;
  REQUIRE(F.update(CB2, C) == CL_SUCCESS);
  REQUIRE(F.replay(CB2) == CL_SUCCESS);
  REQUIRE(clFinish(E.Q) == CL_SUCCESS);
  sched::expectEqual(E.read<cl_uint>(Out, 32), std::vector<cl_uint>(32, 804),
                     "grid");
  CHECK(F.clReleaseCommandBufferKHR(CB2) == CL_SUCCESS);
}

TEST_CASE("cl_khr_command_buffer_mutable_dispatch 0.9.5 (Command-Buffer "
          "Lifecycle): a kernel recorded before its arguments are set leaves "
          "the command-buffer Finalized, not enqueueable, until an update "
          "sets them",
          "[mutable_dispatch]") {
  Env E;
  MutableFns F;
  const size_t N = 32;
  cl_mem X = E.buffer(std::vector<cl_uint>(N, 1));
  cl_kernel Plus = E.kernel(Kernels, "plus");
  E.arg(Plus, 0, X); // argument 1 unset
  const khr::CommandProperties Args[] = {
      CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
      CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, 0};
  // Without CL_MUTABLE_DISPATCH_ARGUMENTS_KHR in the properties, or on a
  // command-buffer that is not mutable: CL_INVALID_KERNEL_ARGS.
  cl_command_buffer_khr Fixed = F.create(E.Q, 0);
  cl_mutable_command_khr M = nullptr;
  CHECK(F.clCommandNDRangeKernelKHR(Fixed, nullptr, Args, Plus, 1, nullptr, &N,
                                    nullptr, 0, nullptr, nullptr,
                                    &M) == CL_INVALID_KERNEL_ARGS);
  CHECK(F.clReleaseCommandBufferKHR(Fixed) == CL_SUCCESS);
  cl_command_buffer_khr CB = F.create(E.Q);
  CHECK(F.clCommandNDRangeKernelKHR(CB, nullptr, nullptr, Plus, 1, nullptr, &N,
                                    nullptr, 0, nullptr, nullptr,
                                    &M) == CL_INVALID_KERNEL_ARGS);
  M = F.record(CB, Plus, N, 0, Args);
  REQUIRE(F.clFinalizeCommandBufferKHR(CB) == CL_SUCCESS);
  CHECK(F.state(CB) == CL_COMMAND_BUFFER_STATE_FINALIZED_KHR);
  // CL_INVALID_OPERATION if command_buffer is not in the Executable state.
  CHECK(F.replay(CB) == CL_INVALID_OPERATION);
  // An update that does not set it leaves the state (and the sizes are
  // not among the command's updatable fields).
  const size_t Same = N;
  khr::MutableDispatchConfig C = config(M);
  C.global_work_size = &Same;
  CHECK(F.update(CB, C) == CL_INVALID_OPERATION);
  const cl_mutable_dispatch_arg_khr Arg0[] = {{0, sizeof(cl_mem), &X}};
  C = config(M);
  C.num_args = 1;
  C.arg_list = Arg0;
  REQUIRE(F.update(CB, C) == CL_SUCCESS);
  CHECK(F.state(CB) == CL_COMMAND_BUFFER_STATE_FINALIZED_KHR);
  const cl_uint Five = 5;
  const cl_mutable_dispatch_arg_khr Arg[] = {{1, sizeof Five, &Five}};
  C = config(M);
  C.num_args = 1;
  C.arg_list = Arg;
  REQUIRE(F.update(CB, C) == CL_SUCCESS);
  CHECK(F.state(CB) == CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR);
  REQUIRE(F.replay(CB) == CL_SUCCESS);
  REQUIRE(clFinish(E.Q) == CL_SUCCESS);
  sched::expectEqual(E.read<cl_uint>(X, N), std::vector<cl_uint>(N, 6), "X");
  CHECK(F.clReleaseCommandBufferKHR(CB) == CL_SUCCESS);
}

TEST_CASE("cl_khr_command_buffer_mutable_dispatch (clGetMutableCommandInfoKHR"
          "): every query, and its errors",
          "[mutable_dispatch]") {
  Env E;
  MutableFns F;
  cl_mem X = E.buffer(std::vector<cl_uint>(64, 0));
  cl_kernel Plus = E.kernel(Kernels, "plus");
  E.arg(Plus, 0, X);
  E.arg(Plus, 1, cl_uint(1));
  cl_command_buffer_khr CB = F.create(E.Q);
  const khr::CommandProperties Props[] = {
      CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
      CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, 0};
  cl_mutable_command_khr M = F.record(CB, Plus, 64, 0, Props);
  cl_mutable_command_khr Bare = F.record(CB, Plus, 64);

  cl_command_queue Q = nullptr;
  CHECK(F.clGetMutableCommandInfoKHR(M, CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR,
                                     sizeof Q, &Q, nullptr) == CL_SUCCESS);
  CHECK(Q == E.Q);
  cl_command_buffer_khr B = nullptr;
  CHECK(F.clGetMutableCommandInfoKHR(M, CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR,
                                     sizeof B, &B, nullptr) == CL_SUCCESS);
  CHECK(B == CB);
  cl_command_type T = 0;
  CHECK(F.clGetMutableCommandInfoKHR(M, CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR,
                                     sizeof T, &T, nullptr) == CL_SUCCESS);
  CHECK(T == CL_COMMAND_NDRANGE_KERNEL);
  khr::CommandProperties Got[4] = {};
  size_t Size = 0;
  CHECK(F.clGetMutableCommandInfoKHR(M, CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR,
                                     sizeof Got, Got, &Size) == CL_SUCCESS);
  CHECK(Size == sizeof Props);
  CHECK(std::equal(Props, Props + 3, Got));
  // "If the properties argument specified on creation of command was NULL,
  // the implementation must return param_value_size_ret equal to 0."
  CHECK(F.clGetMutableCommandInfoKHR(Bare,
                                     CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR, 0,
                                     nullptr, &Size) == CL_SUCCESS);
  CHECK(Size == 0);
  cl_kernel K = nullptr;
  CHECK(F.clGetMutableCommandInfoKHR(M, CL_MUTABLE_DISPATCH_KERNEL_KHR,
                                     sizeof K, &K, nullptr) == CL_SUCCESS);
  CHECK(K == Plus);
  cl_uint Dims = 0;
  CHECK(F.clGetMutableCommandInfoKHR(M, CL_MUTABLE_DISPATCH_DIMENSIONS_KHR,
                                     sizeof Dims, &Dims,
                                     nullptr) == CL_SUCCESS);
  CHECK(Dims == 1);
  // "If a local work-item size was not set, zero is returned".
  size_t L = 99;
  CHECK(F.clGetMutableCommandInfoKHR(M, CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR,
                                     sizeof L, &L, nullptr) == CL_SUCCESS);
  CHECK(L == 0);

  // CL_INVALID_MUTABLE_COMMAND_KHR if command is not a valid mutable
  // command object.
  CHECK(F.clGetMutableCommandInfoKHR(nullptr, CL_MUTABLE_DISPATCH_KERNEL_KHR,
                                     sizeof K, &K, nullptr) ==
        CL_INVALID_MUTABLE_COMMAND_KHR);
  CHECK(
      F.clGetMutableCommandInfoKHR(reinterpret_cast<cl_mutable_command_khr>(X),
                                   CL_MUTABLE_DISPATCH_KERNEL_KHR, sizeof K, &K,
                                   nullptr) == CL_INVALID_MUTABLE_COMMAND_KHR);
  // CL_INVALID_VALUE if param_name is not one of the supported values, or
  // if the size in bytes specified by param_value_size is less than size of
  // the return type and param_value is not NULL.
  CHECK(F.clGetMutableCommandInfoKHR(M, 0x7777, sizeof K, &K, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(F.clGetMutableCommandInfoKHR(M, CL_MUTABLE_DISPATCH_KERNEL_KHR, 1, &K,
                                     nullptr) == CL_INVALID_VALUE);
  CHECK(F.clReleaseCommandBufferKHR(CB) == CL_SUCCESS);
}

TEST_CASE("cl_khr_command_buffer_mutable_dispatch (errors): each bad input "
          "gets the extension's error code and changes nothing",
          "[mutable_dispatch]") {
  Env E;
  MutableFns F;
  const size_t N = 64;
  cl_mem X = E.buffer(std::vector<cl_uint>(N, 0));
  cl_kernel Plus = E.kernel(Kernels, "plus");
  E.arg(Plus, 0, X);
  E.arg(Plus, 1, cl_uint(1));
  const khr::CommandBufferUpdateType Type =
      khr::StructureTypeMutableDispatchConfig;

  SECTION("recording") {
    cl_command_buffer_khr CB = F.create(E.Q);
    cl_mutable_command_khr M = nullptr;
    auto Record = [&](const khr::CommandProperties *P,
                      const size_t *Local = nullptr) {
      return F.clCommandNDRangeKernelKHR(CB, nullptr, P, Plus, 1, nullptr, &N,
                                         Local, 0, nullptr, nullptr, &M);
    };
    // CL_INVALID_VALUE if values specified in properties are not valid.
    const khr::CommandProperties Unknown[] = {0x7777, 0, 0};
    CHECK(Record(Unknown) == CL_INVALID_VALUE);
    const khr::CommandProperties BadBits[] = {
        CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, 1 << 7, 0};
    CHECK(Record(BadBits) == CL_INVALID_VALUE);
    const khr::CommandProperties Twice[] = {
        CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, 0,
        CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, 0, 0};
    CHECK(Record(Twice) == CL_INVALID_VALUE);
    // CL_INVALID_VALUE if properties includes the
    // CL_MUTABLE_DISPATCH_ASSERTS_KHR property with
    // CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR and
    // local_work_size is NULL.
    const khr::CommandProperties Asserts[] = {
        CL_MUTABLE_DISPATCH_ASSERTS_KHR,
        CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR, 0};
    CHECK(Record(Asserts) == CL_INVALID_VALUE);
    const size_t Local = 16;
    CHECK(Record(Asserts, &Local) == CL_SUCCESS);
    CHECK(F.clReleaseCommandBufferKHR(CB) == CL_SUCCESS);
    // The same for the command-buffer's property.
    cl_command_buffer_properties_khr BufAsserts[] = {
        CL_COMMAND_BUFFER_FLAGS_KHR, CL_COMMAND_BUFFER_MUTABLE_KHR,
        CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR,
        CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR, 0};
    cl_int Err = -1;
    CB = F.clCreateCommandBufferKHR(1, &E.Q, BufAsserts, &Err);
    REQUIRE(Err == CL_SUCCESS);
    CHECK(Record(nullptr) == CL_INVALID_VALUE);
    CHECK(Record(nullptr, &Local) == CL_SUCCESS);
    CHECK(F.clReleaseCommandBufferKHR(CB) == CL_SUCCESS);
    BufAsserts[3] = 1 << 5;
    CHECK(F.clCreateCommandBufferKHR(1, &E.Q, BufAsserts, &Err) == nullptr);
    CHECK(Err == CL_INVALID_VALUE);
  }

  SECTION("clUpdateMutableCommandsKHR") {
    cl_command_buffer_khr CB = F.create(E.Q);
    const khr::CommandProperties ArgsOnly[] = {
        CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
        CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, 0};
    cl_mutable_command_khr M = F.record(CB, Plus, N, 16);
    cl_mutable_command_khr Narrow = F.record(CB, Plus, N, 0, ArgsOnly);
    khr::MutableDispatchConfig C = config(M);
    const void *Configs[] = {&C};
    // CL_INVALID_OPERATION if command_buffer has not been finalized.
    CHECK(F.update(CB, C) == CL_INVALID_OPERATION);
    REQUIRE(F.clFinalizeCommandBufferKHR(CB) == CL_SUCCESS);
    CHECK(F.update(CB, C) == CL_SUCCESS);
    // CL_INVALID_COMMAND_BUFFER_KHR if command_buffer is not a valid
    // command-buffer.
    CHECK(F.clUpdateMutableCommandsKHR(nullptr, 1, &Type, Configs) ==
          CL_INVALID_COMMAND_BUFFER_KHR);
    // CL_INVALID_VALUE if config_types is NULL and num_configs > 0, or
    // config_types is not NULL and num_configs is 0; the same for configs.
    CHECK(F.clUpdateMutableCommandsKHR(CB, 1, nullptr, Configs) ==
          CL_INVALID_VALUE);
    CHECK(F.clUpdateMutableCommandsKHR(CB, 0, &Type, nullptr) ==
          CL_INVALID_VALUE);
    CHECK(F.clUpdateMutableCommandsKHR(CB, 1, &Type, nullptr) ==
          CL_INVALID_VALUE);
    CHECK(F.clUpdateMutableCommandsKHR(CB, 0, nullptr, Configs) ==
          CL_INVALID_VALUE);
    // CL_INVALID_VALUE if any element of config_types is not a valid
    // cl_command_buffer_update_type_khr enum (0.9.0's value, 1, included).
    const khr::CommandBufferUpdateType Old = 1;
    CHECK(F.clUpdateMutableCommandsKHR(CB, 1, &Old, Configs) ==
          CL_INVALID_VALUE);
    // CL_INVALID_VALUE if any element of configs is NULL.
    const void *Null[] = {nullptr};
    CHECK(F.clUpdateMutableCommandsKHR(CB, 1, &Type, Null) == CL_INVALID_VALUE);
    // CL_INVALID_MUTABLE_COMMAND_KHR if command is not a valid mutable
    // command object returned from clCommandNDRangeKernelKHR, or created
    // from command_buffer.
    khr::MutableDispatchConfig Bad = config(nullptr);
    CHECK(F.update(CB, Bad) == CL_INVALID_MUTABLE_COMMAND_KHR);
    Bad.command = reinterpret_cast<cl_mutable_command_khr>(X);
    CHECK(F.update(CB, Bad) == CL_INVALID_MUTABLE_COMMAND_KHR);
    cl_command_buffer_khr Other = F.create(E.Q);
    cl_mutable_command_khr Foreign = F.record(Other, Plus, N);
    REQUIRE(F.clFinalizeCommandBufferKHR(Other) == CL_SUCCESS);
    CHECK(F.update(CB, config(Foreign)) == CL_INVALID_MUTABLE_COMMAND_KHR);
    CHECK(F.clReleaseCommandBufferKHR(Other) == CL_SUCCESS);
    // CL_INVALID_OPERATION if work_dim is not zero and different from the
    // work_dim set on command recording.
    C = config(M);
    C.work_dim = 2;
    CHECK(F.update(CB, C) == CL_INVALID_OPERATION);
    // CL_INVALID_OPERATION if the CL_MUTABLE_DISPATCH_*_KHR property was not
    // set on command recording and the matching field is given.
    const size_t One = 1, Sixty4 = N;
    C = config(Narrow);
    C.global_work_offset = &One;
    CHECK(F.update(CB, C) == CL_INVALID_OPERATION);
    C = config(Narrow);
    C.global_work_size = &Sixty4;
    CHECK(F.update(CB, C) == CL_INVALID_OPERATION);
    C = config(Narrow);
    C.local_work_size = &One;
    CHECK(F.update(CB, C) == CL_INVALID_OPERATION);
    const cl_bool Fine = CL_TRUE;
    const cl_mutable_dispatch_exec_info_khr Info[] = {
        {CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof Fine, &Fine}};
    C = config(Narrow);
    C.num_exec_infos = 1;
    C.exec_info_list = Info;
    CHECK(F.update(CB, C) == CL_INVALID_OPERATION);
    // CL_INVALID_VALUE if arg_list is NULL and num_args > 0, or arg_list is
    // not NULL and num_args is 0 (the same for the SVM and exec info lists).
    const cl_uint Two = 2;
    const cl_mutable_dispatch_arg_khr Arg[] = {{1, sizeof Two, &Two}};
    C = config(M);
    C.num_args = 1;
    CHECK(F.update(CB, C) == CL_INVALID_VALUE);
    C = config(M);
    C.arg_list = Arg;
    CHECK(F.update(CB, C) == CL_INVALID_VALUE);
    C = config(M);
    C.num_svm_args = 1;
    CHECK(F.update(CB, C) == CL_INVALID_VALUE);
    C = config(M);
    C.exec_info_list = Info;
    CHECK(F.update(CB, C) == CL_INVALID_VALUE);
    // The errors of clSetKernelArg, clSetKernelArgSVMPointer and
    // clSetKernelExecInfo.
    const cl_mutable_dispatch_arg_khr BadIndex[] = {{9, sizeof Two, &Two}},
                                      BadSize[] = {{1, 1, &Two}},
                                      BadMem[] = {{0, sizeof(cl_mem), &Plus}},
                                      SvmOnScalar[] = {{1, 0, &Two}};
    C = config(M);
    C.num_args = 1;
    C.arg_list = BadIndex;
    CHECK(F.update(CB, C) == CL_INVALID_ARG_INDEX);
    C.arg_list = BadSize;
    CHECK(F.update(CB, C) == CL_INVALID_ARG_SIZE);
    C.arg_list = BadMem;
    CHECK(F.update(CB, C) == CL_INVALID_MEM_OBJECT);
    C = config(M);
    C.num_svm_args = 1;
    C.arg_svm_list = SvmOnScalar;
    CHECK(F.update(CB, C) == CL_INVALID_ARG_VALUE);
    const cl_mutable_dispatch_exec_info_khr BadInfo[] = {
        {0x7777, sizeof Fine, &Fine}};
    C = config(M);
    C.num_exec_infos = 1;
    C.exec_info_list = BadInfo;
    CHECK(F.update(CB, C) == CL_INVALID_VALUE);
    // The errors of clEnqueueNDRangeKernel.
    const size_t Zero = 0, TooBig = size_t(1) << 40;
    C = config(M);
    C.local_work_size = &Zero;
    CHECK(F.update(CB, C) == CL_INVALID_WORK_GROUP_SIZE);
    C.local_work_size = &TooBig;
    CHECK(F.update(CB, C) == CL_INVALID_WORK_ITEM_SIZE);
    const size_t Wrap = SIZE_MAX;
    C = config(M);
    C.global_work_offset = &Wrap;
    CHECK(F.update(CB, C) == CL_INVALID_GLOBAL_OFFSET);
    // An OpenCL C 1.2 kernel has uniform work-groups only:
    // CL_INVALID_WORK_GROUP_SIZE for 60 work-items in groups of 16.
    const size_t Sixty = 60;
    C = config(M);
    C.global_work_size = &Sixty;
    CHECK(F.update(CB, C) == CL_INVALID_WORK_GROUP_SIZE);
    // CL_INVALID_OPERATION if the values of local_work_size and/or
    // global_work_size result in a change to work-group uniformity (an
    // OpenCL C 3.0 kernel: 64 in groups of 16 is uniform, 60 is not; and
    // back).
    cl_kernel Plus30 = E.kernel(Kernels, "plus", "-cl-std=CL3.0");
    E.arg(Plus30, 0, X);
    E.arg(Plus30, 1, cl_uint(0));
    cl_command_buffer_khr CB30 = F.create(E.Q);
    cl_mutable_command_khr U = F.record(CB30, Plus30, N, 16);
    cl_mutable_command_khr NU = F.record(CB30, Plus30, Sixty, 16);
    REQUIRE(F.clFinalizeCommandBufferKHR(CB30) == CL_SUCCESS);
    C = config(U);
    C.global_work_size = &Sixty;
    CHECK(F.update(CB30, C) == CL_INVALID_OPERATION);
    C = config(NU);
    C.global_work_size = &Sixty4;
    CHECK(F.update(CB30, C) == CL_INVALID_OPERATION);
    const size_t Four = 4, Fifty6 = 56;
    C.local_work_size = &Four; // 64 in groups of 4: uniform
    CHECK(F.update(CB30, C) == CL_INVALID_OPERATION);
    C = config(NU);
    C.global_work_size = &Fifty6; // still non-uniform
    CHECK(F.update(CB30, C) == CL_SUCCESS);
    CHECK(F.clReleaseCommandBufferKHR(CB30) == CL_SUCCESS);

    // None of the updates of a failing call are kept: the first config
    // (argument 1 = 2) goes with the second's error.
    khr::MutableDispatchConfig Good = config(M), Failing = config(M);
    Good.num_args = 1;
    Good.arg_list = Arg;
    Failing.work_dim = 3;
    const khr::CommandBufferUpdateType Types[] = {Type, Type};
    const void *Pair[] = {&Good, &Failing};
    CHECK(F.clUpdateMutableCommandsKHR(CB, 2, Types, Pair) ==
          CL_INVALID_OPERATION);
    REQUIRE(F.replay(CB) == CL_SUCCESS);
    REQUIRE(clFinish(E.Q) == CL_SUCCESS);
    // Both commands add 1 to X.
    sched::expectEqual(E.read<cl_uint>(X, N), std::vector<cl_uint>(N, 2), "X");
    CHECK(F.clReleaseCommandBufferKHR(CB) == CL_SUCCESS);
  }

  SECTION("a command-buffer created without CL_COMMAND_BUFFER_MUTABLE_KHR") {
    // CL_INVALID_OPERATION if command_buffer was not created with the
    // CL_COMMAND_BUFFER_MUTABLE_KHR flag. (Its kernel commands still return
    // a handle, which can be queried.)
    cl_command_buffer_khr CB = F.create(E.Q, 0);
    cl_mutable_command_khr M = F.record(CB, Plus, N);
    REQUIRE(F.clFinalizeCommandBufferKHR(CB) == CL_SUCCESS);
    CHECK(F.update(CB, config(M)) == CL_INVALID_OPERATION);
    cl_kernel K = nullptr;
    CHECK(F.clGetMutableCommandInfoKHR(M, CL_MUTABLE_DISPATCH_KERNEL_KHR,
                                       sizeof K, &K, nullptr) == CL_SUCCESS);
    CHECK(K == Plus);
    CHECK(F.clReleaseCommandBufferKHR(CB) == CL_SUCCESS);
  }
}

TEST_CASE("cl_khr_command_buffer_mutable_dispatch (Mutable Commands): "
          "updates from one thread while another replays; every replay runs "
          "one whole configuration",
          "[mutable_dispatch]") {
  Env E;
  MutableFns F;
  const size_t N = 4096;
  cl_mem X = E.buffer(std::vector<cl_uint>(N, 0));
  cl_kernel Set = E.kernel(Kernels, "set");
  E.arg(Set, 0, X);
  E.arg(Set, 1, cl_uint(0));
  cl_command_buffer_khr CB =
      F.create(E.Q, CL_COMMAND_BUFFER_MUTABLE_KHR |
                        CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR);
  cl_mutable_command_khr M = F.record(CB, Set, N);
  REQUIRE(F.clFinalizeCommandBufferKHR(CB) == CL_SUCCESS);
  std::atomic<bool> Done{false};
  std::atomic<int> UpdateErrors{0};
  std::thread Updater([&] {
    for (cl_uint V = 1; V <= 300; ++V) {
      const cl_mutable_dispatch_arg_khr Arg[] = {{1, sizeof V, &V}};
      khr::MutableDispatchConfig C = config(M);
      C.num_args = 1;
      C.arg_list = Arg;
      if (F.update(CB, C) != CL_SUCCESS)
        ++UpdateErrors;
    }
    Done = true;
  });
  int Torn = 0, Replays = 0;
  while (!Done || Replays < 3) {
    REQUIRE(F.replay(CB) == CL_SUCCESS);
    std::vector<cl_uint> Got = E.read<cl_uint>(X, N); // blocking: in order
    Torn += std::count(Got.begin(), Got.end(), Got[0]) != ptrdiff_t(N);
    ++Replays;
  }
  Updater.join();
  CHECK(UpdateErrors == 0);
  CHECK(Torn == 0);
  // The last update is what the next replay runs.
  REQUIRE(F.replay(CB) == CL_SUCCESS);
  sched::expectEqual(E.read<cl_uint>(X, N), std::vector<cl_uint>(N, 300), "X");
  CHECK(F.clReleaseCommandBufferKHR(CB) == CL_SUCCESS);
}
