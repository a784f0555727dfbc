#ifndef CLCPU_SCHEDULER_FIBER_H
#define CLCPU_SCHEDULER_FIBER_H

// Work-items as fibers (Boost.Context fcontext): how kernels with barriers
// and work-group collectives run. Each work-item of a group gets a fiber of
// its own; barrier() switches back to the group's loop, which resumes the
// next fiber; when every work-item arrived (or finished) the loop starts the
// next round. All fibers of a group run on the calling thread, so no atomic
// or fence is needed between them. Sub-groups (WorkGroupContext::
// SubGroupSize consecutive linear ids): sub_group_barrier() and sub_group_*
// collectives wait only for the caller's sub-group, so other sub-groups may
// take other paths meanwhile.
//
// Stacks: pooled per thread (a pool is reused by every group and launch on
// that thread), each an mmap'd region with a PROT_NONE guard page below it,
// so that an overflow faults instead of corrupting a neighbour. The size is
// fiberStackSize(): 64 KiB by default, more for kernels with large private
// arrays.

#include "compiler/WorkGroupContext.h"

#include <cstddef>
#include <cstdint>

namespace clcpu {

/// Default fiber stack: 64 KiB. Kernels whose private memory (stack frame)
/// is larger get that plus 32 KiB of headroom, in whole pages.
constexpr size_t DefaultFiberStack = 64 * 1024;
size_t fiberStackSize(size_t PrivateMemSize);

/// Fiber stacks of one work-group stay within 256 MiB of address space (and,
/// at worst, of memory): the largest work-group for stacks of \p StackSize.
constexpr size_t MaxGroupStackBytes = size_t(256) << 20;
inline size_t maxFibersPerGroup(size_t StackSize) {
  size_t N = MaxGroupStackBytes / StackSize;
  return N ? N : 1;
}

/// Runs the work-group described by \p Group (GroupId, LocalSize, ... set;
/// LocalId, Barrier, Collective, SubGroupBarrier, Yield and Group are
/// filled here; SubGroupSize 0 means one sub-group) with one fiber per
/// work-item, each calling \p Fn(Args, its own context). \p StackSize as
/// fiberStackSize() returns.
void runGroupOnFibers(WorkGroupFn Fn, void **Args,
                      const WorkGroupContext &Group, size_t StackSize);

/// Stack to leave for what a work-group function calls (SLEEF, libm,
/// printf) beyond its own frame.
constexpr size_t StackHeadroom = 64 * 1024;

/// The largest stack frame a kernel may have: a thread reserves (without
/// committing) that much address space for it.
constexpr size_t MaxKernelStack = size_t(1) << 30;

/// Runs \p Fn(\p Args, &\p C) on a stack of the calling thread's of at least
/// \p Bytes (mmap'd with a guard page below it, kept for the next call):
/// for a work-group function whose frame (large private arrays) does not
/// fit what is left of the thread's own stack. C.PrivateLo/PrivateHi name
/// that stack during the call. Throws std::bad_alloc if it cannot be
/// mapped.
void runOnLargeStack(WorkGroupFn Fn, void **Args, WorkGroupContext &C,
                     size_t Bytes);

/// Frees the calling thread's fiber stacks (they are otherwise kept until
/// the thread exits). For tests.
void releaseThreadFibers();
/// Fiber stacks the calling thread holds (for tests).
size_t threadFiberCount();
/// Bytes of the calling thread's fiber stacks that are resident in memory
/// (mincore): stacks are reserved with MAP_NORESERVE and only the pages a
/// work-item touches cost memory. For tests and diagnostics.
size_t threadFiberResidentBytes();

} // namespace clcpu

#endif
