//===- runtime/api/OptionalFeatureApi.cpp - unsupported optional features -===//
//
// Entry points of optional features the device does not report, each with
// the error the OpenCL 3.0 API spec gives for a device without the feature:
// native kernels (5.10, CL_DEVICE_EXECUTION_CAPABILITIES lacks
// CL_EXEC_NATIVE_KERNEL). The checks before the feature check are done in
// full. Also the sub-group queries (5.9.4, clGetKernelSubGroupInfo and
// cl_khr_subgroups' clGetKernelSubGroupInfoKHR), answered by
// Kernel::getSubGroupInfo.
//
//===----------------------------------------------------------------------===//

#include "runtime/CommandQueue.h"
#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/Error.h"
#include "runtime/Kernel.h"
#include "runtime/Program.h"

#include <CL/cl_ext.h>

using namespace clcpu;

namespace {
template <typename T> T deviceInfo(const Device *D, cl_device_info Param) {
  T V{};
  if (D->getInfo(Param, InfoOut(sizeof(V), &V, nullptr)) != CL_SUCCESS)
    return T{};
  return V;
}

cl_int kernelSubGroupInfo(cl_kernel in_kernel, cl_device_id in_device,
                          cl_kernel_sub_group_info param_name,
                          size_t input_value_size, const void *input_value,
                          size_t param_value_size, void *param_value,
                          size_t *param_value_size_ret) {
  // CL_INVALID_KERNEL if kernel is a not a valid kernel object.
  Kernel *K = Kernel::fromHandle(in_kernel);
  if (!K)
    return fail(CL_INVALID_KERNEL, "kernel is not a valid kernel object");
  Program *P = K->program();
  Context *C = P->context();
  // CL_INVALID_DEVICE if device is not in the list of devices associated with
  // kernel or if device is NULL but there is more than one device associated
  // with kernel.
  const Device *D = nullptr;
  if (!in_device) {
    if (P->devices().size() != 1)
      return fail(CL_INVALID_DEVICE,
                  "device is NULL but there is more than one device "
                  "associated with kernel",
                  C);
    D = P->devices().front();
  } else {
    D = Device::fromHandle(in_device);
    if (!D || !P->hasDevice(D))
      return fail(CL_INVALID_DEVICE,
                  "device is not in the list of devices associated with "
                  "kernel",
                  C);
  }
  // CL_INVALID_OPERATION if device does not support sub-groups.
  if (deviceInfo<cl_uint>(D, CL_DEVICE_MAX_NUM_SUB_GROUPS) == 0)
    return fail(CL_INVALID_OPERATION, "device does not support sub-groups", C);
  return K->getSubGroupInfo(D, param_name, input_value_size, input_value,
                            param_value_size, param_value,
                            param_value_size_ret);
}
} // namespace

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNativeKernel(
    cl_command_queue command_queue, void(CL_CALLBACK *user_func)(void *),
    void *args, size_t cb_args, cl_uint num_mem_objects, const cl_mem *mem_list,
    const void **args_mem_loc, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return apiCall(__func__, [&] {
    // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host
    // command-queue.
    CommandQueue *Q = CommandQueue::fromHandle(command_queue);
    if (!Q)
      return fail(CL_INVALID_COMMAND_QUEUE,
                  "command_queue is not a valid host command-queue");
    // CL_INVALID_OPERATION if the device associated with command_queue cannot
    // execute the native kernel.
    if (!(deviceInfo<cl_device_exec_capabilities>(
              Q->device(), CL_DEVICE_EXECUTION_CAPABILITIES) &
          CL_EXEC_NATIVE_KERNEL))
      return fail(CL_INVALID_OPERATION,
                  "the device associated with command_queue cannot execute "
                  "native kernels (no CL_EXEC_NATIVE_KERNEL)",
                  Q->context());
    return fail(CL_INVALID_OPERATION, "native kernels are not implemented",
                Q->context());
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(
    cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name,
    size_t input_value_size, const void *input_value, size_t param_value_size,
    void *param_value, size_t *param_value_size_ret) {
  return apiCall(__func__, [&] {
    return kernelSubGroupInfo(kernel, device, param_name, input_value_size,
                              input_value, param_value_size, param_value,
                              param_value_size_ret);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfoKHR(
    cl_kernel in_kernel, cl_device_id in_device,
    cl_kernel_sub_group_info param_name, size_t input_value_size,
    const void *input_value, size_t param_value_size, void *param_value,
    size_t *param_value_size_ret) {
  return apiCall(__func__, [&] {
    return kernelSubGroupInfo(in_kernel, in_device, param_name,
                              input_value_size, input_value, param_value_size,
                              param_value, param_value_size_ret);
  });
}
