// End-to-end: device-side enqueue (__opencl_c_device_enqueue) through the
// ICD loader. The host side (OpenCL 3.0 API spec 5.1: on-device queues,
// CL_QUEUE_SIZE, the default device queue, clSetDefaultDeviceCommandQueue,
// the device's limits) and every device-enqueue built-in (OpenCL C 2.0
// 6.13.17): enqueue_kernel in its four forms with each
// kernel_enqueue_flags_t, blocks with __local pointer arguments, the
// ndrange_t constructors, get_default_queue, device events (user events,
// markers, wait lists, profiling), the block queries; a parent completing
// after its children, recursion, a full queue and bad requests.

#include "SchedulerCommon.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using sched::Env;

namespace {
// The built-ins' return values (OpenCL C 2.0 6.13.17.1).
constexpr cl_int ClkEnqueueFailure = -101;
constexpr cl_int ClkInvalidQueue = -102;
constexpr cl_int ClkInvalidNDRange = -160;
constexpr cl_int ClkInvalidEventWaitList = -57;
constexpr cl_int ClkDeviceQueueFull = -161;
constexpr cl_int ClkInvalidArgSize = -51;

/// An on-device queue of \p E's device (the default one if \p Default),
/// of \p Size bytes (0: the preferred size).
cl_command_queue deviceQueue(Env &E, bool Default, cl_uint Size = 0) {
  cl_queue_properties Bits =
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE;
  if (Default)
    Bits |= CL_QUEUE_ON_DEVICE_DEFAULT;
  cl_queue_properties Props[] = {CL_QUEUE_PROPERTIES, Bits,
                                 Size ? cl_queue_properties(CL_QUEUE_SIZE) : 0,
                                 Size, 0};
  cl_int Err = -1;
  cl_command_queue Q =
      clCreateCommandQueueWithProperties(E.C, E.D, Props, &Err);
  REQUIRE(Err == CL_SUCCESS);
  REQUIRE(Q);
  return Q;
}

/// A queue released at the end of the scope.
struct QueueRef {
  cl_command_queue Q;
  ~QueueRef() { clReleaseCommandQueue(Q); }
};
} // namespace

