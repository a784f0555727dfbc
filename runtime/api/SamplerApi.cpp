//===- runtime/api/SamplerApi.cpp - sampler entry points ------------------===//
//
// OpenCL 3.0 API spec, 5.7 "Sampler Objects". Samplers exist only for
// contexts with a device that supports images (CL_DEVICE_IMAGE_SUPPORT,
// which the device reports unless CLCPU_IMAGES=0, runtime/Config.def).
//
//===----------------------------------------------------------------------===//

#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/Error.h"
#include "runtime/Sampler.h"
#include "runtime/api/HandleCheck.h"

using namespace clcpu;

namespace {
/// CL_INVALID_SAMPLER if sampler is not a valid sampler object.
constexpr HandleCheck SamplerCheck{CL_INVALID_SAMPLER, "sampler",
                                   "sampler is not a valid sampler object"};

/// The checks clCreateSampler and clCreateSamplerWithProperties share
/// before their values.
cl_int samplerContext(cl_context context, Context *&C) {
  // CL_INVALID_CONTEXT if context is not a valid context.
  C = Context::fromHandle(context);
  if (!C)
    return fail(CL_INVALID_CONTEXT, "context is not a valid context");
  // CL_INVALID_OPERATION if images are not supported by any device
  // associated with context (i.e. CL_DEVICE_IMAGE_SUPPORT specified in the
  // Device Queries table is CL_FALSE).
  if (!C->anyDeviceSupports(CL_DEVICE_IMAGE_SUPPORT))
    return fail(CL_INVALID_OPERATION,
                "images are not supported by any device associated with "
                "context (CLCPU_IMAGES=0 turns them off)",
                C);
  return CL_SUCCESS;
}
} // namespace

CL_API_ENTRY cl_sampler CL_API_CALL
clCreateSampler(cl_context context, cl_bool normalized_coords,
                cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                cl_int *errcode_ret) {
  return apiCreate<cl_sampler>(__func__, errcode_ret, [&](cl_sampler &Out) {
    Context *C;
    if (cl_int Err = samplerContext(context, C))
      return Err;
    Sampler *S;
    if (cl_int Err = Sampler::create(C, normalized_coords, addressing_mode,
                                     filter_mode, {}, S))
      return Err;
    Out = S->handle();
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(
    cl_context context, const cl_sampler_properties *sampler_properties,
    cl_int *errcode_ret) {
  return apiCreate<cl_sampler>(__func__, errcode_ret, [&](cl_sampler &Out) {
    Context *C;
    if (cl_int Err = samplerContext(context, C))
      return Err;
    cl_bool Normalized;
    cl_addressing_mode Addressing;
    cl_filter_mode Filter;
    std::vector<cl_sampler_properties> Props;
    if (cl_int Err = Sampler::parseProperties(sampler_properties, C, Normalized,
                                              Addressing, Filter, Props))
      return Err;
    Sampler *S;
    if (cl_int Err = Sampler::create(C, Normalized, Addressing, Filter,
                                     std::move(Props), S))
      return Err;
    Out = S->handle();
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
  return retainCall<Sampler>(__func__, sampler, SamplerCheck);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
  return releaseCall<Sampler>(__func__, sampler, SamplerCheck);
}

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler,
                                                 cl_sampler_info param_name,
                                                 size_t param_value_size,
                                                 void *param_value,
                                                 size_t *param_value_size_ret) {
  return objectCall<Sampler>(__func__, sampler, SamplerCheck, [&](Sampler *S) {
    return S->getInfo(param_name, InfoOut(param_value_size, param_value,
                                          param_value_size_ret));
  });
}
