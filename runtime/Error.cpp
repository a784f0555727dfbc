#include "runtime/Error.h"
#include "runtime/Config.h"
#include "runtime/Context.h"

#include <cstdio>
#include <mutex>

namespace clcpu {

namespace {
thread_local const char *CurrentEntryPoint = nullptr;
thread_local Context *ErrorContext = nullptr;
} // namespace

const char *setCurrentEntryPoint(const char *Name) {
  const char *Old = CurrentEntryPoint;
  CurrentEntryPoint = Name;
  ErrorContext = nullptr;
  return Old;
}

void noteErrorContext(Context *C) {
  // Only inside an entry point (apiCall): outside one nothing would clear
  // it, and the context could be gone by the next fail().
  if (CurrentEntryPoint && !ErrorContext)
    ErrorContext = C;
}

const char *currentEntryPoint() {
  return CurrentEntryPoint ? CurrentEntryPoint : "clcpu";
}

const char *errorName(cl_int Code) {
  switch (Code) {
#define E(N)                                                                   \
  case N:                                                                      \
    return #N;
    E(CL_SUCCESS)
    E(CL_DEVICE_NOT_FOUND)
    E(CL_DEVICE_NOT_AVAILABLE)
    E(CL_COMPILER_NOT_AVAILABLE) E(CL_MEM_OBJECT_ALLOCATION_FAILURE) E(
        CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY) E(CL_PROFILING_INFO_NOT_AVAILABLE)
        E(CL_MEM_COPY_OVERLAP) E(CL_IMAGE_FORMAT_MISMATCH) E(CL_IMAGE_FORMAT_NOT_SUPPORTED) E(
            CL_BUILD_PROGRAM_FAILURE) E(CL_MAP_FAILURE) E(CL_MISALIGNED_SUB_BUFFER_OFFSET)
            E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) E(CL_COMPILE_PROGRAM_FAILURE) E(
                CL_LINKER_NOT_AVAILABLE) E(CL_LINK_PROGRAM_FAILURE) E(CL_DEVICE_PARTITION_FAILED)
                E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) E(CL_INVALID_VALUE) E(
                    CL_INVALID_DEVICE_TYPE) E(CL_INVALID_PLATFORM) E(CL_INVALID_DEVICE)
                    E(CL_INVALID_CONTEXT) E(CL_INVALID_QUEUE_PROPERTIES) E(
                        CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_HOST_PTR)
                        E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) E(
                            CL_INVALID_IMAGE_SIZE) E(CL_INVALID_SAMPLER) E(CL_INVALID_BINARY)
                            E(CL_INVALID_BUILD_OPTIONS) E(CL_INVALID_PROGRAM) E(
                                CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_KERNEL_NAME)
                                E(CL_INVALID_KERNEL_DEFINITION) E(CL_INVALID_KERNEL) E(
                                    CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE)
                                    E(CL_INVALID_ARG_SIZE) E(CL_INVALID_KERNEL_ARGS) E(
                                        CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE)
                                        E(CL_INVALID_WORK_ITEM_SIZE) E(
                                            CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_EVENT_WAIT_LIST)
                                            E(CL_INVALID_EVENT) E(CL_INVALID_OPERATION) E(
                                                CL_INVALID_GL_OBJECT) E(CL_INVALID_BUFFER_SIZE)
                                                E(CL_INVALID_MIP_LEVEL) E(
                                                    CL_INVALID_GLOBAL_WORK_SIZE) E(CL_INVALID_PROPERTY)
                                                    E(CL_INVALID_IMAGE_DESCRIPTOR) E(
                                                        CL_INVALID_COMPILER_OPTIONS)
                                                        E(CL_INVALID_LINKER_OPTIONS) E(
                                                            CL_INVALID_DEVICE_PARTITION_COUNT)
                                                            E(CL_INVALID_PIPE_SIZE) E(
                                                                CL_INVALID_DEVICE_QUEUE)
                                                                E(CL_INVALID_SPEC_ID)
                                                                    E(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
#undef E
  }
  return "CL_<unknown error>";
}

namespace {
void writeLine(const char *Prefix, const std::string &Line) {
  static std::mutex Lock;
  std::lock_guard<std::mutex> G(Lock);
  std::fprintf(stderr, "clcpu: %s%s\n", Prefix, Line.c_str());
}
} // namespace

void logLine(const std::string &Line) {
  if (config().Log)
    writeLine("", Line);
}

void warnLine(const std::string &Line) { writeLine("warning: ", Line); }

cl_int fail(cl_int Code, const std::string &Reason, Context *Ctx) {
  std::string Line =
      std::string(currentEntryPoint()) + ": " + errorName(Code) + ": " + Reason;
  logLine(Line);
  if (!Ctx)
    Ctx = ErrorContext;
  if (Ctx)
    Ctx->notify(Line);
  return Code;
}

void logUnimplemented(const char *EntryPoint) {
  logLine(std::string(EntryPoint) +
          ": not implemented yet, returning CL_INVALID_OPERATION");
}

} // namespace clcpu