TEST_CASE("4.2 / 5.1: the device reports device-side enqueue and its limits",
          "[enqueue]") {
  cl_device_id D = clcpuDevice();
  REQUIRE(D);
  auto Caps = deviceInfo<cl_device_device_enqueue_capabilities>(
      D, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES);
  CHECK((Caps & CL_DEVICE_QUEUE_SUPPORTED) != 0);
  CHECK((Caps & CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT) != 0);
  // Device Queries table: the minimums for a device that supports
  // on-device queues.
  CHECK((deviceInfo<cl_command_queue_properties>(
             D, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES) &
         CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0);
  auto Preferred =
      deviceInfo<cl_uint>(D, CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE);
  auto Max = deviceInfo<cl_uint>(D, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE);
  CHECK(Preferred >= 16 * 1024);
  CHECK(Max >= 256 * 1024);
  CHECK(Preferred <= Max);
  CHECK(deviceInfo<cl_uint>(D, CL_DEVICE_MAX_ON_DEVICE_QUEUES) >= 1);
  CHECK(deviceInfo<cl_uint>(D, CL_DEVICE_MAX_ON_DEVICE_EVENTS) >= 1024);
  CHECK(featureVersion(D, "__opencl_c_device_enqueue") ==
        CL_MAKE_VERSION(3, 0, 0));
  // With pipes and device-side enqueue every OpenCL C 2.0 feature is there:
  // the device lists OpenCL C 2.0 and names it its highest 2.x version.
  size_t N = 0;
  REQUIRE(clGetDeviceInfo(D, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, nullptr, &N) ==
          CL_SUCCESS);
  std::vector<cl_name_version> All(N / sizeof(cl_name_version));
  REQUIRE(clGetDeviceInfo(D, CL_DEVICE_OPENCL_C_ALL_VERSIONS, N, All.data(),
                          nullptr) == CL_SUCCESS);
  bool Has20 = false;
  for (const cl_name_version &V : All)
    Has20 |= V.version == CL_MAKE_VERSION(2, 0, 0);
  CHECK(Has20);
  CHECK(deviceString(D, CL_DEVICE_OPENCL_C_VERSION).rfind("OpenCL C 2.0 ", 0) ==
        0);
}

TEST_CASE("5.1: on-device queues, CL_QUEUE_SIZE and the default device queue",
          "[enqueue]") {
  Env E;
  cl_int Err = -1;
  auto Bad = [&](std::vector<cl_queue_properties> Props) {
    cl_int Code = 0;
    CHECK(clCreateCommandQueueWithProperties(E.C, E.D, Props.data(), &Code) ==
          nullptr);
    return Code;
  };
  // "If CL_QUEUE_ON_DEVICE is set, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
  // must also be set."
  CHECK(Bad({CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0}) == CL_INVALID_VALUE);
  // CL_QUEUE_SIZE only with CL_QUEUE_ON_DEVICE, at most the maximum.
  CHECK(Bad({CL_QUEUE_SIZE, 4096, 0}) == CL_INVALID_VALUE);
  cl_uint Max = deviceInfo<cl_uint>(E.D, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE);
  CHECK(Bad({CL_QUEUE_PROPERTIES,
             CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE,
             CL_QUEUE_SIZE, cl_queue_properties(Max) + 1, 0}) ==
        CL_INVALID_VALUE);

  // No default device queue yet.
  cl_command_queue Got = reinterpret_cast<cl_command_queue>(1);
  REQUIRE(clGetCommandQueueInfo(E.Q, CL_QUEUE_DEVICE_DEFAULT, sizeof Got, &Got,
                                nullptr) == CL_SUCCESS);
  CHECK(Got == nullptr);
  // CL_QUEUE_SIZE of a host queue: CL_INVALID_COMMAND_QUEUE.
  cl_uint Size = 0;
  CHECK(clGetCommandQueueInfo(E.Q, CL_QUEUE_SIZE, sizeof Size, &Size,
                              nullptr) == CL_INVALID_COMMAND_QUEUE);

  QueueRef Def{deviceQueue(E, true)};
  QueueRef Other{deviceQueue(E, false, 4096)};
  REQUIRE(clGetCommandQueueInfo(Def.Q, CL_QUEUE_SIZE, sizeof Size, &Size,
                                nullptr) == CL_SUCCESS);
  CHECK(Size ==
        deviceInfo<cl_uint>(E.D, CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE));
  REQUIRE(clGetCommandQueueInfo(Other.Q, CL_QUEUE_SIZE, sizeof Size, &Size,
                                nullptr) == CL_SUCCESS);
  CHECK(Size == 4096);
  cl_command_queue_properties P = 0;
  REQUIRE(clGetCommandQueueInfo(Def.Q, CL_QUEUE_PROPERTIES, sizeof P, &P,
                                nullptr) == CL_SUCCESS);
  CHECK(P == (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE |
              CL_QUEUE_ON_DEVICE_DEFAULT));
  REQUIRE(clGetCommandQueueInfo(E.Q, CL_QUEUE_DEVICE_DEFAULT, sizeof Got, &Got,
                                nullptr) == CL_SUCCESS);
  CHECK(Got == Def.Q);

  // clSetDefaultDeviceCommandQueue replaces it; a host queue is not one.
  CHECK(clSetDefaultDeviceCommandQueue(E.C, E.D, Other.Q) == CL_SUCCESS);
  REQUIRE(clGetCommandQueueInfo(Def.Q, CL_QUEUE_DEVICE_DEFAULT, sizeof Got,
                                &Got, nullptr) == CL_SUCCESS);
  CHECK(Got == Other.Q);
  CHECK(clSetDefaultDeviceCommandQueue(E.C, E.D, E.Q) ==
        CL_INVALID_COMMAND_QUEUE);
  CHECK(clSetDefaultDeviceCommandQueue(E.C, E.D, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  CHECK(clSetDefaultDeviceCommandQueue(nullptr, E.D, Other.Q) ==
        CL_INVALID_CONTEXT);
  CHECK(clSetDefaultDeviceCommandQueue(E.C, nullptr, Other.Q) ==
        CL_INVALID_DEVICE);

  // A queue_t kernel argument takes an on-device queue of the context
  // (5.9.2: CL_INVALID_DEVICE_QUEUE otherwise).
  cl_kernel K =
      E.kernel("kernel void k(queue_t q, global int *o) { o[0] = 1; }", "k",
               "-cl-std=CL2.0");
  CHECK(clSetKernelArg(K, 0, sizeof(cl_command_queue), &Other.Q) == CL_SUCCESS);
  CHECK(clSetKernelArg(K, 0, sizeof(cl_command_queue), &E.Q) ==
        CL_INVALID_DEVICE_QUEUE);
  cl_command_queue Null = nullptr;
  CHECK(clSetKernelArg(K, 0, sizeof(cl_command_queue), &Null) ==
        CL_INVALID_DEVICE_QUEUE);
  CHECK(clSetKernelArg(K, 0, sizeof(cl_command_queue), nullptr) ==
        CL_INVALID_DEVICE_QUEUE);
  CHECK(clSetKernelArg(K, 0, 4, &Other.Q) == CL_INVALID_ARG_SIZE);
  (void)Err;
}

namespace {
const char *const Basic = R"(
kernel void parent(global int *out, int add, global int *status) {
  queue_t q = get_default_queue();
  // One child per parent work-group, from its first work-item.
  if (get_local_id(0) == 0) {
    size_t base = get_group_id(0) * 64;
    status[get_group_id(0)] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL,
        ndrange_1D(base, 64, 16), ^{
          size_t g = get_global_id(0);
          out[g] = (int)g * 2 + add;
        });
  }
}
)";
} // namespace

TEST_CASE("6.13.17: enqueue_kernel runs a block as a child NDRange, and the "
          "parent's event completes after it (OpenCL C 2.0 and 3.0)",
          "[enqueue]") {
  for (const char *Std : {"-cl-std=CL2.0", "-cl-std=CL3.0"}) {
    Env E;
    QueueRef DQ{deviceQueue(E, true)};
    const size_t Groups = 8;
    cl_mem Out = E.buffer(std::vector<cl_int>(Groups * 64, -1));
    cl_mem Status = E.buffer(std::vector<cl_int>(Groups, 1));
    cl_kernel K = E.kernel(Basic, "parent", Std);
    E.arg(K, 0, Out);
    E.arg(K, 1, cl_int(5));
    E.arg(K, 2, Status);
    size_t Global = Groups * 4, Local = 4;
    cl_event Ev = nullptr;
    REQUIRE(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &Global, &Local, 0,
                                   nullptr, &Ev) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &Ev) == CL_SUCCESS);
    cl_int St = -1;
    REQUIRE(clGetEventInfo(Ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof St,
                           &St, nullptr) == CL_SUCCESS);
    CHECK(St == CL_COMPLETE);
    clReleaseEvent(Ev);
    std::vector<cl_int> Want(Groups * 64);
    for (size_t I = 0; I < Want.size(); ++I)
      Want[I] = cl_int(I) * 2 + 5;
    sched::expectEqual(E.read<cl_int>(Out, Want.size()), Want, Std);
    sched::expectEqual(E.read<cl_int>(Status, Groups),
                       std::vector<cl_int>(Groups, 0), "status");
    // The block's kernel is the runtime's, not the application's.
    cl_program P = E.Programs.back();
    size_t NumKernels = 0;
    REQUIRE(clGetProgramInfo(P, CL_PROGRAM_NUM_KERNELS, sizeof NumKernels,
                             &NumKernels, nullptr) == CL_SUCCESS);
    CHECK(NumKernels == 1);
  }
}

