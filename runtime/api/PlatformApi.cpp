//===- runtime/api/PlatformApi.cpp - platform and device entry points -----===//
//
// Thin entry points: check arguments (each check quotes the spec sentence it
// implements), convert handles, call one object method.
//
//===----------------------------------------------------------------------===//

#include "runtime/Device.h"
#include "runtime/Platform.h"
#include "runtime/api/HandleCheck.h"

#include <algorithm>

using namespace clcpu;

namespace clcpu {
/// clGetPlatformIDs and clIcdGetPlatformIDsKHR share this.
cl_int getPlatformIDs(cl_uint NumEntries, cl_platform_id *Platforms,
                      cl_uint *NumPlatforms) {
  // CL_INVALID_VALUE if num_entries is equal to zero and platforms is not
  // NULL or if both num_platforms and platforms are NULL.
  if (NumEntries == 0 && Platforms)
    return fail(CL_INVALID_VALUE, "num_entries is 0 but platforms is not NULL");
  if (!Platforms && !NumPlatforms)
    return fail(CL_INVALID_VALUE, "platforms and num_platforms are both NULL");
  if (Platforms)
    Platforms[0] = Platform::get().handle();
  if (NumPlatforms)
    *NumPlatforms = 1;
  return CL_SUCCESS;
}

/// NULL platform means "implementation-defined": ours, the only one.
Platform *platformOrDefault(cl_platform_id P) {
  return P ? Platform::fromHandle(P) : &Platform::get();
}
} // namespace clcpu

namespace {
/// CL_INVALID_DEVICE if device is not a valid device.
constexpr HandleCheck DeviceCheck{CL_INVALID_DEVICE, "device",
                                  "device is not a valid device"};
} // namespace

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries,
                                                 cl_platform_id *platforms,
                                                 cl_uint *num_platforms) {
  return apiCall(__func__, [&] {
    return getPlatformIDs(num_entries, platforms, num_platforms);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(
    cl_platform_id platform, cl_platform_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  return apiCall(__func__, [&] {
    // CL_INVALID_PLATFORM if platform is not a valid platform.
    Platform *P = platformOrDefault(platform);
    if (!P)
      return fail(CL_INVALID_PLATFORM, "platform is not a valid platform");
    return P->getInfo(param_name, InfoOut(param_value_size, param_value,
                                          param_value_size_ret));
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform,
                                               cl_device_type device_type,
                                               cl_uint num_entries,
                                               cl_device_id *devices,
                                               cl_uint *num_devices) {
  return apiCall(__func__, [&] {
    // CL_INVALID_PLATFORM if platform is not a valid platform.
    Platform *P = platformOrDefault(platform);
    if (!P)
      return fail(CL_INVALID_PLATFORM, "platform is not a valid platform");
    // CL_INVALID_DEVICE_TYPE if device_type is not a valid value.
    const cl_device_type Known =
        CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
        CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
    if (device_type == 0 ||
        (device_type != CL_DEVICE_TYPE_ALL && (device_type & ~Known)))
      return fail(CL_INVALID_DEVICE_TYPE, "device_type " +
                                              std::to_string(device_type) +
                                              " is not a valid value");
    // CL_INVALID_VALUE if num_entries is equal to zero and devices is not
    // NULL or if both num_devices and devices are NULL.
    if (num_entries == 0 && devices)
      return fail(CL_INVALID_VALUE, "num_entries is 0 but devices is not NULL");
    if (!devices && !num_devices)
      return fail(CL_INVALID_VALUE, "devices and num_devices are both NULL");
    std::vector<cl_device_id> Found;
    for (Device *D : P->devices())
      if (device_type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT))
        Found.push_back(D->handle());
    // CL_DEVICE_NOT_FOUND if no OpenCL devices that matched device_type were
    // found.
    if (Found.empty())
      return fail(CL_DEVICE_NOT_FOUND,
                  "no device of type " + std::to_string(device_type));
    if (devices)
      std::copy_n(Found.begin(), std::min<size_t>(num_entries, Found.size()),
                  devices);
    if (num_devices)
      *num_devices = static_cast<cl_uint>(Found.size());
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device,
                                                cl_device_info param_name,
                                                size_t param_value_size,
                                                void *param_value,
                                                size_t *param_value_size_ret) {
  return objectCall<Device>(__func__, device, DeviceCheck, [&](Device *D) {
    return D->getInfo(param_name, InfoOut(param_value_size, param_value,
                                          param_value_size_ret));
  });
}

CL_API_ENTRY cl_int CL_API_CALL clCreateSubDevices(
    cl_device_id in_device, const cl_device_partition_property *properties,
    cl_uint num_devices, cl_device_id *out_devices, cl_uint *num_devices_ret) {
  return apiCall(__func__, [&] {
    // CL_INVALID_DEVICE if in_device is not a valid device.
    Device *D = Device::fromHandle(in_device);
    if (!D)
      return fail(CL_INVALID_DEVICE, "in_device is not a valid device");
    cl_uint Count = 0;
    if (cl_int Err = D->partitionCount(properties, Count))
      return Err;
    // CL_INVALID_VALUE if out_devices is not NULL and num_devices is less
    // than the number of sub-devices created by the partition scheme.
    if (out_devices && num_devices < Count)
      return fail(CL_INVALID_VALUE,
                  "num_devices " + std::to_string(num_devices) +
                      " is less than the " + std::to_string(Count) +
                      " sub-devices of this partition");
    if (num_devices_ret)
      *num_devices_ret = Count;
    if (!out_devices)
      return CL_SUCCESS;
    std::vector<Device *> Subs;
    if (cl_int Err = D->partition(properties, Subs))
      return Err;
    for (size_t I = 0; I < Subs.size(); ++I)
      out_devices[I] = Subs[I]->handle();
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
  return objectCall<Device>(__func__, device, DeviceCheck, [&](Device *D) {
    D->retainDevice();
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
  return objectCall<Device>(__func__, device, DeviceCheck, [&](Device *D) {
    // A sub-device's references are counted like any object's: only the
    // application's own can be released.
    if (!D->releaseDevice())
      return fail(CL_INVALID_DEVICE,
                  "device has no reference of the application's left to "
                  "release");
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetHostTimer(cl_device_id device,
                                               cl_ulong *host_timestamp) {
  return objectCall<Device>(__func__, device, DeviceCheck, [&](Device *) {
    // CL_INVALID_VALUE if host_timestamp is NULL.
    if (!host_timestamp)
      return fail(CL_INVALID_VALUE, "host_timestamp is NULL");
    *host_timestamp = Platform::hostTimeNs();
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceAndHostTimer(
    cl_device_id device, cl_ulong *device_timestamp, cl_ulong *host_timestamp) {
  return objectCall<Device>(__func__, device, DeviceCheck, [&](Device *) {
    // CL_INVALID_VALUE if host_timestamp or device_timestamp is NULL.
    if (!host_timestamp || !device_timestamp)
      return fail(CL_INVALID_VALUE,
                  "host_timestamp or device_timestamp is NULL");
    // Device and host share one clock: the device is this CPU.
    *device_timestamp = *host_timestamp = Platform::hostTimeNs();
    return CL_SUCCESS;
  });
}
