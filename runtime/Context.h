#ifndef CLCPU_RUNTIME_CONTEXT_H
#define CLCPU_RUNTIME_CONTEXT_H

#include "runtime/Info.h"
#include "runtime/Object.h"

#include <mutex>
#include <string>
#include <vector>

namespace clcpu {

using ContextNotifyFn = void(CL_CALLBACK *)(const char *, const void *, size_t,
                                            void *);
using ContextDestructorFn = void(CL_CALLBACK *)(cl_context, void *);

/// A context: devices, properties and the application's error callback.
/// Holds a driver reference on each device. Thread-safe.
class Context : public Object<Context, _cl_context, ObjectKind::Context> {
public:
  Context(std::vector<Device *> Devices,
          std::vector<cl_context_properties> Properties, ContextNotifyFn Notify,
          void *UserData);
  ~Context() override;

  const std::vector<Device *> &devices() const { return Devices; }
  bool hasDevice(const Device *D) const;
  /// True if some device of the context answers the cl_bool query \p Param
  /// (e.g. CL_DEVICE_IMAGE_SUPPORT, CL_DEVICE_PIPE_SUPPORT) with CL_TRUE.
  bool anyDeviceSupports(cl_device_info Param) const;

  /// Sends one error reason to the application's pfn_notify, if any. Called
  /// without any driver lock held.
  void notify(const std::string &Reason) const;

  /// clSetContextDestructorCallback: callbacks run in reverse order of
  /// registration when the context is destroyed.
  void addDestructorCallback(ContextDestructorFn Fn, void *UserData);

  cl_int getInfo(cl_context_info Param, InfoOut Out) const;

  /// The default on-device queue of \p D (get_default_queue(),
  /// CL_QUEUE_DEVICE_DEFAULT); null if none. Thread-safe.
  CommandQueue *defaultDeviceQueue(const Device *D) const;
  /// Makes \p Q (an on-device queue of \p D) the default one.
  void setDefaultDeviceQueue(const Device *D, CommandQueue *Q);
  /// An on-device queue of \p D is destroyed: no longer the default.
  void deviceQueueDestroyed(const Device *D, CommandQueue *Q);

  /// Parses and checks a zero-terminated property list.
  static cl_int parseProperties(const cl_context_properties *Props,
                                std::vector<cl_context_properties> &Out);

private:
  std::vector<Device *> Devices;
  std::vector<cl_context_properties> Properties;
  ContextNotifyFn Notify;
  void *NotifyData;
  std::mutex Lock; // guards DestructorCallbacks
  std::vector<std::pair<ContextDestructorFn, void *>> DestructorCallbacks;
  struct DefaultQueue {
    const Device *Dev;
    CommandQueue *Queue;
  };
  mutable std::mutex QueueLock; // guards DefaultQueues
  std::vector<DefaultQueue> DefaultQueues;
};

} // namespace clcpu

#endif