namespace {
const char *const Forms = R"(
kernel void forms(queue_t q, global int *out, global int *status) {
  // Every form of enqueue_kernel and every flag, from one work-item each.
  int i = get_global_id(0);
  clk_event_t e1, e2;
  switch (i) {
  case 0: {
    size_t g[2] = {4, 8}, l[2] = {2, 4};
    status[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_2D(g, l),
        ^{ out[get_global_id(1) * 4 + get_global_id(0)] += 1; });
    break;
  }
  case 1: {
    size_t o[3] = {0, 0, 1}, g[3] = {2, 2, 2}, l[3] = {1, 2, 2};
    status[1] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP,
        ndrange_3D(o, g, l), ^{
          out[32 + (get_global_id(2) - 1) * 4 + get_global_id(1) * 2 +
              get_global_id(0)] += 10 + (int)get_work_dim();
        });
    break;
  }
  case 2: {
    // Events: the second child waits for the first and reads its result.
    status[2] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),
        0, NULL, &e1, ^{ out[40] = 7; });
    status[3] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),
        1, &e1, &e2, ^{ out[41] = out[40] * 3; });
    release_event(e1);
    release_event(e2);
    break;
  }
  case 3: {
    // __local pointer arguments, sized by the enqueue.
    status[4] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL,
        ndrange_1D(16, 16), ^(local void *a, local void *b) {
          local int *x = (local int *)a, *y = (local int *)b;
          int l = get_local_id(0);
          x[l] = l;
          y[l] = 100;
          work_group_barrier(CLK_LOCAL_MEM_FENCE);
          out[48 + l] = x[15 - l] + y[l];
        }, 16u * sizeof(int), 16u * sizeof(int));
    break;
  }
  case 4: {
    // Events and __local arguments together.
    clk_event_t m;
    status[5] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),
        0, NULL, &m, ^{ out[64] = 1; });
    status[6] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4),
        1, &m, NULL, ^(local void *a) {
          ((local int *)a)[get_local_id(0)] = out[64] + 1;
          out[65 + get_global_id(0)] = ((local int *)a)[get_local_id(0)];
        }, 4u * sizeof(int));
    release_event(m);
    break;
  }
  }
}
)";
} // namespace

