//===- runtime/api/PipeApi.cpp - pipe entry points ------------------------===//
//
// OpenCL 3.0 API spec, 5.4 "Pipes". The device reports
// CL_DEVICE_PIPE_SUPPORT = CL_FALSE: clCreatePipe fails with
// CL_INVALID_OPERATION and no memory object is ever a pipe.
//
//===----------------------------------------------------------------------===//

#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/Error.h"
#include "runtime/Mem.h"

using namespace clcpu;

CL_API_ENTRY cl_mem CL_API_CALL
clCreatePipe(cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size,
             cl_uint pipe_max_packets, const cl_pipe_properties *properties,
             cl_int *errcode_ret) {
  return apiCreate<cl_mem>(__func__, errcode_ret, [&](cl_mem &) {
    // CL_INVALID_CONTEXT if context is not a valid context.
    Context *C = Context::fromHandle(context);
    if (!C)
      return fail(CL_INVALID_CONTEXT, "context is not a valid context");
    // CL_INVALID_OPERATION if no devices in context support pipes.
    if (C->anyDeviceSupports(CL_DEVICE_PIPE_SUPPORT))
      return fail(CL_INVALID_OPERATION, "pipes are not implemented", C);
    return fail(CL_INVALID_OPERATION, "no devices in context support pipes", C);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe,
                                              cl_pipe_info param_name,
                                              size_t param_value_size,
                                              void *param_value,
                                              size_t *param_value_size_ret) {
  return apiCall(__func__, [&] {
    // CL_INVALID_MEM_OBJECT if pipe is a not a valid pipe object.
    // (Every valid memory object is a buffer: no device supports pipes.)
    Mem *M = Mem::fromHandle(pipe);
    return fail(CL_INVALID_MEM_OBJECT,
                M ? "pipe is a buffer, not a pipe object"
                  : "pipe is not a valid pipe object",
                M ? M->context() : nullptr);
  });
}
