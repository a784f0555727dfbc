#ifndef CLCPU_SCHEDULER_STACKGUARD_H
#define CLCPU_SCHEDULER_STACKGUARD_H

// Stack overflows in kernels, reported with the kernel's name. Every stack a
// kernel runs on has a guard page below it (a thread's, a fiber's, the large
// stack of runOnLargeStack) and every JIT'd function probes its frame page
// by page, so an overflow (deep or unbounded recursion, which OpenCL C does
// not allow but Clang compiles) faults on a guard page. Without this, the
// process died of an anonymous SIGSEGV in JIT code; with it, the fault is
// recognized as a stack overflow of the kernel running on that thread, the
// message names the kernel, and the process aborts (a work-item cannot be
// unwound out of the middle of its frame).
//
// The SIGSEGV handler is installed once, at the first launch, and chains to
// the handler it replaced for every fault that is not a kernel's stack
// overflow. Each thread that runs kernels gets an alternate signal stack
// (the overflowed stack has no room left for the handler).

namespace clcpu {

/// While alive, \p Kernel (a name that outlives the scope) is the kernel
/// this thread runs: a stack overflow meanwhile is reported with its name.
/// Cheap after the first use on a thread (two thread-local stores).
class RunningKernel {
public:
  explicit RunningKernel(const char *Kernel);
  ~RunningKernel();
  RunningKernel(const RunningKernel &) = delete;
  RunningKernel &operator=(const RunningKernel &) = delete;

private:
  const char *Previous;
};

} // namespace clcpu

#endif