TEST_CASE("6.13.17.1-3: the four forms of enqueue_kernel, every flag, "
          "ndrange_1D/2D/3D, __local block arguments, event wait lists",
          "[enqueue]") {
  Env E;
  QueueRef DQ{deviceQueue(E, false)};
  cl_mem Out = E.buffer(std::vector<cl_int>(80, 0));
  cl_mem Status = E.buffer(std::vector<cl_int>(8, 1));
  cl_kernel K = E.kernel(Forms, "forms", "-cl-std=CL2.0");
  E.arg(K, 0, DQ.Q);
  E.arg(K, 1, Out);
  E.arg(K, 2, Status);
  size_t Global = 5;
  REQUIRE(E.run(K, 1, &Global, nullptr) == CL_SUCCESS);
  std::vector<cl_int> Want(80, 0);
  for (int I = 0; I < 32; ++I)
    Want[I] = 1;
  for (int I = 32; I < 40; ++I)
    Want[I] = 13;
  Want[40] = 7;
  Want[41] = 21;
  for (int L = 0; L < 16; ++L)
    Want[48 + L] = 15 - L + 100;
  Want[64] = 1;
  for (int I = 0; I < 4; ++I)
    Want[65 + I] = 2;
  sched::expectEqual(E.read<cl_int>(Out, 80), Want, "out");
  std::vector<cl_int> WantStatus(8, 0);
  WantStatus[7] = 1;
  sched::expectEqual(E.read<cl_int>(Status, 8), WantStatus, "status");
}

