//===- runtime/api/EventApi.cpp - event entry points ----------------------===//
//
// OpenCL 3.0 API spec 5.11 (event objects) and 5.14 (profiling).

#include "runtime/CommandQueue.h"
#include "runtime/Context.h"
#include "runtime/Event.h"
#include "runtime/api/HandleCheck.h"

using namespace clcpu;

namespace {
/// CL_INVALID_EVENT if event is not a valid event object.
constexpr HandleCheck EventCheck{CL_INVALID_EVENT, "event",
                                 "event is not a valid event"};
} // namespace

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context context,
                                                    cl_int *errcode_ret) {
  return apiCreate<cl_event>(__func__, errcode_ret, [&](cl_event &Out) {
    // CL_INVALID_CONTEXT if context is not a valid context.
    Context *C = Context::fromHandle(context);
    if (!C)
      return fail(CL_INVALID_CONTEXT, "context is not a valid context");
    Out = (new Event(C))->handle();
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event event,
                                                     cl_int execution_status) {
  return apiCall(__func__, [&] {
    // CL_INVALID_EVENT if event is not a valid user event object.
    Event *E = Event::fromHandle(event);
    if (!E || !E->isUserEvent())
      return fail(CL_INVALID_EVENT, "event is not a valid user event");
    // CL_INVALID_VALUE if the execution_status is not CL_COMPLETE or a
    // negative integer value.
    if (execution_status > CL_COMPLETE)
      return fail(CL_INVALID_VALUE,
                  "execution_status is neither CL_COMPLETE nor negative",
                  E->context());
    return E->setUserStatus(execution_status);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint num_events,
                                                const cl_event *event_list) {
  return apiCall(__func__, [&] {
    // CL_INVALID_VALUE if num_events is zero or event_list is NULL.
    if (num_events == 0 || !event_list)
      return fail(CL_INVALID_VALUE, "num_events is 0 or event_list is NULL");
    std::vector<Event *> Events;
    for (cl_uint I = 0; I < num_events; ++I) {
      // CL_INVALID_EVENT if event objects specified in event_list are not
      // valid event objects.
      Event *E = Event::fromHandle(event_list[I]);
      if (!E)
        return fail(CL_INVALID_EVENT, "event_list[" + std::to_string(I) +
                                          "] is not a valid event");
      // CL_INVALID_CONTEXT if events specified in event_list do not belong to
      // the same context.
      if (!Events.empty() && E->context() != Events.front()->context())
        return fail(CL_INVALID_CONTEXT,
                    "event_list[" + std::to_string(I) +
                        "] belongs to another context",
                    E->context());
      Events.push_back(E);
    }
    // Hold the events while waiting: another thread may release them.
    for (Event *E : Events)
      E->retainInternal();
    Event::waitAll(Events);
    cl_int Result = CL_SUCCESS;
    for (Event *E : Events) {
      // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the execution status
      // of any of the events in event_list is a negative integer value.
      if (E->status() < 0 && Result == CL_SUCCESS)
        Result = fail(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                      "an event terminated with " +
                          std::string(errorName(E->status())),
                      E->context());
    }
    for (Event *E : Events)
      E->releaseInternal();
    return Result;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event event,
                                               cl_event_info param_name,
                                               size_t param_value_size,
                                               void *param_value,
                                               size_t *param_value_size_ret) {
  return objectCall<Event>(__func__, event, EventCheck, [&](Event *E) {
    // An application polling the status sees progress without clFlush.
    if (param_name == CL_EVENT_COMMAND_EXECUTION_STATUS)
      E->flushQueue();
    return E->getInfo(param_name, InfoOut(param_value_size, param_value,
                                          param_value_size_ret));
  });
}

CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(
    cl_event event, cl_int command_exec_callback_type,
    void(CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *), void *user_data) {
  return objectCall<Event>(__func__, event, EventCheck, [&](Event *E) {
    // CL_INVALID_VALUE if pfn_event_notify is NULL or if
    // command_exec_callback_type is not CL_SUBMITTED, CL_RUNNING, or
    // CL_COMPLETE.
    if (!pfn_notify)
      return fail(CL_INVALID_VALUE, "pfn_notify is NULL", E->context());
    if (command_exec_callback_type != CL_SUBMITTED &&
        command_exec_callback_type != CL_RUNNING &&
        command_exec_callback_type != CL_COMPLETE)
      return fail(CL_INVALID_VALUE,
                  "command_exec_callback_type is not CL_SUBMITTED, CL_RUNNING "
                  "or CL_COMPLETE",
                  E->context());
    // The application may wait for the callback by its own means.
    E->flushQueue();
    E->addCallback(command_exec_callback_type, pfn_notify, user_data);
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event event) {
  return retainCall<Event>(__func__, event, EventCheck);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event event) {
  return releaseCall<Event>(__func__, event, EventCheck);
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(
    cl_event event, cl_profiling_info param_name, size_t param_value_size,
    void *param_value, size_t *param_value_size_ret) {
  return objectCall<Event>(__func__, event, EventCheck, [&](Event *E) {
    return E->getProfilingInfo(
        param_name,
        InfoOut(param_value_size, param_value, param_value_size_ret));
  });
}
