//===- runtime/api/ContextApi.cpp - context entry points ------------------===//

#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/Image.h"
#include "runtime/Platform.h"
#include "runtime/api/HandleCheck.h"

#include <algorithm>

using namespace clcpu;

namespace {
/// CL_INVALID_CONTEXT if context is not a valid context.
constexpr HandleCheck ContextCheck{CL_INVALID_CONTEXT, "context",
                                   "context is not a valid context"};

cl_int createContext(const cl_context_properties *properties,
                     std::vector<Device *> Devices, ContextNotifyFn pfn_notify,
                     void *user_data, cl_context &Out) {
  // CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL.
  if (!pfn_notify && user_data)
    return fail(CL_INVALID_VALUE, "pfn_notify is NULL but user_data is not");
  std::vector<cl_context_properties> Props;
  if (cl_int Err = Context::parseProperties(properties, Props))
    return Err;
  auto *C =
      new Context(std::move(Devices), std::move(Props), pfn_notify, user_data);
  Out = C->handle();
  return CL_SUCCESS;
}
} // namespace

CL_API_ENTRY cl_context CL_API_CALL clCreateContext(
    const cl_context_properties *properties, cl_uint num_devices,
    const cl_device_id *devices,
    void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *),
    void *user_data, cl_int *errcode_ret) {
  return apiCreate<cl_context>(__func__, errcode_ret, [&](cl_context &Out) {
    // CL_INVALID_VALUE if devices is NULL or num_devices is equal to zero.
    if (!devices || num_devices == 0)
      return fail(CL_INVALID_VALUE, "devices is NULL or num_devices is 0");
    std::vector<Device *> Devs;
    for (cl_uint I = 0; I < num_devices; ++I) {
      // CL_INVALID_DEVICE if any device in devices is not a valid device.
      Device *D = Device::fromHandle(devices[I]);
      if (!D)
        return fail(CL_INVALID_DEVICE,
                    "devices[" + std::to_string(I) + "] is not a valid device");
      Devs.push_back(D);
    }
    return createContext(properties, std::move(Devs), pfn_notify, user_data,
                         Out);
  });
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContextFromType(
    const cl_context_properties *properties, cl_device_type device_type,
    void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *),
    void *user_data, cl_int *errcode_ret) {
  return apiCreate<cl_context>(__func__, errcode_ret, [&](cl_context &Out) {
    const cl_device_type Known =
        CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
        CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
    // CL_INVALID_DEVICE_TYPE if device_type is not a valid value.
    if (device_type == 0 ||
        (device_type != CL_DEVICE_TYPE_ALL && (device_type & ~Known)))
      return fail(CL_INVALID_DEVICE_TYPE, "device_type is not a valid value");
    std::vector<Device *> Devs;
    if (device_type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT))
      Devs = Platform::get().devices();
    // CL_DEVICE_NOT_FOUND if no devices that match device_type and property
    // values specified in properties are currently available.
    if (Devs.empty())
      return fail(CL_DEVICE_NOT_FOUND,
                  "no device of type " + std::to_string(device_type));
    return createContext(properties, std::move(Devs), pfn_notify, user_data,
                         Out);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context context) {
  return retainCall<Context>(__func__, context, ContextCheck);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context context) {
  return releaseCall<Context>(__func__, context, ContextCheck);
}

CL_API_ENTRY cl_int CL_API_CALL clGetContextInfo(cl_context context,
                                                 cl_context_info param_name,
                                                 size_t param_value_size,
                                                 void *param_value,
                                                 size_t *param_value_size_ret) {
  return objectCall<Context>(__func__, context, ContextCheck, [&](Context *C) {
    return C->getInfo(param_name, InfoOut(param_value_size, param_value,
                                          param_value_size_ret));
  });
}

CL_API_ENTRY cl_int CL_API_CALL clSetContextDestructorCallback(
    cl_context context,
    void(CL_CALLBACK *pfn_notify)(cl_context context, void *user_data),
    void *user_data) {
  return objectCall<Context>(__func__, context, ContextCheck, [&](Context *C) {
    // CL_INVALID_VALUE if pfn_notify is NULL.
    if (!pfn_notify)
      return fail(CL_INVALID_VALUE, "pfn_notify is NULL", C);
    C->addDestructorCallback(pfn_notify, user_data);
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(
    cl_context context, cl_mem_flags flags, cl_mem_object_type image_type,
    cl_uint num_entries, cl_image_format *image_formats,
    cl_uint *num_image_formats) {
  return objectCall<Context>(__func__, context, ContextCheck, [&](Context *C) {
    // CL_INVALID_VALUE if flags or image_type are not valid, or if
    // num_entries is 0 and image_formats is not NULL.
    const cl_mem_flags KnownFlags =
        CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY |
        CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR |
        CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS |
        CL_MEM_KERNEL_READ_AND_WRITE;
    if (flags & ~KnownFlags)
      return fail(CL_INVALID_VALUE, "flags has unknown bits", C);
    switch (image_type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    case CL_MEM_OBJECT_IMAGE3D:
      break;
    default:
      return fail(CL_INVALID_VALUE, "image_type is not an image type", C);
    }
    if (num_entries == 0 && image_formats)
      return fail(CL_INVALID_VALUE,
                  "num_entries is 0 but image_formats is not NULL", C);
    // "clGetSupportedImageFormats returns a union of image formats supported
    // by all devices in the context": none without image support.
    std::vector<cl_image_format> L;
    if (C->anyDeviceSupports(CL_DEVICE_IMAGE_SUPPORT))
      L = supportedImageFormats(image_type, flags);
    if (num_image_formats)
      *num_image_formats = static_cast<cl_uint>(L.size());
    if (image_formats)
      std::copy_n(L.begin(), std::min<size_t>(num_entries, L.size()),
                  image_formats);
    return CL_SUCCESS;
  });
}
