#include "scheduler/Fiber.h"
#include "scheduler/Collectives.h"

#include <boost/context/detail/fcontext.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <new>
#include <utility>
#include <vector>

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
// ThreadSanitizer must know which stack runs: one TSan fiber per fiber.
#define CLCPU_TSAN_FIBERS 1
#endif
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
// AddressSanitizer must know which stack runs (CLCPU_ASAN builds): each
// switch names the stack it goes to, and each arrival says it is done.
#define CLCPU_ASAN_FIBERS 1
#endif
// x86-64 Linux: the fiber switch (clcpu_fiber_jump) and the barrier and
// collective entries are written in assembly below; elsewhere, and under
// ThreadSanitizer, Boost's switch and the implementations are called.
#if defined(__x86_64__) && defined(__linux__) && !defined(CLCPU_TSAN_FIBERS)
#define CLCPU_FIBER_ASM 1
#endif

namespace clcpu {

namespace ctx = boost::context::detail;

namespace {

// The switch between work-items. On x86-64 Linux: Boost.Context's
// jump_fcontext without the MXCSR and x87 control word save and restore.
// Every fiber of a thread runs work-items of kernels compiled for the same
// floating-point environment (OpenCL C cannot change rounding or denormal
// modes at run time), so those words never differ between the two sides of
// a switch, and fldcw and ldmxcsr are microcoded. The frame is Boost's
// (make_fcontext builds each fiber's first one): 0x38 bytes below the
// return address, the control words' slot first (left alone here), then
// r12-r15, rbx and rbp. The switch returns the suspended side's context in
// rax and passes the data pointer on in rdx (and rsi, which a fiber's
// first entry reads). It ends in `ret` to the resumed side's return
// address, where Boost jumps: every fiber resumes at the same place in
// switchAway, so that return is predicted, and the predictor's stack stays
// in step for the returns after it (see the barrier entries below).
// Against Boost's jump_fcontext this saves two microcoded instructions per
// switch, a small part of what a barrier costs on the fiber path.
#ifdef CLCPU_FIBER_ASM
asm(R"(
  .pushsection .text
  .p2align 4
  .hidden clcpu_fiber_jump
  .type clcpu_fiber_jump, @function
clcpu_fiber_jump:
  leaq -0x38(%rsp), %rsp
  movq %r12, 0x08(%rsp)
  movq %r13, 0x10(%rsp)
  movq %r14, 0x18(%rsp)
  movq %r15, 0x20(%rsp)
  movq %rbx, 0x28(%rsp)
  movq %rbp, 0x30(%rsp)
  movq %rsp, %rax
  movq %rdi, %rsp
  movq 0x08(%rsp), %r12
  movq 0x10(%rsp), %r13
  movq 0x18(%rsp), %r14
  movq 0x20(%rsp), %r15
  movq 0x28(%rsp), %rbx
  movq 0x30(%rsp), %rbp
  leaq 0x38(%rsp), %rsp
  movq %rsi, %rdx
  movq %rax, %rdi
  ret
  .size clcpu_fiber_jump, .-clcpu_fiber_jump
  .popsection
)");
extern "C" ctx::transfer_t clcpu_fiber_jump(ctx::fcontext_t To, void *Data);
inline ctx::transfer_t jump(ctx::fcontext_t To, void *Data) {
  return clcpu_fiber_jump(To, Data);
}
#else
inline ctx::transfer_t jump(ctx::fcontext_t To, void *Data) {
  return ctx::jump_fcontext(To, Data);
}
#endif

size_t pageSize() {
  static const size_t P = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return P;
}

struct Fiber;

/// What a fiber is doing when it switched back to the group loop.
enum class Wait : uint8_t {
  None,     // runnable (or running)
  Group,    // at a work-group barrier or collective
  SubGroup, // at a sub-group barrier or collective
  Yield,    // waiting for another work-item (Ctx->Yield): run it again later
  Done,     // finished
};

/// A pending collective: the operation and its broadcast source.
struct PendingCollective {
  bool Pending = false;
  uint32_t Op = 0;
  size_t BroadcastFrom = 0;
};

/// One work-group's fiber state: what Ctx->Group points at.
struct Group {
  WorkGroupFn Fn = nullptr;
  void **Args = nullptr;
  size_t Count = 0;
  /// Collectives: one 64-bit slot per work-item (linear local id). A
  /// sub-group collective uses its sub-group's slots only.
  std::vector<uint64_t> Scratch;
  /// Each work-item's first index argument (sub_group_shuffle*).
  std::vector<uint64_t> Arg;
  /// Sub-group collectives computed per call site (CollNonUniform: the
  /// non-uniform ones, shuffles, rotations): the call site each work-item
  /// waits at (its number plus 1; 0: none) and the call's Op.
  std::vector<uint64_t> Site;
  std::vector<uint32_t> SiteOp;
  /// The kernel's table of which call sites can follow which (bit j of
  /// entry i: site j can run after site i; compiler/Barriers.cpp).
  const uint64_t *Reach = nullptr;
  PendingCollective WG;
  size_t SubGroupSize = 1;
  /// get_max_sub_group_size(): the sub-group size, or the enqueued local
  /// size if smaller.
  size_t MaxSubGroup = 1;
  /// One per sub-group.
  std::vector<PendingCollective> SG;
  void *TsanCaller = nullptr; // the group loop's TSan fiber
  /// The group loop's stack (the thread's) and ASan's fake-stack slot for
  /// it: CLCPU_ASAN builds.
  const void *LoopStack = nullptr;
  size_t LoopStackSize = 0;
  void *AsanFake = nullptr;
  /// The fibers of this group by linear local id, and where the current
  /// pass ends: a fiber that stops hands over to the next runnable fiber
  /// before PassEnd, the last one to the group loop (Loop).
  Fiber **Fibers = nullptr;
  /// What each fiber waits for, by linear local id: one byte each, so that
  /// finding the next runnable fiber and the scans between passes read a
  /// few cache lines instead of every fiber's own (256 fibers' structs are
  /// more than L1 holds).
  Wait *States = nullptr;
  /// Where each fiber continues, by linear local id (the pool's array): the
  /// next fiber's entry is read from a few sequential cache lines, and the
  /// one after it is known early enough to prefetch its stack.
  ctx::fcontext_t *Resumes = nullptr;
  size_t PassEnd = 0;
  ctx::fcontext_t Loop = nullptr;
  /// Work-items that stopped at a work-group barrier or collective in the
  /// current pass: when all did, the group loop releases them without
  /// looking at each sub-group.
  size_t AtGroup = 0;
};

/// A fiber and its stack. The fiber's entry loops forever: run a work-item,
/// switch back, run the next one it is given. Fibers are thus made once and
/// reused by every group this thread runs.
struct alignas(64) Fiber {
  // What a switch reads (Index, G) shares the first cache line with the
  // start of Ctx; 256 fibers' lines are more than L1 holds, so the next
  // fiber's are prefetched (switchAway).
  size_t Index = 0;        // linear local id in the current group
  Group *G = nullptr;      // Ctx.Group
  void *Mapping = nullptr; // guard page + stack
  size_t MappingSize = 0;
  uint32_t Spins = 0; // rounds of waiting loops (yieldImpl)
  void *TsanFiber = nullptr;
  void *AsanFake = nullptr; // CLCPU_ASAN builds
  WorkGroupContext Ctx{};
};

/// What a switch carries: who stopped (From; null for the group loop) and
/// who runs next (To; null for the group loop). It lives on the stack of
/// the context that stopped, which stays suspended until resumed.
struct Hop {
  Fiber *From;
  Fiber *To;
};

/// On arrival after a switch: records where the context that stopped
/// continues (a fiber's entry in Resumes, or its group's Loop).
void arrived(ctx::transfer_t T) {
  auto *H = static_cast<Hop *>(T.data);
#ifdef CLCPU_ASAN_FIBERS
  Group *AG = (H->From ? H->From : H->To)->G;
  const void *FromStack = nullptr;
  size_t FromSize = 0;
  __sanitizer_finish_switch_fiber(H->To ? H->To->AsanFake : AG->AsanFake,
                                  &FromStack, &FromSize);
  if (!H->From) { // from the group loop: its stack is the thread's
    AG->LoopStack = FromStack;
    AG->LoopStackSize = FromSize;
  }
#endif
  if (H->From)
    H->From->G->Resumes[H->From->Index] = T.fctx;
  else
    H->To->G->Loop = T.fctx;
}

bool runnable(Wait W) { return W == Wait::None || W == Wait::Yield; }

#ifdef CLCPU_ASAN_FIBERS
/// Tells ASan the coming switch leaves the stack whose fake-stack slot is
/// \p Save for fiber \p To's stack, or for the group loop's (null \p To).
void asanSwitch(void **Save, const Fiber *To, const Group &G) {
  if (To) {
    size_t Guard = pageSize();
    __sanitizer_start_switch_fiber(Save,
                                   static_cast<char *>(To->Mapping) + Guard,
                                   To->MappingSize - Guard);
  } else {
    __sanitizer_start_switch_fiber(Save, G.LoopStack, G.LoopStackSize);
  }
}
#endif

/// Stops fiber \p F (its state says why) and switches straight to the next
/// runnable fiber of the current pass, in linear order, or back to the group
/// loop after the last one: one context switch per work-item per barrier
/// instead of two through the loop.
void switchAway(Fiber *F) {
  Group *G = F->G;
  Fiber *Next = nullptr;
  ctx::fcontext_t To = G->Loop;
  for (size_t J = F->Index + 1; J < G->PassEnd; ++J)
    if (runnable(G->States[J])) {
      Next = G->Fibers[J];
      G->States[J] = Wait::None;
      To = G->Resumes[J];
      // The fiber after it: the top of its stack (its saved registers and
      // the frames of the calls that stopped it, which it returns through:
      // three lines) and its context, which it reads first when it runs.
      // 256 fibers' stacks and contexts are more than L1 holds. (All three
      // stack lines: the first alone leaves the other two to miss; a fourth
      // gains nothing.)
      if (J + 1 < G->PassEnd) {
        const Fiber *After = G->Fibers[J + 1];
        const char *Top = static_cast<const char *>(G->Resumes[J + 1]);
        __builtin_prefetch(Top);
        __builtin_prefetch(Top + 64);
        __builtin_prefetch(Top + 128);
        __builtin_prefetch(After);
        // The kernel reads its local id and barrier function from there.
        __builtin_prefetch(&After->Ctx.LocalId);
      }
      break;
    }
  Hop H{F, Next};
#ifdef CLCPU_TSAN_FIBERS
  __tsan_switch_to_fiber(Next ? Next->TsanFiber : G->TsanCaller, 0);
#endif
#ifdef CLCPU_ASAN_FIBERS
  asanSwitch(&F->AsanFake, Next, *G);
#endif
  arrived(jump(To, &H));
}

Fiber *fiberOf(const WorkGroupContext *C) {
  return reinterpret_cast<Fiber *>(
      reinterpret_cast<char *>(const_cast<WorkGroupContext *>(C)) -
      offsetof(Fiber, Ctx));
}

void fiberMain(ctx::transfer_t T) {
  Fiber *F = static_cast<Hop *>(T.data)->To;
  arrived(T);
  for (;;) {
    Group *G = F->G;
    G->Fn(G->Args, &F->Ctx);
    G->States[F->Index] = Wait::Done;
    switchAway(F);
  }
}

void waitFor(const WorkGroupContext *C, Wait W) {
  Fiber *F = fiberOf(C);
  F->G->States[F->Index] = W;
  F->G->AtGroup += W == Wait::Group;
  switchAway(F);
}
void barrierImpl(const WorkGroupContext *C) { waitFor(C, Wait::Group); }
void subGroupBarrierImpl(const WorkGroupContext *C) {
  waitFor(C, Wait::SubGroup);
}
/// The compiler calls this on every round of a loop whose exit reads
/// shared state (compiler/Barriers.cpp, insertProgressYields), but most such
/// loops are not waiting for another work-item of this group: a
/// compare-and-swap retried until it succeeds, a loop of fixed length whose
/// exit also reads an atomic (the CTS c11_atomics kernels run 10000 rounds
/// per work-item). Switching on every YieldEvery-th round still lets every
/// other work-item run while one spins (independent forward progress), at a
/// fraction of the cost of a switch per round.
constexpr uint32_t YieldEvery = 64;
void yieldImpl(const WorkGroupContext *C) {
  Fiber *F = fiberOf(C);
  if (++F->Spins % YieldEvery != 0)
    return;
  waitFor(C, Wait::Yield);
}

size_t linearId(const WorkGroupContext *C) {
  return C->LocalId[0] +
         C->LocalSize[0] * (C->LocalId[1] + C->LocalSize[1] * C->LocalId[2]);
}

/// Every work-item stores its value, waits at a (sub-)group barrier (the
/// group loop runs the pass when all arrived), then reads its own slot.
uint64_t collectiveImpl(const WorkGroupContext *C, uint32_t Op, uint64_t Value,
                        uint64_t X, uint64_t Y, uint64_t Z) {
  auto *G = static_cast<Group *>(C->Group);
  size_t Id = linearId(C);
  G->Scratch[Id] = Value;
  G->Arg[Id] = X;
  if (Op & CollNonUniform) {
    if (G->Site.empty()) {
      G->Site.assign(G->Count, 0);
      G->SiteOp.assign(G->Count, 0);
    }
    G->Site[Id] = Z + 1;
    G->SiteOp[Id] = Op;
    G->Reach = reinterpret_cast<const uint64_t *>(Y);
    waitFor(C, Wait::SubGroup);
    return G->Scratch[Id];
  }
  if (Op & CollSubGroup) {
    PendingCollective &P = G->SG[Id / G->SubGroupSize];
    P.Pending = true;
    P.Op = Op;
    P.BroadcastFrom = X; // a sub-group local id
    waitFor(C, Wait::SubGroup);
  } else {
    G->WG.Pending = true;
    G->WG.Op = Op;
    G->WG.BroadcastFrom = X + C->LocalSize[0] * (Y + C->LocalSize[1] * Z);
    waitFor(C, Wait::Group);
  }
  return G->Scratch[Id];
}

} // namespace

// What a kernel calls at a barrier or collective on the fiber path. A
// resumed fiber returns from the call that stopped it, at the barrier it
// waited at, while the return-stack predictor holds the call that just
// stopped the other fiber, at the next barrier: with two or more call sites
// every switch mispredicts that return. These entries call the
// implementation from one place (its return is always predicted) and go
// back to the kernel with an indirect jump, which the branch predictor
// learns: all fibers of a pass return to the same call site.
// This needs the switch itself to end in a return (clcpu_fiber_jump): with
// an indirect jump there, the entry pushed by its call stays on the
// predictor's stack and every later return is off by one. The return in
// the switch without these entries gains nothing: the kernel's returns
// still mispredict.
#ifdef CLCPU_FIBER_ASM
extern "C" {
__attribute__((visibility("hidden"))) void
clcpu_fiber_barrier_impl(const WorkGroupContext *C) {
  barrierImpl(C);
}
__attribute__((visibility("hidden"))) void
clcpu_fiber_sub_group_barrier_impl(const WorkGroupContext *C) {
  subGroupBarrierImpl(C);
}
__attribute__((visibility("hidden"))) uint64_t clcpu_fiber_collective_impl(
    const WorkGroupContext *C, uint32_t Op, uint64_t Value, uint64_t X,
    uint64_t Y, uint64_t Z) {
  return collectiveImpl(C, Op, Value, X, Y, Z);
}
void clcpu_fiber_barrier(const WorkGroupContext *C);
void clcpu_fiber_sub_group_barrier(const WorkGroupContext *C);
uint64_t clcpu_fiber_collective(const WorkGroupContext *C, uint32_t Op,
                                uint64_t Value, uint64_t X, uint64_t Y,
                                uint64_t Z);
}
// Arguments stay in their registers; the stack is re-aligned to 16 bytes
// for the call; rcx is free once the implementation returned (rax holds
// the collective's result).
#define CLCPU_FIBER_ENTRY(Name)                                                \
  ".p2align 4\n"                                                               \
  ".hidden " #Name "\n"                                                        \
  ".type " #Name ", @function\n" #Name ":\n"                                   \
  "  .cfi_startproc\n"                                                         \
  "  subq $8, %rsp\n"                                                          \
  "  .cfi_adjust_cfa_offset 8\n"                                               \
  "  call " #Name "_impl\n"                                                    \
  "  addq $8, %rsp\n"                                                          \
  "  .cfi_adjust_cfa_offset -8\n"                                              \
  "  popq %rcx\n"                                                              \
  "  .cfi_adjust_cfa_offset -8\n"                                              \
  "  .cfi_register %rip, %rcx\n"                                               \
  "  jmp *%rcx\n"                                                              \
  "  .cfi_endproc\n"                                                           \
  ".size " #Name ", .-" #Name "\n"
asm(".pushsection .text\n" CLCPU_FIBER_ENTRY(clcpu_fiber_barrier)
        CLCPU_FIBER_ENTRY(clcpu_fiber_sub_group_barrier)
            CLCPU_FIBER_ENTRY(clcpu_fiber_collective) ".popsection\n");
#undef CLCPU_FIBER_ENTRY
#endif

namespace {
// What a fiber's WorkGroupContext points at: the entries above where they
// exist, else the implementations.
#ifdef CLCPU_FIBER_ASM
constexpr auto BarrierEntry = clcpu_fiber_barrier;
constexpr auto SubGroupBarrierEntry = clcpu_fiber_sub_group_barrier;
constexpr auto CollectiveEntry = clcpu_fiber_collective;
#else
constexpr auto BarrierEntry = barrierImpl;
constexpr auto SubGroupBarrierEntry = subGroupBarrierImpl;
constexpr auto CollectiveEntry = collectiveImpl;
#endif

/// The calling thread's fibers.
struct Pool {
  std::vector<Fiber *> Fibers;
  std::vector<ctx::fcontext_t> Resumes; // Group::Resumes, by pool index
  size_t StackSize = 0;

