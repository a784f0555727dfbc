//===- runtime/api/QueueApi.cpp - command-queue entry points --------------===//
//
// OpenCL 3.0 API spec 5.1 (command-queues), 5.12 (markers, barriers and
// waiting for events), 5.15 (flush and finish).

#include "runtime/CommandQueue.h"
#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/DeviceQueue.h"
#include "runtime/Event.h"
#include "runtime/api/HandleCheck.h"

using namespace clcpu;

namespace {
cl_int createQueue(cl_context context, cl_device_id device,
                   cl_command_queue_properties Bits,
                   std::vector<cl_queue_properties> Array, bool FromList,
                   const cl_queue_properties *List, cl_command_queue &Out) {
  // CL_INVALID_CONTEXT if context is not a valid context.
  Context *C = Context::fromHandle(context);
  if (!C)
    return fail(CL_INVALID_CONTEXT, "context is not a valid context");
  // CL_INVALID_DEVICE if device is not a valid device or is not associated
  // with context.
  Device *D = Device::fromHandle(device);
  if (!D)
    return fail(CL_INVALID_DEVICE, "device is not a valid device", C);
  if (!C->hasDevice(D))
    return fail(CL_INVALID_DEVICE, "device is not associated with context", C);
  cl_uint DeviceSize = 0;
  if (FromList) {
    if (cl_int Err =
            CommandQueue::parseProperties(List, Bits, Array, C, &DeviceSize))
      return Err;
  } else if (cl_int Err = CommandQueue::checkPropertyBits(Bits, C)) {
    return Err;
  } else if (Bits & CL_QUEUE_ON_DEVICE) {
    // clCreateCommandQueue takes no CL_QUEUE_SIZE: the preferred size.
    DeviceSize = DeviceQueuePreferredSize;
  }
  auto *Q = new CommandQueue(C, D, Bits, std::move(Array), DeviceSize);
  // CL_QUEUE_ON_DEVICE_DEFAULT: "indicates that this is the default device
  // queue"; a later one replaces the earlier, as
  // clSetDefaultDeviceCommandQueue does.
  if (Bits & CL_QUEUE_ON_DEVICE_DEFAULT)
    C->setDefaultDeviceQueue(D, Q);
  Out = Q->handle();
  return CL_SUCCESS;
}
} // namespace

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(
    cl_context context, cl_device_id device,
    const cl_queue_properties *properties, cl_int *errcode_ret) {
  return apiCreate<cl_command_queue>(
      __func__, errcode_ret, [&](cl_command_queue &Out) {
        return createQueue(context, device, 0, {}, true, properties, Out);
      });
}

