#ifndef CLCPU_COMPILER_WORKGROUPCONTEXT_H
#define CLCPU_COMPILER_WORKGROUPCONTEXT_H

// The one structure the runtime hands to a generated work-group function
// `void wg_<kernel>(void **Args, const WorkGroupContext *Ctx)`. The layout is
// fixed: compiler/WorkGroupFunction.cpp reads these fields by index
// (size_t words 0..14, the 32-bit work_dim at word 15, LocalMem at word 16).

#include <cstddef>
#include <cstdint>

namespace clcpu {

struct WorkGroupContext {
  size_t GroupId[3];
  size_t LocalSize[3];
  size_t GlobalOffset[3];
  size_t GlobalSize[3];
  size_t NumGroups[3];
  uint32_t WorkDim;
  /// The work-group's block for the kernel's own __local variables
  /// (KernelInfo::LocalMemSize bytes, 16-byte aligned); one per work-group
  /// running at the same time.
  void *LocalMem;
};

static_assert(sizeof(size_t) == 8, "clcpu targets 64-bit hosts");
static_assert(offsetof(WorkGroupContext, WorkDim) == 15 * sizeof(size_t));
static_assert(offsetof(WorkGroupContext, LocalMem) == 16 * sizeof(size_t));

/// Args[i] points at the value of kernel argument i: for a buffer, at the
/// `void *` holding its address; for __local, at the `void *` holding the
/// work-group's local block; otherwise at the argument's bytes.
using WorkGroupFn = void (*)(void **Args, const WorkGroupContext *Ctx);

} // namespace clcpu

#endif