namespace {
const char *const Events = R"(
kernel void events(global int *out, global ulong *prof) {
  queue_t q = get_default_queue();
  // A child that waits for a user event the parent completes, a marker on
  // both, and profiling of the child.
  clk_event_t u = create_user_event();
  out[0] = is_valid_event(u);
  clk_event_t c, m;
  out[1] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(8), 1, &u,
                          &c, ^{ out[8 + get_global_id(0)] = 1; });
  capture_event_profiling_info(c, CLK_PROFILING_COMMAND_EXEC_TIME, prof);
  clk_event_t both[2] = {u, c};
  out[2] = enqueue_marker(q, 2, both, &m);
  out[3] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &m,
                          NULL, ^{ out[4] = out[8] + out[15]; });
  retain_event(c);
  release_event(c);
  set_user_event_status(u, CL_COMPLETE);
  release_event(u);
  release_event(c);
  release_event(m);
  // A user event set to an error: what waits for it does not run.
  clk_event_t f = create_user_event();
  out[5] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &f,
                          NULL, ^{ out[6] = 99; });
  set_user_event_status(f, -1);
  release_event(f);
  clk_event_t none = CLK_NULL_EVENT;
  out[7] = is_valid_event(none);
}
)";
} // namespace

TEST_CASE("6.13.17.8-9: device events: user events, markers, retain/release, "
          "is_valid_event, capture_event_profiling_info",
          "[enqueue]") {
  Env E;
  QueueRef DQ{deviceQueue(E, true)};
  cl_mem Out = E.buffer(std::vector<cl_int>(16, -1));
  cl_mem Prof = E.buffer(std::vector<cl_ulong>(2, ~cl_ulong(0)));
  cl_kernel K = E.kernel(Events, "events", "-cl-std=CL2.0");
  E.arg(K, 0, Out);
  E.arg(K, 1, Prof);
  size_t One = 1;
  REQUIRE(E.run(K, 1, &One, nullptr) == CL_SUCCESS);
  std::vector<cl_int> Got = E.read<cl_int>(Out, 16);
  CHECK(Got[0] == 1);
  CHECK(Got[1] == 0);
  CHECK(Got[2] == 0);
  CHECK(Got[3] == 0);
  CHECK(Got[4] == 2);
  CHECK(Got[5] == 0);
  CHECK(Got[6] == -1); // never ran
  CHECK(Got[7] == 0);
  for (int I = 8; I < 16; ++I)
    CHECK(Got[I] == 1);
  std::vector<cl_ulong> P = E.read<cl_ulong>(Prof, 2);
  // Execution time, then the time until the children completed: both
  // written, the second not below the first.
  CHECK(P[0] != ~cl_ulong(0));
  CHECK(P[1] >= P[0]);
  CHECK(P[1] < cl_ulong(10) * 1000 * 1000 * 1000);
}

namespace {
const char *const Recursion = R"(
void level(global int *out, int depth, int max) {
  out[depth] = depth * depth;
  if (depth + 1 < max)
    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL,
                   ndrange_1D(1), ^{ level(out, depth + 1, max); });
}
kernel void recurse(global int *out, int max) { level(out, 0, max); }
)";
} // namespace

TEST_CASE("6.13.17: a kernel enqueuing itself to a bounded depth",
          "[enqueue]") {
  Env E;
  QueueRef DQ{deviceQueue(E, true)};
  const int Depth = 200;
  cl_mem Out = E.buffer(std::vector<cl_int>(Depth + 1, -1));
  cl_kernel K = E.kernel(Recursion, "recurse", "-cl-std=CL2.0");
  E.arg(K, 0, Out);
  E.arg(K, 1, cl_int(Depth));
  size_t One = 1;
  REQUIRE(E.run(K, 1, &One, nullptr) == CL_SUCCESS);
  std::vector<cl_int> Want(Depth + 1, -1);
  for (int I = 0; I < Depth; ++I)
    Want[I] = I * I;
  sched::expectEqual(E.read<cl_int>(Out, Depth + 1), Want, "depth");
}

namespace {
const char *const Full = R"(
kernel void full(queue_t q, global int *status, global int *count) {
  for (int i = 0; i < 64; ++i)
    status[i] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),
                               ^{ atomic_inc(count); });
}
)";
} // namespace

