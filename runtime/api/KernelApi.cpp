//===- runtime/api/KernelApi.cpp - kernel entry points (5.9, 5.10) --------===//

#include "runtime/CheckedMath.h"
#include "runtime/CommandQueue.h"
#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/Kernel.h"
#include "runtime/Program.h"
#include "runtime/api/CommandWork.h"
#include "runtime/api/HandleCheck.h"
#include "scheduler/Executor.h"
#include "scheduler/NDRange.h"

#include <cstring>
#include <limits>

using namespace clcpu;

namespace {
/// CL_INVALID_KERNEL if kernel is not a valid kernel object.
constexpr HandleCheck KernelCheck{CL_INVALID_KERNEL, "kernel",
                                  "kernel is not a valid kernel"};

/// The checks clCreateKernel and clCreateKernelsInProgram start with: a
/// valid program (\p P) with a successfully built executable (\p Exe).
cl_int builtProgram(cl_program program, Program *&P,
                    std::shared_ptr<const compiler::CompiledProgram> &Exe) {
  // CL_INVALID_PROGRAM if program is not a valid program object.
  P = Program::fromHandle(program);
  if (!P)
    return fail(CL_INVALID_PROGRAM, "program is not a valid program");
  // CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
  // executable for program (clCreateKernelsInProgram: for any device in
  // program).
  Exe = P->executable();
  if (!Exe)
    return fail(CL_INVALID_PROGRAM_EXECUTABLE,
                "the program has no successfully built executable",
                P->context());
  return CL_SUCCESS;
}
} // namespace

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program program,
                                                  const char *kernel_name,
                                                  cl_int *errcode_ret) {
  return apiCreate<cl_kernel>(__func__, errcode_ret, [&](cl_kernel &Out) {
    Program *P;
    std::shared_ptr<const compiler::CompiledProgram> Exe;
    if (cl_int Err = builtProgram(program, P, Exe))
      return Err;
    // CL_INVALID_VALUE if kernel_name is NULL.
    if (!kernel_name)
      return fail(CL_INVALID_VALUE, "kernel_name is NULL", P->context());
    for (const compiler::KernelInfo &K : Exe->Kernels)
      if (K.Name == kernel_name && !K.Block) {
        Out = (new Kernel(P, Exe, K))->handle();
        return CL_SUCCESS;
      }
    // CL_INVALID_KERNEL_NAME if kernel_name is not found in program.
    return fail(CL_INVALID_KERNEL_NAME,
                std::string("no kernel named '") + kernel_name + "'",
                P->context());
  });
}