  ~Pool() { clear(); }
  void clear() {
    for (Fiber *F : Fibers) {
#ifdef CLCPU_TSAN_FIBERS
      __tsan_destroy_fiber(F->TsanFiber);
#endif
#ifdef CLCPU_ASAN_FIBERS
      // The stack's shadow keeps the frames' redzones: memory mapped there
      // later (tbbmalloc's) was reported as a stack-buffer-underflow.
      __asan_unpoison_memory_region(F->Mapping, F->MappingSize);
#endif
      munmap(F->Mapping, F->MappingSize);
      delete F;
    }
    Fibers.clear();
    Resumes.clear();
  }
  void reserve(size_t N, size_t Stack) {
    if (Stack > StackSize) {
      clear(); // every fiber is idle between groups
      StackSize = Stack;
    }
    while (Fibers.size() < N) {
      auto *F = new Fiber;
      size_t Guard = pageSize();
      F->MappingSize = Guard + StackSize;
      F->Mapping =
          mmap(nullptr, F->MappingSize, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
      if (F->Mapping == MAP_FAILED) {
        delete F;
        throw std::bad_alloc();
      }
      // The stack grows down: the guard page is the lowest one.
      mprotect(F->Mapping, Guard, PROT_NONE);
      Resumes.push_back(
          ctx::make_fcontext(static_cast<char *>(F->Mapping) + F->MappingSize,
                             StackSize, fiberMain));
#ifdef CLCPU_TSAN_FIBERS
      F->TsanFiber = __tsan_create_fiber(0);
#endif
      Fibers.push_back(F);
    }
  }
};
thread_local Pool ThreadPool;

/// From the group loop: runs the runnable fibers among \p Fs[Begin, End) in
/// linear order, each until it stops; returns when the last one did.
void runPass(Group &G, Fiber **Fs, size_t Begin, size_t End) {
  size_t J = Begin;
  while (J < End && !runnable(G.States[J]))
    ++J;
  if (J == End)
    return;
  G.PassEnd = End;
  G.States[J] = Wait::None;
  Hop H{nullptr, Fs[J]};
#ifdef CLCPU_TSAN_FIBERS
  __tsan_switch_to_fiber(Fs[J]->TsanFiber, 0);
#endif
#ifdef CLCPU_ASAN_FIBERS
  asanSwitch(&G.AsanFake, Fs[J], G);
#endif
  arrived(jump(G.Resumes[J], &H));
}

/// From the group loop, once none of the sub-group [Begin, End) is
/// runnable (some may be yielding): if some of its work-items wait at a
/// collective computed per call site (the non-uniform ones, shuffles and
/// rotations: CollNonUniform), computes the one at one call site over the
/// work-items waiting there (the active ones) and releases them; false if
/// none waits at one. The site is one that no work-item waiting elsewhere
/// can still reach in the same round of the loops around it
/// (compiler/Barriers.cpp's table, compiler/passes/Reconvergence.cpp), the
/// lowest such in reverse post-order: the work-items of a divergent branch meet
/// there, a site after the branches waits until both sides arrived (at
/// the branch's reconvergence point), and one after a loop until the
/// loop's last round: the active sets of a SIMD machine that runs the
/// branches one after the other. When every waiting site can reach
/// another (only in irreducible loops) the lowest goes first.
bool releaseNonUniform(Group &G, size_t Begin, size_t End) {
  auto Reaches = [&](uint64_t From, uint64_t To) { // site numbers + 1
    if (From > 64 || To > 64)
      return From < To;
    return ((G.Reach[From - 1] >> (To - 1)) & 1) != 0;
  };
  uint64_t Best = 0, Lowest = 0;
  for (size_t J = Begin; J < End; ++J) {
    uint64_t S = G.States[J] == Wait::SubGroup ? G.Site[J] : 0;
    if (!S || S == Best)
      continue;
    if (!Lowest || S < Lowest)
      Lowest = S;
    bool Reachable = false;
    for (size_t K = Begin; K < End && !Reachable; ++K) {
      uint64_t T = G.States[K] == Wait::SubGroup ? G.Site[K] : 0;
      Reachable = T && T != S && Reaches(T, S);
    }
    if (!Reachable && (!Best || S < Best))
      Best = S;
  }
  if (!Lowest)
    return false;
  uint64_t First = Best ? Best : Lowest;
  thread_local std::vector<uint8_t> Active;
  Active.assign(End - Begin, 0);
  uint32_t Op = 0;
  for (size_t J = Begin; J < End; ++J)
    if (G.States[J] == Wait::SubGroup && G.Site[J] == First) {
      Active[J - Begin] = 1;
      Op = G.SiteOp[J];
    }
  runNonUniform(G.Scratch.data() + Begin, G.Arg.data() + Begin, End - Begin,
                Active.data(), Op, G.MaxSubGroup);
  for (size_t J = Begin; J < End; ++J)
    if (Active[J - Begin]) {
      G.Site[J] = 0;
      G.States[J] = Wait::None;
    }
  return true;
}

/// The calling thread's large stack (runOnLargeStack): kept for the next
/// call, grown when a larger one is asked for.
struct LargeStack {
  void *Mapping = nullptr; // guard page + stack
  size_t MappingSize = 0;
  ~LargeStack() { release(); }
  void release() {
    if (!Mapping)
      return;
#ifdef CLCPU_ASAN_FIBERS
    __asan_unpoison_memory_region(Mapping, MappingSize);
#endif
    munmap(Mapping, MappingSize);
    Mapping = nullptr;
    MappingSize = 0;
  }
  /// The stack [base, base + size) for at least \p Bytes.
  std::pair<char *, size_t> get(size_t Bytes) {
    size_t Guard = pageSize();
    size_t Want = (Bytes + Guard - 1) / Guard * Guard;
    if (MappingSize < Guard + Want) {
      release();
      void *M =
          mmap(nullptr, Guard + Want, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
      if (M == MAP_FAILED)
        throw std::bad_alloc();
      // The stack grows down: the guard page is the lowest one.
      mprotect(M, Guard, PROT_NONE);
      Mapping = M;
      MappingSize = Guard + Want;
    }
    return {static_cast<char *>(Mapping) + Guard, MappingSize - Guard};
  }
};
thread_local LargeStack ThreadLargeStack;

/// What runOnLargeStack's entry runs, and where it returns to.
struct LargeCall {
  WorkGroupFn Fn;
  void **Args;
  WorkGroupContext *C;
#ifdef CLCPU_ASAN_FIBERS
  const void *CallerStack = nullptr;
  size_t CallerSize = 0;
#endif
};

void largeStackMain(ctx::transfer_t T) {
  auto *L = static_cast<LargeCall *>(T.data);
#ifdef CLCPU_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(nullptr, &L->CallerStack, &L->CallerSize);
#endif
  L->Fn(L->Args, L->C); // JIT code: never throws
#ifdef CLCPU_ASAN_FIBERS
  // This stack is done with (its next use starts afresh): no fake stack.
  __sanitizer_start_switch_fiber(nullptr, L->CallerStack, L->CallerSize);
#endif
  ctx::jump_fcontext(T.fctx, nullptr);
}

} // namespace

void runOnLargeStack(WorkGroupFn Fn, void **Args, WorkGroupContext &C,
                     size_t Bytes) {
  auto [Base, Size] = ThreadLargeStack.get(Bytes);
  void *SavedLo = C.PrivateLo, *SavedHi = C.PrivateHi;
  // The work-item loop's private variables live on this stack now
  // (to_private and get_fence look there).
  C.PrivateLo = Base;
  C.PrivateHi = Base + Size;
  LargeCall L{Fn, Args, &C};
  ctx::fcontext_t To = ctx::make_fcontext(Base + Size, Size, largeStackMain);
#ifdef CLCPU_ASAN_FIBERS
  void *Fake = nullptr;
  __sanitizer_start_switch_fiber(&Fake, Base, Size);
#endif
  ctx::jump_fcontext(To, &L);
#ifdef CLCPU_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(Fake, nullptr, nullptr);
#endif
  C.PrivateLo = SavedLo;
  C.PrivateHi = SavedHi;
}

size_t fiberStackSize(size_t PrivateMemSize) {
  size_t Want = PrivateMemSize + 32 * 1024;
  size_t P = pageSize();
  Want = (Want + P - 1) / P * P;
  return Want > DefaultFiberStack ? Want : DefaultFiberStack;
}

void runGroupOnFibers(WorkGroupFn Fn, void **Args, const WorkGroupContext &Base,
                      size_t StackSize) {
  size_t L0 = Base.LocalSize[0], L1 = Base.LocalSize[1], L2 = Base.LocalSize[2];
  size_t N = L0 * L1 * L2;
  Group G;
  G.Fn = Fn;
  G.Args = Args;
  G.Count = N;
  G.Scratch.resize(N);
  G.Arg.resize(N);
  const LaunchDescription &L = Base.Launch;
  G.SubGroupSize = L.SubGroupSize ? L.SubGroupSize : N;
  G.MaxSubGroup =
      std::min(G.SubGroupSize, L.EnqueuedLocalSize[0] * L.EnqueuedLocalSize[1] *
                                   L.EnqueuedLocalSize[2]);
  if (G.MaxSubGroup == 0) // (a context without the enqueued size: tests)
    G.MaxSubGroup = G.SubGroupSize;
  size_t NumSG = (N + G.SubGroupSize - 1) / G.SubGroupSize;
  G.SG.resize(NumSG);
  std::vector<Wait> States(N, Wait::None);
  G.States = States.data();
#ifdef CLCPU_TSAN_FIBERS
  G.TsanCaller = __tsan_get_current_fiber();
#endif
  Pool &P = ThreadPool;
  P.reserve(N, StackSize ? StackSize : DefaultFiberStack);
  G.Resumes = P.Resumes.data();
  size_t I = 0;
  for (size_t Z = 0; Z < L2; ++Z)
    for (size_t Y = 0; Y < L1; ++Y)
      for (size_t X = 0; X < L0; ++X, ++I) {
        Fiber *F = P.Fibers[I];
        F->Ctx = Base;
        F->Ctx.LocalId[0] = X;
        F->Ctx.LocalId[1] = Y;
        F->Ctx.LocalId[2] = Z;
        F->Ctx.Barrier = BarrierEntry;
        F->Ctx.Collective = CollectiveEntry;
        F->Ctx.SubGroupBarrier = SubGroupBarrierEntry;
        F->Ctx.Yield = yieldImpl;
        F->Ctx.Group = &G;
        F->G = &G;
        F->Index = I;
        // Private variables live on the fiber's stack.
        F->Ctx.PrivateLo = F->Mapping;
        F->Ctx.PrivateHi = static_cast<char *>(F->Mapping) + F->MappingSize;
      }
  // Passes: resume every runnable or yielding work-item once, in linear
  // order; each runs until its next barrier, collective, yield or its end.
  // After a pass, a sub-group whose work-items all wait at a sub-group
  // barrier (none yielding) is released, its collective computed first;
  // once no work-item is runnable, yielding or at a sub-group barrier, the
  // work-group barrier is released. One pass covers the whole group: one
  // switch back to this loop per pass instead of one per sub-group (the
  // order between sub-groups is not specified). A barrier some work-items
  // skip (a divergent barrier, undefined behaviour) never waits for them:
  // finished work-items are not counted, and a sub-group stuck between a
  // sub-group and a work-group barrier is released, so every fiber runs to
  // its end.
  Fiber **Fs = P.Fibers.data();
  G.Fibers = Fs;
  Wait *W = G.States;
  // The work-group barrier: its collective, if any, then every work-item
  // waiting there runs again.
  auto releaseGroup = [&] {
    if (G.WG.Pending) {
      runCollective(G.Scratch.data(), G.Arg.data(), N, G.WG.Op,
                    G.WG.BroadcastFrom);
      G.WG.Pending = false;
    }
    for (size_t J = 0; J < N; ++J)
      if (W[J] == Wait::Group)
        W[J] = Wait::None;
  };
  for (;;) {
    G.AtGroup = 0;
    runPass(G, Fs, 0, N);
    if (G.AtGroup == N) {
      // Every work-item at a work-group barrier or collective: nothing
      // for the sub-groups to do.
      releaseGroup();
      continue;
    }
    bool Busy = false, AtGroup = false;
    for (size_t S = 0, Begin = 0; S < NumSG; ++S, Begin += G.SubGroupSize) {
      size_t End = std::min(N, Begin + G.SubGroupSize);
      bool SBusy = false, AtSub = false;
      for (size_t J = Begin; J < End; ++J) {
        SBusy |= W[J] == Wait::Yield;
        AtSub |= W[J] == Wait::SubGroup;
        AtGroup |= W[J] == Wait::Group;
      }
      Busy |= SBusy;
      if (!AtSub)
        continue;
      // A work-item spinning in a loop (yielding) is not at a non-uniform
      // call, so the call's active work-items need not wait for it: it may
      // be waiting for one of them (independent forward progress).
      if (!G.Site.empty() && releaseNonUniform(G, Begin, End)) {
        Busy = true;
        continue;
      }
      if (SBusy)
        continue;
      PendingCollective &PC = G.SG[S];
      if (PC.Pending) {
        runCollective(G.Scratch.data() + Begin, G.Arg.data() + Begin,
                      End - Begin, PC.Op, PC.BroadcastFrom, G.MaxSubGroup);
        PC.Pending = false;
      }
      for (size_t J = Begin; J < End; ++J)
        if (W[J] == Wait::SubGroup)
          W[J] = Wait::None;
      Busy = true;
    }
    if (Busy)
      continue;
    if (!AtGroup)
      break; // every work-item finished
    releaseGroup();
  }
}

void releaseThreadFibers() { ThreadPool.clear(); }
size_t threadFiberCount() { return ThreadPool.Fibers.size(); }

size_t threadFiberResidentBytes() {
  size_t Page = pageSize(), Total = 0;
  std::vector<unsigned char> Resident;
  for (Fiber *F : ThreadPool.Fibers) {
    Resident.assign(F->MappingSize / Page, 0);
    if (mincore(F->Mapping, F->MappingSize, Resident.data()) != 0)
      continue;
    for (unsigned char R : Resident)
      Total += (R & 1) ? Page : 0;
  }
  return Total;
}

} // namespace clcpu
