#ifndef CLCPU_RUNTIME_API_HANDLECHECK_H
#define CLCPU_RUNTIME_API_HANDLECHECK_H

// What the entry points in runtime/api share: the check of a handle
// argument, and the bodies built on it.

#include "runtime/CommandQueue.h"
#include "runtime/Error.h"

#include <string>

namespace clcpu {

/// How an entry point reports a handle argument that is not a valid object:
/// the error code, the argument's name and the reason. Each one is defined
/// under the spec sentence it implements.
struct HandleCheck {
  cl_int Invalid;
  const char *Arg;
  const char *Reason;
};

/// CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue
/// (clRetainCommandQueue, clReleaseCommandQueue, clGetCommandQueueInfo:
/// host and on-device queues alike; checkQueue adds "host").
inline constexpr HandleCheck QueueCheck{
    CL_INVALID_COMMAND_QUEUE, "command_queue",
    "command_queue is not a valid command-queue"};

/// \p O is the T behind \p H, or \p Check fails.
template <typename T>
cl_int checkHandle(typename T::Handle H, const HandleCheck &Check, T *&O) {
  O = T::fromHandle(H);
  if (!O)
    return fail(Check.Invalid, Check.Reason);
  return CL_SUCCESS;
}

/// The command_queue check of the entry points that enqueue, flush or
/// finish: CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host
/// command-queue (an on-device queue takes only kernels' enqueues).
inline cl_int checkQueue(cl_command_queue H, CommandQueue *&Q) {
  if (cl_int Err = checkHandle(H, QueueCheck, Q))
    return Err;
  if (Q->onDevice())
    return fail(CL_INVALID_COMMAND_QUEUE,
                "command_queue is an on-device queue, not a host "
                "command-queue",
                Q->context());
  return CL_SUCCESS;
}

/// apiCall for an entry point whose first check is its handle argument \p H:
/// \p Body runs with the T behind it.
template <typename T, typename Fn>
cl_int objectCall(const char *Name, typename T::Handle H,
                  const HandleCheck &Check, Fn &&Body) noexcept {
  return apiCall(Name, [&]() -> cl_int {
    T *O;
    if (cl_int Err = checkHandle(H, Check, O))
      return Err;
    return Body(O);
  });
}

/// objectCall for an entry point whose first check is its command_queue.
template <typename Fn>
cl_int queueCall(const char *Name, cl_command_queue H, Fn &&Body) noexcept {
  return apiCall(Name, [&]() -> cl_int {
    CommandQueue *Q;
    if (cl_int Err = checkQueue(H, Q))
      return Err;
    return Body(Q);
  });
}

/// clRetain* (the entry point \p Name): one more application reference on
/// the T behind \p H.
template <typename T>
cl_int retainCall(const char *Name, typename T::Handle H,
                  const HandleCheck &Check) noexcept {
  return objectCall<T>(Name, H, Check, [](T *O) -> cl_int {
    O->retain();
    return CL_SUCCESS;
  });
}

/// clRelease* (the entry point \p Name): drops one of the application's
/// references to the T behind \p H.
template <typename T>
cl_int releaseCall(const char *Name, typename T::Handle H,
                   const HandleCheck &Check) noexcept {
  return objectCall<T>(Name, H, Check, [&](T *O) -> cl_int {
    // Only the application's own references can be released: one held by
    // another object (an implicit retain) is not the application's to drop.
    if (!O->release())
      return fail(Check.Invalid,
                  std::string(Check.Arg) +
                      " has no reference of the application's left to release");
    return CL_SUCCESS;
  });
}

} // namespace clcpu

#endif