// cl_khr_create_command_queue: the OpenCL 2.0 entry point under its
// extension name, for applications written against OpenCL 1.2 headers
// (cl_queue_properties_khr is cl_queue_properties).
CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueueWithPropertiesKHR(
    cl_context context, cl_device_id device,
    const cl_queue_properties_khr *properties, cl_int *errcode_ret) {
  return clCreateCommandQueueWithProperties(context, device, properties,
                                            errcode_ret);
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueue(
    cl_context context, cl_device_id device,
    cl_command_queue_properties properties, cl_int *errcode_ret) {
  return apiCreate<cl_command_queue>(
      __func__, errcode_ret, [&](cl_command_queue &Out) {
        return createQueue(context, device, properties, {}, false, nullptr,
                           Out);
      });
}

CL_API_ENTRY cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(
    cl_context context, cl_device_id device, cl_command_queue command_queue) {
  return apiCall(__func__, [&] {
    // CL_INVALID_CONTEXT if context is not a valid context.
    Context *C = Context::fromHandle(context);
    if (!C)
      return fail(CL_INVALID_CONTEXT, "context is not a valid context");
    // CL_INVALID_DEVICE if device is not a valid device or is not associated
    // with context.
    Device *D = Device::fromHandle(device);
    if (!D || !C->hasDevice(D))
      return fail(CL_INVALID_DEVICE, "device is not a valid device of context",
                  C);
    // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue
    // for device.
    CommandQueue *Q = CommandQueue::fromHandle(command_queue);
    if (!Q || Q->device() != D || Q->context() != C || !Q->onDevice())
      return fail(CL_INVALID_COMMAND_QUEUE,
                  "command_queue is not an on-device queue of device", C);
    C->setDefaultDeviceQueue(D, Q);
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL
clRetainCommandQueue(cl_command_queue command_queue) {
  return retainCall<CommandQueue>(__func__, command_queue, QueueCheck);
}

CL_API_ENTRY cl_int CL_API_CALL
clReleaseCommandQueue(cl_command_queue command_queue) {
  // The last release flushes: onLastExternalRelease.
  return releaseCall<CommandQueue>(__func__, command_queue, QueueCheck);
}

CL_API_ENTRY cl_int CL_API_CALL clGetCommandQueueInfo(
    cl_command_queue command_queue, cl_command_queue_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  // Host and on-device queues alike.
  return objectCall<CommandQueue>(
      __func__, command_queue, QueueCheck, [&](CommandQueue *Q) {
        return Q->getInfo(param_name, InfoOut(param_value_size, param_value,
                                              param_value_size_ret));
      });
}

// Deprecated since OpenCL 1.1. "clSetCommandQueueProperty may
// unconditionally return an error if no devices in the context associated
// with command_queue support modifying the properties of a command-queue.
// Support for modifying the properties of a command-queue is required only
// for OpenCL 1.0 devices." The device is an OpenCL 3.0 device: queue
// properties are fixed at creation.
CL_API_ENTRY cl_int CL_API_CALL clSetCommandQueueProperty(
    cl_command_queue command_queue, cl_command_queue_properties properties,
    cl_bool enable, cl_command_queue_properties *old_properties) {
  return queueCall(__func__, command_queue, [](CommandQueue *Q) {
    // CL_INVALID_OPERATION if no devices in the context associated with
    // command_queue support modifying the properties of a command-queue.
    return fail(CL_INVALID_OPERATION,
                "the device (OpenCL 3.0) does not support modifying the "
                "properties of a command-queue",
                Q->context());
  });
}

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue command_queue) {
  return queueCall(__func__, command_queue,
                   [](CommandQueue *Q) { return Q->flush(); });
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue command_queue) {
  return queueCall(__func__, command_queue,
                   [](CommandQueue *Q) { return Q->finish(); });
}

namespace {
/// clEnqueueMarkerWithWaitList, clEnqueueBarrierWithWaitList and
/// clEnqueueBarrier (the entry point \p Name): a marker or a barrier (\p S).
cl_int enqueueSync(const char *Name, cl_command_queue command_queue,
                   CommandQueue::Sync S, cl_uint num_events_in_wait_list,
                   const cl_event *event_wait_list, cl_event *event) {
  return queueCall(Name, command_queue, [&](CommandQueue *Q) {
    std::vector<Event *> Waits;
    if (cl_int Err =
            Q->checkWaitList(num_events_in_wait_list, event_wait_list, Waits))
      return Err;
    cl_command_type Type = S == CommandQueue::Sync::Marker ? CL_COMMAND_MARKER
                                                           : CL_COMMAND_BARRIER;
    return Q->enqueueChecked(Type, Waits, S, event, false, nullptr);
  });
}
} // namespace

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(
    cl_command_queue command_queue, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return enqueueSync(__func__, command_queue, CommandQueue::Sync::Marker,
                     num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrierWithWaitList(
    cl_command_queue command_queue, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return enqueueSync(__func__, command_queue, CommandQueue::Sync::Barrier,
                     num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue,
                                                cl_event *event) {
  return queueCall(__func__, command_queue, [&](CommandQueue *Q) {
    // CL_INVALID_VALUE if event is a NULL value.
    if (!event)
      return fail(CL_INVALID_VALUE, "event is NULL", Q->context());
    // "The marker command waits for all commands previously enqueued".
    return Q->enqueueChecked(CL_COMMAND_MARKER, {}, CommandQueue::Sync::Marker,
                             event, false, nullptr);
  });
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueBarrier(cl_command_queue command_queue) {
  return enqueueSync(__func__, command_queue, CommandQueue::Sync::Barrier, 0,
                     nullptr, nullptr);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                       const cl_event *event_list) {
  return queueCall(__func__, command_queue, [&](CommandQueue *Q) {
    // CL_INVALID_VALUE if num_events is 0 or event_list is NULL.
    if (num_events == 0 || !event_list)
      return fail(CL_INVALID_VALUE, "num_events is 0 or event_list is NULL",
                  Q->context());
    std::vector<Event *> Waits;
    for (cl_uint I = 0; I < num_events; ++I) {
      // CL_INVALID_EVENT if event objects specified in event_list are not
      // valid events.
      Event *E = Event::fromHandle(event_list[I]);
      if (!E)
        return fail(CL_INVALID_EVENT,
                    "event_list[" + std::to_string(I) +
                        "] is not a valid event",
                    Q->context());
      // CL_INVALID_CONTEXT if the context associated with command_queue and
      // events in event_list are not the same.
      if (E->context() != Q->context())
        return fail(CL_INVALID_CONTEXT,
                    "event_list[" + std::to_string(I) +
                        "] belongs to another context",
                    Q->context());
      Waits.push_back(E);
    }
    // Later commands wait for these events: a barrier on them.
    return Q->enqueueChecked(CL_COMMAND_BARRIER, Waits,
                             CommandQueue::Sync::Barrier, nullptr, false,
                             nullptr);
  });
}