TEST_CASE("6.13.17.1: a full device queue gives CLK_DEVICE_QUEUE_FULL (with "
          "-g; CLK_ENQUEUE_FAILURE without)",
          "[enqueue]") {
  for (bool Debug : {true, false}) {
    Env E;
    // Room for 16 commands (runtime/DeviceQueue.h: 128 bytes each).
    QueueRef DQ{deviceQueue(E, false, 16 * 128)};
    cl_mem Status = E.buffer(std::vector<cl_int>(64, 1));
    cl_mem Count = E.buffer(std::vector<cl_int>(1, 0));
    cl_kernel K =
        E.kernel(Full, "full", Debug ? "-cl-std=CL2.0 -g" : "-cl-std=CL2.0");
    E.arg(K, 0, DQ.Q);
    E.arg(K, 1, Status);
    E.arg(K, 2, Count);
    size_t One = 1;
    REQUIRE(E.run(K, 1, &One, nullptr) == CL_SUCCESS);
    std::vector<cl_int> Got = E.read<cl_int>(Status, 64);
    for (int I = 0; I < 64; ++I)
      CHECK(Got[I] == (I < 16  ? 0
                       : Debug ? ClkDeviceQueueFull
                               : ClkEnqueueFailure));
    CHECK(E.read<cl_int>(Count, 1)[0] == 16);
    // The queue's room comes back once its commands completed.
    std::vector<cl_int> Zero(1, 0);
    REQUIRE(clEnqueueWriteBuffer(E.Q, Count, CL_TRUE, 0, sizeof(cl_int),
                                 Zero.data(), 0, nullptr,
                                 nullptr) == CL_SUCCESS);
    REQUIRE(E.run(K, 1, &One, nullptr) == CL_SUCCESS);
    CHECK(E.read<cl_int>(Count, 1)[0] == 16);
  }
}

namespace {
const char *const BadInputs = R"(
kernel void bad(queue_t q, global int *status, global int *ran, int tries) {
  ndrange_t r = ndrange_1D(8);
  // CLK_INVALID_QUEUE: no default queue exists.
  status[0] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT,
                             r, ^{ ran[0] = 1; });
  // An unknown kernel_enqueue_flags_t value.
  status[1] = enqueue_kernel(q, (kernel_enqueue_flags_t)7, r,
                             ^{ ran[0] = 1; });
  // CLK_INVALID_NDRANGE: a local size above the global one, dimension 0,
  // a global size of 0.
  status[2] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4, 8),
                             ^{ ran[0] = 1; });
  ndrange_t z = ndrange_1D(8);
  z.workDimension = 0;
  status[3] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, z, ^{ ran[0] = 1; });
  status[4] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(0),
                             ^{ ran[0] = 1; });
  // CLK_INVALID_EVENT_WAIT_LIST: a count without a list, an invalid event.
  status[5] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, r, 2, NULL, NULL,
                             ^{ ran[0] = 1; });
  clk_event_t e = CLK_NULL_EVENT;
  status[6] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, r, 1, &e, NULL,
                             ^{ ran[0] = 1; });
  // CLK_INVALID_ARG_SIZE: a __local argument of 0 bytes.
  status[7] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, r,
                             ^(local void *p) { ran[0] = 1; }, 0u);
  // CLK_INVALID_EVENT_WAIT_LIST: a marker without events.
  status[8] = enqueue_marker(q, 0, NULL, NULL);
  // Events beyond CL_DEVICE_MAX_ON_DEVICE_EVENTS are not allocated.
  int valid = 0;
  for (int i = 0; i < tries; ++i)
    valid += is_valid_event(create_user_event());
  status[9] = valid;
}
)";
} // namespace

