//===- runtime/api/SamplerApi.cpp - sampler entry points ------------------===//
//
// OpenCL 3.0 API spec, 5.7 "Sampler Objects". Samplers exist only for
// contexts with a device that supports images; the device reports
// CL_DEVICE_IMAGE_SUPPORT = CL_FALSE, so creation fails with
// CL_INVALID_OPERATION and no handle is ever a valid sampler object.
//
//===----------------------------------------------------------------------===//

#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/Error.h"

using namespace clcpu;

namespace {
cl_int createSampler(cl_context context) {
  // CL_INVALID_CONTEXT if context is not a valid context.
  Context *C = Context::fromHandle(context);
  if (!C)
    return fail(CL_INVALID_CONTEXT, "context is not a valid context");
  // CL_INVALID_OPERATION if images are not supported by any device associated
  // with context (i.e. CL_DEVICE_IMAGE_SUPPORT specified in the Device
  // Queries table is CL_FALSE).
  if (!C->anyDeviceSupports(CL_DEVICE_IMAGE_SUPPORT))
    return fail(CL_INVALID_OPERATION,
                "images are not supported by any device associated with "
                "context",
                C);
  return fail(CL_INVALID_OPERATION, "samplers are not implemented", C);
}

/// No sampler object can exist, so no handle is a valid one.
cl_int invalidSampler() {
  // CL_INVALID_SAMPLER if sampler is not a valid sampler object.
  return fail(CL_INVALID_SAMPLER,
              "sampler is not a valid sampler object (no device supports "
              "images)");
}
} // namespace

CL_API_ENTRY cl_sampler CL_API_CALL
clCreateSampler(cl_context context, cl_bool normalized_coords,
                cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                cl_int *errcode_ret) {
  return apiCreate<cl_sampler>(__func__, errcode_ret, [&](cl_sampler &) {
    return createSampler(context);
  });
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(
    cl_context context, const cl_sampler_properties *sampler_properties,
    cl_int *errcode_ret) {
  return apiCreate<cl_sampler>(__func__, errcode_ret, [&](cl_sampler &) {
    return createSampler(context);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
  return apiCall(__func__, [&] { return invalidSampler(); });
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
  return apiCall(__func__, [&] { return invalidSampler(); });
}

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler,
                                                 cl_sampler_info param_name,
                                                 size_t param_value_size,
                                                 void *param_value,
                                                 size_t *param_value_size_ret) {
  return apiCall(__func__, [&] { return invalidSampler(); });
}
