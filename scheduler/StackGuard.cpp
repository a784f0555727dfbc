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

/// The kernel this thread runs (null: none), its work-group and where to
/// report. Touched on the thread before any fault can happen, so reading it
/// in the handler allocates nothing.
thread_local const char *Current = nullptr;
thread_local const size_t *CurrentGroup = nullptr;
thread_local FaultNotifyFn CurrentNotify = nullptr;
thread_local void *CurrentNotifyData = nullptr;

/// The signals of hardware faults a kernel's code may raise.
constexpr int Faults[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
constexpr size_t NumFaults = sizeof(Faults) / sizeof(Faults[0]);
struct sigaction Replaced[NumFaults]; // the handlers ours replaced

/// The faults that count as the stack's: below the stack pointer, as far
/// as a probe reaches (it touches the page below the last one it touched,
/// a push the word below the stack pointer); above it, within a page (a
/// frame smaller than a page is not probed: its first store, anywhere in
/// it, is the first touch of a guard page the stack pointer moved into).
constexpr uintptr_t ProbeReach = 64 * 1024;
constexpr uintptr_t FrameReach = 4096;

/// A message built without allocating (the handler may run inside
/// malloc), cut at its capacity.
struct Text {
  char Buf[512];
  size_t N = 0;
  Text &operator<<(const char *S) {
    while (*S && N + 1 < sizeof Buf)
      Buf[N++] = *S++;
    Buf[N] = 0;
    return *this;
  }
  Text &number(uintptr_t V, unsigned Base) {
    char Digits[24];
    size_t K = 0;
    do {
      Digits[K++] = "0123456789abcdef"[V % Base];
      V /= Base;
    } while (V);
    if (Base == 16)
      *this << "0x";
    while (K && N + 1 < sizeof Buf)
      Buf[N++] = Digits[--K];
    Buf[N] = 0;
    return *this;
  }
};

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

const char *signalName(int Sig) {
  switch (Sig) {
  case SIGSEGV:
    return "SIGSEGV";
  case SIGBUS:
    return "SIGBUS";
  case SIGILL:
    return "SIGILL";
  default:
    return "SIGFPE";
  }
}

const char *explain(int Sig, int Code) {
  switch (Sig) {
  case SIGSEGV:
    return "an access to memory the process does not have: a wild or "
           "out-of-bounds pointer?";
  case SIGBUS:
    return "an access the memory cannot serve: a mapping past its file's "
           "end, a misaligned atomic?";
  case SIGILL:
    return "a trap instruction: __builtin_trap or unreachable code reached?";
  default:
    return Code == FPE_INTDIV || Code == FPE_INTOVF
               ? "an integer division fault"
               : "an arithmetic fault";
  }
}

/// Reports the fault \p Sig of the kernel this thread runs and aborts.
[[noreturn]] void reportKernelFault(int Sig, siginfo_t *Info) {
  Text T;
  T << "kernel '" << Current << "'";
  if (CurrentGroup) {
    T << " (work-group ";
    for (unsigned D = 0; D < 3; ++D)
      T.number(CurrentGroup[D], 10) << (D < 2 ? "," : ")");
  }
  T << " faulted with " << signalName(Sig);
  if (Sig == SIGSEGV || Sig == SIGBUS) {
    T << " at address ";
    T.number(reinterpret_cast<uintptr_t>(Info->si_addr), 16);
  }
  T << " (" << explain(Sig, Info->si_code) << ")";
  writeAll("clcpu: ");
  writeAll(T.Buf);
  writeAll("; aborting (CLCPU_CHECK_BOUNDS=1 finds out-of-bounds accesses "
           "before they happen)\n");
  // Best effort, after stderr has the message: the application's callback
  // runs in a signal handler.
  if (CurrentNotify)
    CurrentNotify(T.Buf, CurrentNotifyData);
  // Not recoverable: the work-item stopped in the middle of its frame.
  signal(SIGABRT, SIG_DFL);
  abort();
}

void onFault(int Sig, siginfo_t *Info, void *Context) {
  const char *Kernel = Current;
  auto Fault = reinterpret_cast<uintptr_t>(Info->si_addr);
  uintptr_t Sp = 0;
#if defined(__x86_64__)
  Sp = static_cast<uintptr_t>(
      static_cast<ucontext_t *>(Context)->uc_mcontext.gregs[REG_RSP]);
#endif
  if (Kernel && Sig == SIGSEGV && Sp && Fault + ProbeReach > Sp &&
      Fault < Sp + FrameReach) {
    writeAll("clcpu: kernel '");
    writeAll(Kernel);
    writeAll("' overflowed its stack (its frames need more than the stack "
             "it runs on: deep or unbounded recursion?); aborting\n");
    signal(SIGABRT, SIG_DFL);
    abort();
  }
  // A fault raised by another process (kill), not by the kernel's code,
  // goes to the handler before ours like any fault outside a kernel.
  if (Kernel && Info->si_code > 0)
    reportKernelFault(Sig, Info);
  size_t K = 0;
  while (K + 1 < NumFaults && Faults[K] != Sig)
    ++K;
  // Not a kernel's: the handler before ours, or the default action once
  // the faulting instruction runs again.
  const struct sigaction &P = Replaced[K];
  if (P.sa_flags & SA_SIGINFO) {
    if (P.sa_sigaction) {
      P.sa_sigaction(Sig, Info, Context);
      return;
    }
  } else if (P.sa_handler != SIG_DFL && P.sa_handler != SIG_IGN) {
    P.sa_handler(Sig);
    return;
  }
  sigaction(Sig, &P, nullptr);
}

void installHandler() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    struct sigaction A{};
    A.sa_sigaction = onFault;
    A.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&A.sa_mask);
    for (size_t K = 0; K < NumFaults; ++K)
      sigaction(Faults[K], &A, &Replaced[K]);
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

RunningKernel::RunningKernel(const char *Kernel, const size_t *Group,
                             FaultNotifyFn Notify, void *NotifyData)
    : Previous{Current, CurrentGroup, CurrentNotify, CurrentNotifyData} {
  if (!ThreadAltStack) {
    installHandler();
    static thread_local AltStack S;
    ThreadAltStack = &S;
  }
  Current = Kernel;
  CurrentGroup = Group;
  CurrentNotify = Notify;
  CurrentNotifyData = NotifyData;
}

RunningKernel::~RunningKernel() {
  Current = Previous.Kernel;
  CurrentGroup = Previous.Group;
  CurrentNotify = Previous.Notify;
  CurrentNotifyData = Previous.NotifyData;
}

} // namespace clcpu
