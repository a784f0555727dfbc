#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/Platform.h"

#include <algorithm>

namespace clcpu {

Context::Context(std::vector<Device *> Devs,
                 std::vector<cl_context_properties> Props,
                 ContextNotifyFn Notify, void *UserData)
    : Devices(std::move(Devs)), Properties(std::move(Props)), Notify(Notify),
      NotifyData(UserData) {
  for (Device *D : Devices)
    D->retainInternal();
}

Context::~Context() {
  // "The callbacks are called in the reverse order in which they were
  // registered" once "all the objects attached to context ... are released".
  for (auto It = DestructorCallbacks.rbegin(); It != DestructorCallbacks.rend();
       ++It)
    It->first(handle(), It->second);
  for (Device *D : Devices)
    D->releaseInternal();
}

bool Context::hasDevice(const Device *D) const {
  return std::find(Devices.begin(), Devices.end(), D) != Devices.end();
}

bool Context::anyDeviceSupports(cl_device_info Param) const {
  for (const Device *D : Devices) {
    cl_bool Support = CL_FALSE;
    if (D->getInfo(Param, InfoOut(sizeof Support, &Support, nullptr)) ==
            CL_SUCCESS &&
        Support)
      return true;
  }
  return false;
}

void Context::notify(const std::string &Reason) const {
  if (Notify)
    Notify(Reason.c_str(), nullptr, 0, NotifyData);
}

void Context::addDestructorCallback(ContextDestructorFn Fn, void *UserData) {
  std::lock_guard<std::mutex> G(Lock);
  DestructorCallbacks.emplace_back(Fn, UserData);
}

cl_int Context::parseProperties(const cl_context_properties *Props,
                                std::vector<cl_context_properties> &Out) {
  Out.clear();
  if (!Props)
    return CL_SUCCESS;
  bool SeenPlatform = false, SeenSync = false;
  for (size_t I = 0; Props[I] != 0; I += 2) {
    cl_context_properties Name = Props[I], Value = Props[I + 1];
    switch (Name) {
    case CL_CONTEXT_PLATFORM:
      // CL_INVALID_PROPERTY if ... the same property name is specified more
      // than once.
      if (SeenPlatform)
        return fail(CL_INVALID_PROPERTY, "CL_CONTEXT_PLATFORM given twice");
      SeenPlatform = true;
      // CL_INVALID_PLATFORM if properties is NULL and no platform could be
      // selected or if platform value specified in properties is not a valid
      // platform.
      if (!Platform::fromHandle(reinterpret_cast<cl_platform_id>(Value)))
        return fail(CL_INVALID_PLATFORM,
                    "CL_CONTEXT_PLATFORM is not a valid platform");
      break;
    case CL_CONTEXT_INTEROP_USER_SYNC:
      if (SeenSync)
        return fail(CL_INVALID_PROPERTY,
                    "CL_CONTEXT_INTEROP_USER_SYNC given twice");
      SeenSync = true;
      if (Value != CL_TRUE && Value != CL_FALSE)
        return fail(
            CL_INVALID_PROPERTY,
            "CL_CONTEXT_INTEROP_USER_SYNC is neither CL_TRUE nor CL_FALSE");
      break;
    default:
      // CL_INVALID_PROPERTY if context property name in properties is not a
      // supported property name.
      return fail(CL_INVALID_PROPERTY,
                  "unsupported context property " + std::to_string(Name));
    }
    Out.push_back(Name);
    Out.push_back(Value);
  }
  Out.push_back(0);
  return CL_SUCCESS;
}

cl_int Context::getInfo(cl_context_info Param, InfoOut Out) const {
  switch (Param) {
  case CL_CONTEXT_REFERENCE_COUNT:
    return Out.value<cl_uint>(referenceCount());
  case CL_CONTEXT_NUM_DEVICES:
    return Out.value<cl_uint>(static_cast<cl_uint>(Devices.size()));
  case CL_CONTEXT_DEVICES:
    return Out.array(deviceHandles(Devices));
  case CL_CONTEXT_PROPERTIES:
    // "If the properties argument specified in clCreateContext ... was NULL,
    // the implementation must return param_value_size_ret equal to 0".
    return Out.array(Properties);
  default:
    return unknownParam(Param);
  }
}

} // namespace clcpu

namespace clcpu {

CommandQueue *Context::defaultDeviceQueue(const Device *D) const {
  std::lock_guard<std::mutex> G(QueueLock);
  for (const DefaultQueue &E : DefaultQueues)
    if (E.Dev == D)
      return E.Queue;
  return nullptr;
}

void Context::setDefaultDeviceQueue(const Device *D, CommandQueue *Q) {
  std::lock_guard<std::mutex> G(QueueLock);
  for (DefaultQueue &E : DefaultQueues)
    if (E.Dev == D) {
      E.Queue = Q;
      return;
    }
  DefaultQueues.push_back({D, Q});
}

void Context::deviceQueueDestroyed(const Device *D, CommandQueue *Q) {
  std::lock_guard<std::mutex> G(QueueLock);
  for (DefaultQueue &E : DefaultQueues)
    if (E.Dev == D && E.Queue == Q)
      E.Queue = nullptr;
}

} // namespace clcpu