TEST_CASE("6.13.17.1: bad enqueue_kernel requests get the spec's errors and "
          "never run",
          "[enqueue]") {
  Env E;
  QueueRef DQ{deviceQueue(E, false)};
  cl_mem Status = E.buffer(std::vector<cl_int>(10, 1));
  cl_mem Ran = E.buffer(std::vector<cl_int>(1, 0));
  cl_kernel K = E.kernel(BadInputs, "bad", "-cl-std=CL2.0 -g");
  E.arg(K, 0, DQ.Q);
  E.arg(K, 1, Status);
  E.arg(K, 2, Ran);
  cl_uint MaxEvents = deviceInfo<cl_uint>(E.D, CL_DEVICE_MAX_ON_DEVICE_EVENTS);
  E.arg(K, 3, cl_int(MaxEvents + 16));
  size_t One = 1;
  REQUIRE(E.run(K, 1, &One, nullptr) == CL_SUCCESS);
  std::vector<cl_int> Got = E.read<cl_int>(Status, 10);
  CHECK(Got[0] == ClkInvalidQueue);
  CHECK(Got[1] == ClkEnqueueFailure);
  CHECK(Got[2] == ClkInvalidNDRange);
  CHECK(Got[3] == ClkInvalidNDRange);
  CHECK(Got[4] == ClkInvalidNDRange);
  CHECK(Got[5] == ClkInvalidEventWaitList);
  CHECK(Got[6] == ClkInvalidEventWaitList);
  CHECK(Got[7] == ClkInvalidArgSize);
  CHECK(Got[8] == ClkEnqueueFailure); // enqueue_marker: no -g detail
  CHECK(Got[9] == cl_int(MaxEvents));
  CHECK(E.read<cl_int>(Ran, 1)[0] == 0);
}

namespace {
const char *const Queries = R"(
kernel void queries(global uint *out) {
  out[0] = get_kernel_work_group_size(^{ out[9] = 1; });
  out[1] = get_kernel_preferred_work_group_size_multiple(^{ out[9] = 1; });
  ndrange_t r = ndrange_1D(256, 64);
  out[2] = get_kernel_max_sub_group_size_for_ndrange(r, ^{ out[9] = 1; });
  out[3] = get_kernel_sub_group_count_for_ndrange(r, ^{ out[9] = 1; });
  out[4] = get_kernel_work_group_size(^(local void *p) {
    ((local int *)p)[0] = 1;
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    out[9] = ((local int *)p)[0];
  });
}
kernel void reference(global uint *out) { out[get_global_id(0)] = 0; }
)";
} // namespace

TEST_CASE("6.13.17.6: the block queries agree with clGetKernelWorkGroupInfo "
          "and clGetKernelSubGroupInfo",
          "[enqueue]") {
  Env E;
  QueueRef DQ{deviceQueue(E, true)};
  cl_mem Out = E.buffer(std::vector<cl_uint>(10, 0));
  cl_program P = E.build(Queries, "-cl-std=CL2.0");
  E.launch(P, "queries", 1, 1, Out);
  std::vector<cl_uint> Got = E.read<cl_uint>(Out, 10);
  cl_int Err = -1;
  cl_kernel Ref = clCreateKernel(P, "reference", &Err);
  REQUIRE(Err == CL_SUCCESS);
  E.Kernels.push_back(Ref);
  size_t Wg = 0, Multiple = 0;
  REQUIRE(clGetKernelWorkGroupInfo(Ref, E.D, CL_KERNEL_WORK_GROUP_SIZE,
                                   sizeof Wg, &Wg, nullptr) == CL_SUCCESS);
  REQUIRE(clGetKernelWorkGroupInfo(
              Ref, E.D, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
              sizeof Multiple, &Multiple, nullptr) == CL_SUCCESS);
  size_t Local = 64, MaxSub = 0, Count = 0;
  REQUIRE(clGetKernelSubGroupInfo(
              Ref, E.D, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof Local,
              &Local, sizeof MaxSub, &MaxSub, nullptr) == CL_SUCCESS);
  REQUIRE(clGetKernelSubGroupInfo(
              Ref, E.D, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof Local,
              &Local, sizeof Count, &Count, nullptr) == CL_SUCCESS);
  CHECK(Got[0] == Wg);
  CHECK(Got[1] == Multiple);
  CHECK(Got[2] == MaxSub);
  CHECK(Got[3] == Count);
  CHECK(Got[4] >= 1);
  CHECK(Got[4] <= Wg);
  CHECK(Got[9] == 0); // the blocks were only queried, never run
}
