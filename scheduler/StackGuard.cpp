#include "scheduler/StackGuard.h"

#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace clcpu {
namespace {

/// The kernel this thread runs, or null. Touched on the thread before any
/// fault can happen, so reading it in the handler allocates nothing.
thread_local const char *Current = nullptr;

struct sigaction Previous; // the handler ours replaced

/// The faults that count as the stack's: below the stack pointer, as far
/// as a probe reaches (it touches the page below the last one it touched,
/// a push the word below the stack pointer); above it, within a page (a
/// frame smaller than a page is not probed: its first store, anywhere in
/// it, is the first touch of a guard page the stack pointer moved into).
constexpr uintptr_t ProbeReach = 64 * 1024;
constexpr uintptr_t FrameReach = 4096;

void writeAll(const char *S) {
  size_t N = std::strlen(S);
  while (N) {
    ssize_t W = write(STDERR_FILENO, S, N);
    if (W <= 0)
      return;
    S += W;
    N -= static_cast<size_t>(W);
  }
}

void onSegv(int Sig, siginfo_t *Info, void *Context) {
  const char *Kernel = Current;
  auto Fault = reinterpret_cast<uintptr_t>(Info->si_addr);
  uintptr_t Sp = 0;
#if defined(__x86_64__)
  Sp = static_cast<uintptr_t>(
      static_cast<ucontext_t *>(Context)->uc_mcontext.gregs[REG_RSP]);
#endif
  if (Kernel && Sp && Fault + ProbeReach > Sp && Fault < Sp + FrameReach) {
    writeAll("clcpu: kernel '");
    writeAll(Kernel);
    writeAll("' overflowed its stack (its frames need more than the stack "
             "it runs on: deep or unbounded recursion?); aborting\n");
    // Not recoverable: the work-item stopped in the middle of its frame.
    signal(SIGABRT, SIG_DFL);
    abort();
  }
  // Not a kernel's stack overflow: the handler before ours, or the default
  // action once the faulting instruction runs again.
  if (Previous.sa_flags & SA_SIGINFO) {
    if (Previous.sa_sigaction) {
      Previous.sa_sigaction(Sig, Info, Context);
      return;
    }
  } else if (Previous.sa_handler != SIG_DFL && Previous.sa_handler != SIG_IGN) {
    Previous.sa_handler(Sig);
    return;
  }
  sigaction(SIGSEGV, &Previous, nullptr);
}

void installHandler() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    struct sigaction A {};
    A.sa_sigaction = onSegv;
    A.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&A.sa_mask);
    sigaction(SIGSEGV, &A, &Previous);
  });
}

/// The thread's alternate signal stack, set up at its first kernel unless
/// the thread has one already (the application's own).
struct AltStack {
  void *Mapping = nullptr;
  size_t Size = 0;
  AltStack() {
    stack_t Old{};
    if (sigaltstack(nullptr, &Old) == 0 && !(Old.ss_flags & SS_DISABLE))
      return;
    Size = 64 * 1024;
    Mapping = mmap(nullptr, Size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (Mapping == MAP_FAILED) {
      Mapping = nullptr;
      return;
    }
    stack_t S{};
    S.ss_sp = Mapping;
    S.ss_size = Size;
    if (sigaltstack(&S, nullptr) != 0) {
      munmap(Mapping, Size);
      Mapping = nullptr;
    }
  }
  ~AltStack() {
    if (!Mapping)
      return;
    stack_t S{};
    S.ss_flags = SS_DISABLE;
    sigaltstack(&S, nullptr);
    munmap(Mapping, Size);
  }
};
thread_local AltStack *ThreadAltStack = nullptr;

} // namespace

RunningKernel::RunningKernel(const char *Kernel) : Previous(Current) {
  if (!ThreadAltStack) {
    installHandler();
    static thread_local AltStack S;
    ThreadAltStack = &S;
  }
  Current = Kernel;
}

RunningKernel::~RunningKernel() { Current = Previous; }

} // namespace clcpu
