#ifndef CLCPU_SCHEDULER_STACKGUARD_H
#define CLCPU_SCHEDULER_STACKGUARD_H

// Faults in kernels, reported with the kernel's name. Every stack a kernel
// runs on has a guard page below it (a thread's, a fiber's, the large stack
// of runOnLargeStack) and every JIT'd function probes its frame page by
// page, so an overflow (deep or unbounded recursion, which OpenCL C does not
// allow but Clang compiles) faults on a guard page. Any other hardware fault
// while a kernel runs (SIGSEGV from a wild or out-of-bounds pointer,
// SIGBUS, SIGILL from a trap, SIGFPE) is reported with the kernel and its
// work-group. Without this, the process died of an anonymous signal in JIT
// code; with it, the message names the kernel (on stderr, then through the
// context's pfn_notify) and the process aborts: a work-item cannot be
// unwound out of the middle of its frame, and what it wrote before the
// fault cannot be taken back. The bounds-check mode (docs/DEBUGGING.md)
// finds the access before it happens instead.
//
// The handlers are installed once, at the first launch, and chain to the
// handlers they replaced for every fault outside a kernel. Each thread that
// runs kernels gets an alternate signal stack (the overflowed stack has no
// room left for the handler).

#include <cstddef>

namespace clcpu {

/// Where a fault in a kernel is reported besides stderr (the context's
/// pfn_notify), called from the signal handler just before the process
/// aborts.
using FaultNotifyFn = void (*)(const char *Message, void *Data);

/// While alive, \p Kernel (a name that outlives the scope) is the kernel
/// this thread runs, \p Group (may be null) the id of the work-group it runs
/// (read when a fault happens), and \p Notify (may be null) told of a fault.
/// Cheap after the first use on a thread (a few thread-local stores).
class RunningKernel {
public:
  explicit RunningKernel(const char *Kernel, const size_t *Group = nullptr,
                         FaultNotifyFn Notify = nullptr,
                         void *NotifyData = nullptr);
  ~RunningKernel();
  RunningKernel(const RunningKernel &) = delete;
  RunningKernel &operator=(const RunningKernel &) = delete;

private:
  struct State {
    const char *Kernel;
    const size_t *Group;
    FaultNotifyFn Notify;
    void *NotifyData;
  } Previous;
};

} // namespace clcpu

#endif
