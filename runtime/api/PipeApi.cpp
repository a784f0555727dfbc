//===- runtime/api/PipeApi.cpp - pipe entry points ------------------------===//
//
// OpenCL 3.0 API spec, 5.4 "Pipes": a pipe is a memory object
// (runtime/Mem.h) whose bytes are the ring the pipe built-ins work on
// (builtins/PipeLayout.h, builtins/pipe.cl).
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
  return apiCreate<cl_mem>(__func__, errcode_ret, [&](cl_mem &Out) {
    // CL_INVALID_CONTEXT if context is not a valid context.
    Context *C = Context::fromHandle(context);
    if (!C)
      return fail(CL_INVALID_CONTEXT, "context is not a valid context");
    // CL_INVALID_OPERATION if no devices in context support pipes.
    if (!C->anyDeviceSupports(CL_DEVICE_PIPE_SUPPORT))
      return fail(CL_INVALID_OPERATION, "no devices in context support pipes",
                  C);
    // "properties ... In OpenCL 3.0, it must be NULL": CL_INVALID_VALUE if
    // values specified in properties are not valid (none is).
    if (properties)
      return fail(CL_INVALID_VALUE, "properties is not NULL", C);
    Mem *M = nullptr;
    if (cl_int Err =
            Mem::createPipe(C, flags, pipe_packet_size, pipe_max_packets, M))
      return Err;
    Out = M->handle();
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe,
                                              cl_pipe_info param_name,
                                              size_t param_value_size,
                                              void *param_value,
                                              size_t *param_value_size_ret) {
  return apiCall(__func__, [&] {
    // CL_INVALID_MEM_OBJECT if pipe is a not a valid pipe object.
    Mem *M = Mem::fromHandle(pipe);
    if (!M)
      return fail(CL_INVALID_MEM_OBJECT, "pipe is not a valid pipe object");
    if (!M->isPipe())
      return fail(CL_INVALID_MEM_OBJECT, "pipe is a buffer, not a pipe object",
                  M->context());
    return M->getPipeInfo(param_name, InfoOut(param_value_size, param_value,
                                              param_value_size_ret));
  });
}