CL_API_ENTRY cl_int CL_API_CALL
clCreateKernelsInProgram(cl_program program, cl_uint num_kernels,
                         cl_kernel *kernels, cl_uint *num_kernels_ret) {
  return apiCall(__func__, [&] {
    Program *P;
    std::shared_ptr<const compiler::CompiledProgram> Exe;
    if (cl_int Err = builtProgram(program, P, Exe))
      return Err;
    // The kernels of enqueued blocks are the runtime's (KernelInfo::Block).
    std::vector<const compiler::KernelInfo *> Own;
    for (const compiler::KernelInfo &K : Exe->Kernels)
      if (!K.Block)
        Own.push_back(&K);
    cl_uint N = static_cast<cl_uint>(Own.size());
    // CL_INVALID_VALUE if kernels is not NULL and num_kernels is less than
    // the number of kernels in program.
    if (kernels && num_kernels < N)
      return fail(CL_INVALID_VALUE,
                  "num_kernels is less than the " + std::to_string(N) +
                      " kernels",
                  P->context());
    if (kernels)
      for (cl_uint I = 0; I < N; ++I)
        kernels[I] = (new Kernel(P, Exe, *Own[I]))->handle();
    if (num_kernels_ret)
      *num_kernels_ret = N;
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  return retainCall<Kernel>(__func__, kernel, KernelCheck);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  return releaseCall<Kernel>(__func__, kernel, KernelCheck);
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel,
                                               cl_uint arg_index,
                                               size_t arg_size,
                                               const void *arg_value) {
  return objectCall<Kernel>(__func__, kernel, KernelCheck, [&](Kernel *K) {
    return K->setArg(arg_index, arg_size, arg_value);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel,
                                                cl_kernel_info param_name,
                                                size_t param_value_size,
                                                void *param_value,
                                                size_t *param_value_size_ret) {
  return objectCall<Kernel>(__func__, kernel, KernelCheck, [&](Kernel *K) {
    return K->getInfo(param_name, InfoOut(param_value_size, param_value,
                                          param_value_size_ret));
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(
    cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  return objectCall<Kernel>(__func__, kernel, KernelCheck, [&](Kernel *K) {
    const auto &Devs = K->program()->devices();
    Device *D = nullptr;
    if (!device) {
      // CL_INVALID_DEVICE if device is NULL but there is more than one
      // device associated with kernel.
      if (Devs.size() != 1)
        return fail(CL_INVALID_DEVICE,
                    "device is NULL but the kernel has several devices",
                    K->context());
      D = Devs.front();
    } else {
      // CL_INVALID_DEVICE if device is not in the list of devices
      // associated with kernel.
      D = Device::fromHandle(device);
      if (!D || !K->program()->hasDevice(D))
        return fail(CL_INVALID_DEVICE, "device is not a device of the kernel",
                    K->context());
    }
    return K->getWorkGroupInfo(
        D, param_name,
        InfoOut(param_value_size, param_value, param_value_size_ret));
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelArgInfo(
    cl_kernel kernel, cl_uint arg_index, cl_kernel_arg_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  return objectCall<Kernel>(__func__, kernel, KernelCheck, [&](Kernel *K) {
    return K->getArgInfo(
        arg_index, param_name,
        InfoOut(param_value_size, param_value, param_value_size_ret));
  });
}

namespace {
/// The checks clEnqueueNDRangeKernel, clCommandNDRangeKernelKHR and
/// clGetKernelSuggestedLocalWorkSizeKHR share after the queue's (\p Q: the
/// queue, or the command-buffer's): the kernel, its executable and
/// arguments (unless \p ArgsLater), work_dim.
cl_int checkKernelLaunch(CommandQueue *Q, cl_kernel kernel, cl_uint work_dim,
                         Kernel *&K, bool ArgsLater = false) {
  Context *C = Q->context();
  // CL_INVALID_KERNEL if kernel is not a valid kernel object.
  K = Kernel::fromHandle(kernel);
  if (!K)
    return fail(CL_INVALID_KERNEL, "kernel is not a valid kernel", C);
  // CL_INVALID_CONTEXT if context associated with command_queue and kernel
  // are not the same.
  if (K->context() != C)
    return fail(CL_INVALID_CONTEXT,
                "the kernel and the queue have different contexts", C);
  // CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built program
  // executable available for device associated with command_queue.
  if (!K->info().Fn || !K->program()->hasDevice(Q->device()))
    return fail(CL_INVALID_PROGRAM_EXECUTABLE,
                "the kernel's program has no executable for the queue's "
                "device",
                C);
  // CL_INVALID_KERNEL_ARGS if the kernel argument values have not been
  // specified (cl_khr_command_buffer_mutable_dispatch: "and the
  // CL_MUTABLE_DISPATCH_ARGUMENTS_KHR flag was not set in the properties
  // parameter").
  cl_uint Missing = 0;
  if (!ArgsLater && !K->argsComplete(Missing))
    return fail(CL_INVALID_KERNEL_ARGS,
                "argument " + std::to_string(Missing) + " of kernel '" +
                    K->info().Name + "' has no value",
                C);
  // CL_INVALID_WORK_DIMENSION if work_dim is not a valid value (i.e. a value
  // between 1 and CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS).
  if (work_dim < 1 || work_dim > 3)
    return fail(CL_INVALID_WORK_DIMENSION,
                "work_dim " + std::to_string(work_dim) + " is not 1, 2 or 3",
                C);
  return CL_SUCCESS;
}

/// checkKernelLaunch after the command_queue check.
cl_int checkLaunch(cl_command_queue command_queue, cl_kernel kernel,
                   cl_uint work_dim, CommandQueue *&Q, Kernel *&K) {
  // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host
  // command-queue.
  if (cl_int Err = checkQueue(command_queue, Q))
    return Err;
  return checkKernelLaunch(Q, kernel, work_dim, K);
}

/// The launch of \p K on \p Q for a non-empty NDRange: the offsets, the
/// local size (the application's, the kernel's required one, or the one the
/// scheduler prefers) and the group counts, with their checks.
cl_int planLaunch(CommandQueue *Q, Kernel *K, cl_uint work_dim,
                  const size_t *global_work_offset,
                  const size_t *global_work_size, const size_t *local_work_size,
                  LaunchDescription &R) {
  Context *C = Q->context();
  R.WorkDim = work_dim;
  for (cl_uint D = 0; D < work_dim; ++D) {
    R.GlobalSize[D] = global_work_size[D];
    R.GlobalOffset[D] = global_work_offset ? global_work_offset[D] : 0;
    // CL_INVALID_GLOBAL_OFFSET if the value specified in global_work_size +
    // the corresponding values in global_work_offset for any dimensions is
    // greater than the maximum value representable by size_t on the device.
    if (R.GlobalOffset[D] >
        std::numeric_limits<size_t>::max() - R.GlobalSize[D])
      return fail(CL_INVALID_GLOBAL_OFFSET,
                  "global_work_offset[" + std::to_string(D) +
                      "] + global_work_size overflows size_t",
                  C);
  }
  size_t MaxGroup = K->maxWorkGroupSize(Q->device());
  const size_t *Reqd = K->info().ReqdWorkGroupSize;
  bool HasReqd = Reqd[0] != 0;
  if (local_work_size) {
    size_t Total = 1;
    for (cl_uint D = 0; D < work_dim; ++D) {
      R.EnqueuedLocalSize[D] = local_work_size[D];
      // A work-group with no work-item in some dimension is not a valid
      // work-group size.
      if (R.EnqueuedLocalSize[D] == 0)
        return fail(CL_INVALID_WORK_GROUP_SIZE,
                    "local_work_size[" + std::to_string(D) + "] is 0", C);
      // CL_INVALID_WORK_ITEM_SIZE if the number of work-items specified in
      // any of local_work_size[0], ... local_work_size[work_dim - 1] is
      // greater than the corresponding values specified by
      // CL_DEVICE_MAX_WORK_ITEM_SIZES[0], ...
      if (R.EnqueuedLocalSize[D] > MaxGroup)
        return fail(CL_INVALID_WORK_ITEM_SIZE,
                    "local_work_size[" + std::to_string(D) +
                        "] exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES",
                    C);
      // CL_INVALID_WORK_GROUP_SIZE if the program was compiled with
      // -cl-uniform-work-group-size and the number of work-items specified
      // by global_work_size is not evenly divisible by size of work-group
      // given by local_work_size (OpenCL C 1.x programs are uniform too).
      if (R.GlobalSize[D] % R.EnqueuedLocalSize[D] != 0 &&
          K->info().UniformWorkGroupSize)
        return fail(CL_INVALID_WORK_GROUP_SIZE,
                    "global_work_size[" + std::to_string(D) +
                        "] is not a multiple of local_work_size",
                    C);
      // CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and does
      // not match the required work-group size for kernel in the program
      // source.
      if (HasReqd && R.EnqueuedLocalSize[D] != Reqd[D])
        return fail(CL_INVALID_WORK_GROUP_SIZE,
                    "local_work_size does not match reqd_work_group_size", C);
      Total *= R.EnqueuedLocalSize[D];
    }
    // CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and the
    // total number of work-items in the work-group computed as
    // local_work_size[0] * ... local_work_size[work_dim - 1] is greater than
    // the value specified by CL_KERNEL_WORK_GROUP_SIZE.
    if (Total > MaxGroup)
      return fail(CL_INVALID_WORK_GROUP_SIZE,
                  "the work-group has " + std::to_string(Total) +
                      " work-items, more than CL_KERNEL_WORK_GROUP_SIZE",
                  C);
  } else if (HasReqd) {
    for (cl_uint D = 0; D < work_dim; ++D) {
      R.EnqueuedLocalSize[D] = Reqd[D];
      // CL_INVALID_WORK_GROUP_SIZE if local_work_size is NULL and the
      // reqd_work_group_size attribute is used to declare the work-group size
      // for kernel in the program source and the global size is not a
      // multiple of it (no non-uniform work-groups).
      if (R.GlobalSize[D] % R.EnqueuedLocalSize[D] != 0)
        return fail(CL_INVALID_WORK_GROUP_SIZE,
                    "global_work_size is not a multiple of "
                    "reqd_work_group_size",
                    C);
    }
  } else {
    Kernel::chooseLocalSize(R, MaxGroup, Q->executor().threads(),
                            K->info().PerWorkItem,
                            K->info().RegionScratch != 0);
  }
  // The work-item and work-group counts of the launch, from the
  // application's sizes: computed with overflow checks, since the scheduler
  // counts groups in size_t ({2^32, 2^32} work-items in groups of one is
  // 2^64 groups, which wraps to 0).
  CheckedSize Items = 1, Groups = 1;
  for (cl_uint D = 0; D < work_dim; ++D) {
    Items *= R.GlobalSize[D];
    R.NumGroups[D] = groupsIn(R.GlobalSize[D], R.EnqueuedLocalSize[D]);
    Groups *= R.NumGroups[D];
  }
  // CL_INVALID_GLOBAL_WORK_SIZE if any of the values specified in
  // global_work_size[0], ... global_work_size[work_dim - 1] exceed the
  // maximum value representable by size_t on the device on which the
  // kernel-instance will be enqueued (here: their product, the number of
  // work-items, which get_global_linear_id must be able to count).
  if (!Items.valid())
    return fail(CL_INVALID_GLOBAL_WORK_SIZE,
                "the NDRange has more work-items than size_t can count", C);
  // CL_OUT_OF_RESOURCES if there is a failure to queue the execution
  // instance of kernel on the command-queue because of insufficient
  // resources needed to execute the kernel.
  if (!Groups.fitsIn(MaxLaunchGroups))
    return fail(CL_OUT_OF_RESOURCES,
                "the NDRange has more than 2^48 work-groups, more than one "
                "launch can run",
                C);
  return CL_SUCCESS;
}

/// The checks of clEnqueueNDRangeKernel (also clEnqueueTask), then the
/// launch.
cl_int enqueueNDRange(cl_command_queue command_queue, cl_kernel kernel,
                      cl_uint work_dim, const size_t *global_work_offset,
                      const size_t *global_work_size,
                      const size_t *local_work_size,
                      cl_uint num_events_in_wait_list,
                      const cl_event *event_wait_list, cl_event *event,
                      cl_command_type Type) {
  CommandQueue *Q = nullptr;
  if (cl_int Err = checkQueue(command_queue, Q))
    return Err;
  std::shared_ptr<KernelLaunch> L;
  if (cl_int Err = prepareNDRange(Q, kernel, work_dim, global_work_offset,
                                  global_work_size, local_work_size, L))
    return Err;
  if (!L)
    return Q->enqueue(Type, num_events_in_wait_list, event_wait_list, event,
                      /*Blocking=*/false, [] { return CL_SUCCESS; });
  return Kernel::enqueue(Q, Type, std::move(L), num_events_in_wait_list,
                         event_wait_list, event);
}
} // namespace

cl_int clcpu::checkNDRangeKernel(CommandQueue *Q, cl_kernel kernel,
                                 cl_uint work_dim, bool ArgsLater, Kernel *&K) {
  return checkKernelLaunch(Q, kernel, work_dim, K, ArgsLater);
}

cl_int clcpu::planNDRange(CommandQueue *Q, Kernel *K, cl_uint work_dim,
                          const size_t *global_work_offset,
                          const size_t *global_work_size,
                          const size_t *local_work_size, LaunchDescription &R,
                          bool &Empty) {
  // OpenCL 2.1 and later: "If global_work_size is NULL, or the value in any
  // passed dimension is 0 then the kernel command will trivially succeed
  // after its event dependencies are satisfied and subsequently update its
  // completion event." (CL_INVALID_GLOBAL_WORK_SIZE for these cases applies
  // only to 2.0 and earlier devices.)
  Empty = !global_work_size;
  for (cl_uint D = 0; !Empty && D < work_dim; ++D)
    Empty = global_work_size[D] == 0;
  if (Empty)
    return CL_SUCCESS;
  return planLaunch(Q, K, work_dim, global_work_offset, global_work_size,
                    local_work_size, R);
}

cl_int clcpu::prepareNDRange(CommandQueue *Q, cl_kernel kernel,
                             cl_uint work_dim, const size_t *global_work_offset,
                             const size_t *global_work_size,
                             const size_t *local_work_size,
                             std::shared_ptr<KernelLaunch> &L) {
  Kernel *K = nullptr;
  if (cl_int Err = checkKernelLaunch(Q, kernel, work_dim, K))
    return Err;
  L.reset();
  LaunchDescription R;
  bool Empty = false;
  if (cl_int Err = planNDRange(Q, K, work_dim, global_work_offset,
                               global_work_size, local_work_size, R, Empty))
    return Err;
  if (Empty)
    return CL_SUCCESS;
  return K->prepare(Q, R, L, Kernel::CodeRef::ByQueue);
}

// cl_khr_suggested_local_work_size: the local size clEnqueueNDRangeKernel
// would choose for this launch with local_work_size NULL.
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSuggestedLocalWorkSizeKHR(
    cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
    const size_t *global_work_offset, const size_t *global_work_size,
    size_t *suggested_local_work_size) {
  return apiCall(__func__, [&]() -> cl_int {
    CommandQueue *Q = nullptr;
    Kernel *K = nullptr;
    if (cl_int Err = checkLaunch(command_queue, kernel, work_dim, Q, K))
      return Err;
    Context *C = Q->context();
    // CL_INVALID_GLOBAL_WORK_SIZE if global_work_size is NULL or if any of
    // the values specified in global_work_size are 0.
    if (!global_work_size)
      return fail(CL_INVALID_GLOBAL_WORK_SIZE, "global_work_size is NULL", C);
    for (cl_uint D = 0; D < work_dim; ++D)
      if (global_work_size[D] == 0)
        return fail(CL_INVALID_GLOBAL_WORK_SIZE,
                    "global_work_size[" + std::to_string(D) + "] is 0", C);
    // CL_INVALID_VALUE if suggested_local_work_size is NULL.
    if (!suggested_local_work_size)
      return fail(CL_INVALID_VALUE, "suggested_local_work_size is NULL", C);
    LaunchDescription R;
    if (cl_int Err = planLaunch(Q, K, work_dim, global_work_offset,
                                global_work_size, nullptr, R))
      return Err;
    for (cl_uint D = 0; D < work_dim; ++D)
      suggested_local_work_size[D] = R.EnqueuedLocalSize[D];
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(
    cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
    const size_t *global_work_offset, const size_t *global_work_size,
    const size_t *local_work_size, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return apiCall(__func__, [&] {
    return enqueueNDRange(command_queue, kernel, work_dim, global_work_offset,
                          global_work_size, local_work_size,
                          num_events_in_wait_list, event_wait_list, event,
                          CL_COMMAND_NDRANGE_KERNEL);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue,
                                              cl_kernel kernel,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list,
                                              cl_event *event) {
  return apiCall(__func__, [&] {
    // "clEnqueueTask is equivalent to calling clEnqueueNDRangeKernel with
    // work_dim set to 1, global_work_offset set to NULL, global_work_size[0]
    // set to 1, and local_work_size[0] set to 1."
    const size_t One = 1;
    return enqueueNDRange(command_queue, kernel, 1, nullptr, &One, &One,
                          num_events_in_wait_list, event_wait_list, event,
                          CL_COMMAND_TASK);
  });
}

CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel,
                                                 cl_int *errcode_ret) {
  return apiCreate<cl_kernel>(__func__, errcode_ret, [&](cl_kernel &Out) {
    // CL_INVALID_KERNEL if kernel is not a valid kernel object.
    Kernel *K = Kernel::fromHandle(source_kernel);
    if (!K)
      return fail(CL_INVALID_KERNEL, "source_kernel is not a valid kernel");
    Out = Kernel::clone(*K)->handle();
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgSVMPointer(
    cl_kernel kernel, cl_uint arg_index, const void *arg_value) {
  return objectCall<Kernel>(__func__, kernel, KernelCheck, [&](Kernel *K) {
    return K->setArgSvm(arg_index, arg_value);
  });
}

CL_API_ENTRY cl_int CL_API_CALL
clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                    size_t param_value_size, const void *param_value) {
  return objectCall<Kernel>(__func__, kernel, KernelCheck, [&](Kernel *K) {
    return K->setExecInfo(param_name, param_value_size, param_value);
  });
}
