#ifndef CLCPU_RUNTIME_ERROR_H
#define CLCPU_RUNTIME_ERROR_H

#include <CL/cl.h>

#include <new>
#include <string>
#include <utility>

namespace clcpu {

class Context;

/// The spec's name of an error code ("CL_INVALID_VALUE"), or "CL_<n>".
const char *errorName(cl_int Code);

/// Records why an entry point failed: written to the log (CLCPU_LOG, see
/// runtime/Config.def) and sent to the pfn_notify of \p Ctx or, if that is
/// null, of the context the entry point's handles belong to (the first
/// valid context-bearing handle it converted). Returns \p Code so a check
/// reads `return fail(...)`.
cl_int fail(cl_int Code, const std::string &Reason, Context *Ctx = nullptr);

/// Logs one call of an entry point that is still a stub.
void logUnimplemented(const char *EntryPoint);

/// Writes a line to the driver log if logging is on.
void logLine(const std::string &Line);

/// Writes a line to stderr whether or not logging is on: for settings the
/// driver could not honour and replaced (CLCPU_NUM_THREADS beyond the CPUs
/// the process may use, an empty affinity mask), which a user would
/// otherwise only see as lost speed.
void warnLine(const std::string &Line);

/// The entry point currently running on this thread (for log lines).
const char *currentEntryPoint();
/// Names the entry point running on this thread; returns the previous one.
/// Also forgets the error context of the previous entry point.
const char *setCurrentEntryPoint(const char *Name);

/// Runs the body of an entry point: names it for the log, and turns any
/// exception (which must never cross the C ABI) into an error code.
template <typename Fn> cl_int apiCall(const char *Name, Fn &&Body) noexcept {
  const char *Outer = setCurrentEntryPoint(Name);
  cl_int Result;
  try {
    Result = Body();
  } catch (const std::bad_alloc &) {
    Result = fail(CL_OUT_OF_HOST_MEMORY, "out of host memory");
  } catch (...) {
    Result = fail(CL_OUT_OF_RESOURCES, "internal exception");
  }
  setCurrentEntryPoint(Outer);
  return Result;
}

/// For entry points that return an object and report through errcode_ret.
template <typename T, typename Fn>
T apiCreate(const char *Name, cl_int *ErrcodeRet, Fn &&Body) noexcept {
  T Out{};
  cl_int Err = apiCall(Name, [&]() -> cl_int { return Body(Out); });
  if (ErrcodeRet)
    *ErrcodeRet = Err;
  return Err == CL_SUCCESS ? Out : T{};
}

} // namespace clcpu

#endif
