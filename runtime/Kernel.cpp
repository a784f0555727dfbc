#include "runtime/Kernel.h"
#include "runtime/CheckedMath.h"
#include "runtime/CommandQueue.h"
#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/DeviceQueue.h"
#include "runtime/Image.h"
#include "runtime/Program.h"
#include "runtime/Sampler.h"
#include "runtime/Svm.h"
#include "runtime/Topology.h"
#include "scheduler/CommandMemory.h"
#include "scheduler/Executor.h"
#include "scheduler/Fiber.h"
#include "scheduler/NDRange.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace clcpu {

namespace {
constexpr size_t ArgAlign = 128; // enough for any vector type's alignment

size_t roundUp(size_t N, size_t A) { return (N + A - 1) / A * A; }

// A launch's memory is made by the enqueuing thread and freed by the worker
// that ran it: command memory (scheduler/CommandMemory.h).
struct AlignedFree {
  void operator()(void *P) const { freeCommandMemory(P, ArgAlign); }
};
using AlignedBlock = std::unique_ptr<unsigned char, AlignedFree>;

AlignedBlock alignedBlock(size_t N) {
  void *P = allocateCommandMemory(roundUp(N ? N : 1, ArgAlign), ArgAlign);
  std::memset(P, 0, roundUp(N ? N : 1, ArgAlign));
  return AlignedBlock(static_cast<unsigned char *>(P));
}

/// A pipe argument: a pointer to the pipe's memory in the global address
/// space on this target, told from a buffer by its kernel_arg_type_qual.
bool isPipeArg(const compiler::ArgInfo &A) {
  return A.isPointer() && A.TypeQual.find("pipe") != std::string::npos;
}

/// clSetKernelArg and clSetKernelArgSVMPointer: \p Index names an argument
/// of the kernel \p I (of context \p C).
cl_int checkArgIndex(const compiler::KernelInfo &I, cl_uint Index, Context *C) {
  // CL_INVALID_ARG_INDEX if arg_index is not a valid argument index.
  if (Index >= I.Args.size())
    return fail(CL_INVALID_ARG_INDEX,
                "arg_index " + std::to_string(Index) + " but kernel '" +
                    I.Name + "' has " + std::to_string(I.Args.size()) +
                    " arguments",
                C);
  return CL_SUCCESS;
}

/// The command's work: std::function stores it on the heap (a shared_ptr
/// is not trivially copyable), as command memory.
struct LaunchWork : CommandMemory {
  std::shared_ptr<KernelLaunch> L;
  explicit LaunchWork(std::shared_ptr<KernelLaunch> L) : L(std::move(L)) {}
  cl_int operator()() const;
};
} // namespace

/// Everything one launch needs, copied when it is prepared.
struct KernelLaunch {
  std::shared_ptr<const compiler::CompiledProgram> Exe; // keeps the code
  /// CodeRef::ByQueue with the kernel's own code: the kernel's reference,
  /// which Kernel::enqueue pins through the queue (Exe is null until then).
  const std::shared_ptr<const compiler::CompiledProgram> *PinFrom = nullptr;
  Executor *Exec = nullptr;
  Device *Dev = nullptr;
  NDRangeJob Job;
  template <typename T> using Vector = std::vector<T, CommandAllocator<T>>;
  AlignedBlock Storage;        // one ArgAlign slot per argument
  Vector<AlignedBlock> Blocks; // large by-value arguments
  Vector<void *> ArgPtrs;
  Vector<MemRef> Buffers;
  /// The bounds-check mode's report: the kernel's context and its sites.
  Context *Ctx = nullptr;
  const compiler::KernelInfo *Info = nullptr;
  /// How long the last run took (ns; none yet: the maximum). Only a hint
  /// for the next run of the same launch (command-buffer replays).
  mutable std::atomic<uint64_t> LastNs{UINT64_MAX};
};

namespace {
/// A launch that ran in less than this last time runs on one thread: waking
/// a helper thread and handing it groups costs microseconds, as much as the
/// whole launch (the small launches command-buffers replay by the hundred).
/// A run on one thread that takes longer sends the next run back to every
/// thread.
constexpr uint64_t SoloBelowNs = 5000;
} // namespace

namespace {
/// Bounds-check mode: the report of \p F, a failed check of \p L, to stderr
/// and the context's pfn_notify.
void reportCheckFailure(const KernelLaunch &L, const CheckFailure &F) {
  const compiler::KernelInfo &K = *L.Info;
  const LaunchDescription &D = L.Job.Launch;
  auto Triple = [](const size_t V[3]) {
    return "(" + std::to_string(V[0]) + "," + std::to_string(V[1]) + "," +
           std::to_string(V[2]) + ")";
  };
  size_t Global[3];
  for (unsigned I = 0; I < 3; ++I)
    Global[I] =
        D.GlobalOffset[I] + F.Group[I] * D.EnqueuedLocalSize[I] + F.Local[I];
  // The site's number indexes the kernel's table (compiler/passes/
  // CheckBounds.h); a number past its end would be a compiler bug.
  size_t Sites = 0;
  while (K.CheckSites[Sites])
    ++Sites;
  std::string What = F.Site <= Sites ? K.CheckSites[F.Site - 1]
                                     : "check " + std::to_string(F.Site);
  std::string Msg = "kernel '" + K.Name + "', work-item " + Triple(Global) +
                    " (local " + Triple(F.Local) + ", group " +
                    Triple(F.Group) + "): " + What;
  if (What.rfind("integer", 0) != 0)
    Msg += ": offset " + std::to_string(static_cast<int64_t>(F.Offset)) +
           " of an object of " + std::to_string(F.Extent) +
           " bytes; the access was skipped";
  Msg += "; the command ends with CL_OUT_OF_RESOURCES";
  std::fprintf(stderr, "clcpu: bounds check failed: %s\n", Msg.c_str());
  if (L.Ctx)
    L.Ctx->notify("bounds check failed: " + Msg);
}
} // namespace

cl_int runLaunch(const KernelLaunch &L) {
  bool Solo = L.LastNs.load(std::memory_order_relaxed) < SoloBelowNs;
  auto T0 = std::chrono::steady_clock::now();
  // Work-groups run on the device's arena (scheduler/NDRange.h); local
  // memory is per thread, __local arguments included. On one thread they
  // run in increasing order as they would on more, so every launch still
  // makes progress.
  if (L.Info->Enqueues) {
    // A kernel that enqueues: its children run after its groups, before
    // its command completes (runtime/DeviceQueue.h).
    DeviceRun Run(L.Exe, L.Ctx, L.Dev, L.Exec);
    return Run.run(L.Job, Solo ? 1 : L.Exec->threads());
  }
  CheckFailure Failure;
  runNDRange(L.Exec->arena(), Solo ? 1 : L.Exec->threads(), L.Job,
             &L.Exec->helperPark(), &Failure);
  if (Failure.Hit.load(std::memory_order_acquire)) {
    reportCheckFailure(L, Failure);
    return CL_OUT_OF_RESOURCES;
  }
  auto Ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                std::chrono::steady_clock::now() - T0)
                .count();
  L.LastNs.store(static_cast<uint64_t>(Ns), std::memory_order_relaxed);
  return CL_SUCCESS;
}

cl_int LaunchWork::operator()() const {
  cl_int Err = runLaunch(*L);
  // Drop the references before the command completes, so that the last
  // one (which may free the JIT'd code) goes before anyone waiting on the
  // command wakes up, never later on this worker thread.
  L->Buffers.clear();
  L->Exe.reset();
  return Err;
}

Kernel::Kernel(Program *P, std::shared_ptr<const compiler::CompiledProgram> E,
               const compiler::KernelInfo &I)
    : Prog(P), Exe(std::move(E)), Info(I) {
  State.Args.resize(I.Args.size());
  Prog->retainInternal();
  Prog->kernelAttached();
}

Kernel::~Kernel() {
  Prog->kernelDetached();
  Prog->releaseInternal();
}

Context *Kernel::context() const { return Prog->context(); }

uint64_t Kernel::argExtent(const ArgValue &V, size_t Index) const {
  if (V.LocalSize)
    return V.LocalSize;
  if (!Info.Args[Index].isPointer())
    return 0;
  if (V.Buffer)
    if (Mem *M = Mem::fromHandle(V.Buffer))
      return M->isImage() ? sizeof(DeviceImage) : M->size();
  if (!V.SvmPtr)
    return 0; // a null pointer reaches nothing
  // An SVM pointer reaches the end of its allocation; a pointer of no
  // allocation (fine-grain system SVM: any host memory) is not checked.
  SvmAllocation A;
  if (svm::find(context(), V.SvmPtr, &A))
    return static_cast<uint64_t>(static_cast<char *>(A.Base) + A.Size -
                                 static_cast<char *>(V.SvmPtr));
  return UINT64_MAX;
}

cl_int Kernel::setArg(cl_uint Index, size_t Size, const void *Value) {
  ArgValue V;
  if (cl_int Err = checkArg(Index, Size, Value, V))
    return Err;
  std::lock_guard<std::mutex> G(Lock);
  State.Args[Index] = std::move(V);
  return CL_SUCCESS;
}

cl_int Kernel::checkArg(cl_uint Index, size_t Size, const void *Value,
                        ArgValue &V) const {
  if (cl_int Err = checkArgIndex(Info, Index, context()))
    return Err;
  const compiler::ArgInfo &A = Info.Args[Index];
  V = ArgValue();
  V.Set = true;
  if (A.AddressSpace == compiler::ArgLocal) {
    // CL_INVALID_ARG_VALUE if arg_value is not NULL for an argument declared
    // with the local qualifier.
    if (Value)
      return fail(CL_INVALID_ARG_VALUE, "arg_value must be NULL for __local",
                  context());
    // CL_INVALID_ARG_SIZE if arg_size is zero and the argument is declared
    // with the local qualifier.
    if (Size == 0)
      return fail(CL_INVALID_ARG_SIZE, "arg_size is 0 for a __local argument",
                  context());
    V.LocalSize = Size;
  } else if (isPipeArg(A)) {
    // CL_INVALID_ARG_SIZE if ... the argument is a memory object and
    // arg_size != sizeof(cl_mem).
    if (Size != sizeof(cl_mem))
      return fail(CL_INVALID_ARG_SIZE,
                  "arg_size must be sizeof(cl_mem) for a pipe argument",
                  context());
    // CL_INVALID_ARG_VALUE if arg_value specified is not a valid value
    // (only a buffer argument may be given no value).
    if (!Value)
      return fail(CL_INVALID_ARG_VALUE, "arg_value is NULL for a pipe argument",
                  context());
    cl_mem H;
    std::memcpy(&H, Value, sizeof H);
    Mem *M = Mem::fromHandle(H);
    // CL_INVALID_MEM_OBJECT for an argument declared to be a memory object
    // when the specified arg_value is not a valid memory object: a pipe
    // argument takes a pipe.
    if (!M || M->context() != context())
      return fail(CL_INVALID_MEM_OBJECT,
                  "arg_value is not a valid pipe of the kernel's context",
                  context());
    if (!M->isPipe())
      return fail(CL_INVALID_MEM_OBJECT,
                  "argument " + std::to_string(Index) +
                      " is a pipe but arg_value is a buffer",
                  context());
    V.Buffer = H;
  } else if (A.isPointer()) {
    // CL_INVALID_ARG_SIZE if ... the argument is a memory object and
    // arg_size != sizeof(cl_mem).
    if (Size != sizeof(cl_mem))
      return fail(CL_INVALID_ARG_SIZE,
                  "arg_size must be sizeof(cl_mem) for a buffer argument",
                  context());
    // "If the argument is a buffer object, the arg_value pointer can be NULL
    // or point to a NULL value in which case a NULL value will be used".
    cl_mem H = nullptr;
    if (Value)
      std::memcpy(&H, Value, sizeof H);
    // CL_INVALID_MEM_OBJECT for an argument declared to be a memory object
    // when the specified arg_value is not a valid memory object (the NULL
    // value is allowed for buffers only; kernels read an image's
    // descriptor unconditionally).
    if (!H && A.isImage())
      return fail(CL_INVALID_MEM_OBJECT,
                  "argument " + std::to_string(Index) + " (" + A.TypeName +
                      ") needs an image, arg_value is NULL",
                  context());
    if (H) {
      Mem *M = Mem::fromHandle(H);
      // CL_INVALID_MEM_OBJECT for an argument declared to be a memory object
      // when the specified arg_value is not a valid memory object.
      if (!M || M->context() != context())
        return fail(CL_INVALID_MEM_OBJECT,
                    "arg_value is not a valid memory object of the kernel's "
                    "context",
                    context());
      // An image is no buffer: its bytes have a layout a pointer argument
      // does not know; an image argument takes an image.
      if (A.isImage() && !M->isImage())
        return fail(CL_INVALID_MEM_OBJECT,
                    "argument " + std::to_string(Index) + " (" + A.TypeName +
                        ") needs an image, arg_value is a buffer",
                    context());
      if (!A.isImage() && M->isImage())
        return fail(CL_INVALID_MEM_OBJECT,
                    "arg_value is an image, not a buffer object", context());
      // (The same sentence: an image argument takes an image of its type,
      // CL_DEPTH for a depth image; the builtins index the image by the
      // argument's type.)
      if (A.isImage() && !imageFitsArgType(*M->image(), A.TypeName))
        return fail(CL_INVALID_MEM_OBJECT,
                    "argument " + std::to_string(Index) + " (" + A.TypeName +
                        ") needs an image of that type, arg_value is another",
                    context());
      // CL_INVALID_ARG_VALUE if the argument is an image declared with the
      // read_only qualifier and arg_value refers to an image object created
      // with cl_mem_flags of CL_MEM_WRITE_ONLY or if the image argument is
      // declared with the write_only qualifier and arg_value refers to an
      // image object created with cl_mem_flags of CL_MEM_READ_ONLY.
      if (A.isImage() &&
          ((A.AccessQual == "read_only" && (M->flags() & CL_MEM_WRITE_ONLY)) ||
           (A.AccessQual == "write_only" && (M->flags() & CL_MEM_READ_ONLY))))
        return fail(CL_INVALID_ARG_VALUE,
                    "argument " + std::to_string(Index) + " is a " +
                        A.AccessQual + " image, arg_value an image created " +
                        (A.AccessQual == "read_only" ? "CL_MEM_WRITE_ONLY"
                                                     : "CL_MEM_READ_ONLY"),
                    context());
      // (The same sentence: a buffer argument takes a buffer.)
      if (M->isPipe())
        return fail(CL_INVALID_MEM_OBJECT,
                    "argument " + std::to_string(Index) +
                        " is a buffer but arg_value is a pipe",
                    context());
      V.Buffer = H;
    }
  } else if (A.isSampler()) {
    // CL_INVALID_ARG_SIZE if ... the argument is a sampler and arg_size !=
    // sizeof(cl_sampler).
    if (Size != sizeof(cl_sampler))
      return fail(CL_INVALID_ARG_SIZE,
                  "arg_size must be sizeof(cl_sampler) for a sampler argument",
                  context());
    // CL_INVALID_SAMPLER for an argument declared to be of type sampler_t
    // when the specified arg_value is not a valid sampler object.
    cl_sampler H = nullptr;
    if (Value)
      std::memcpy(&H, Value, sizeof H);
    Sampler *S = Sampler::fromHandle(H);
    if (!S || S->context() != context())
      return fail(CL_INVALID_SAMPLER,
                  "arg_value is not a valid sampler object of the kernel's "
                  "context",
                  context());
    // The kernel sees the sampler's bits (builtins/image.cl).
    uint64_t Bits = S->kernelBits();
    auto *B = reinterpret_cast<const unsigned char *>(&Bits);
    V.Bytes.assign(B, B + sizeof Bits);
  } else if (A.TypeName == "queue_t") {
    // CL_INVALID_ARG_SIZE if arg_size does not match the size of the data
    // type for an argument that is not a memory object.
    if (Size != sizeof(cl_command_queue))
      return fail(CL_INVALID_ARG_SIZE,
                  "arg_size must be sizeof(cl_command_queue) for a queue_t "
                  "argument",
                  context());
    // CL_INVALID_DEVICE_QUEUE for an argument declared to be of type queue_t
    // when the specified arg_value is not a valid device queue object.
    cl_command_queue H = nullptr;
    if (Value)
      std::memcpy(&H, Value, sizeof H);
    CommandQueue *Q = CommandQueue::fromHandle(H);
    if (!Q || !Q->onDevice() || Q->context() != context())
      return fail(CL_INVALID_DEVICE_QUEUE,
                  "arg_value is not an on-device queue of the kernel's "
                  "context",
                  context());
    // The kernel sees the handle (runtime/DeviceQueue.h).
    auto *B = static_cast<const unsigned char *>(Value);
    V.Bytes.assign(B, B + Size);
  } else {
    // CL_INVALID_ARG_SIZE if arg_size does not match the size of the data
    // type for an argument that is not a memory object.
    if (Size != A.Size)
      return fail(CL_INVALID_ARG_SIZE,
                  "arg_size " + std::to_string(Size) + " but argument " +
                      std::to_string(Index) + " (" + A.TypeName + ") has " +
                      std::to_string(A.Size) + " bytes",
                  context());
    // CL_INVALID_ARG_VALUE if arg_value specified is not a valid value.
    if (!Value)
      return fail(CL_INVALID_ARG_VALUE, "arg_value is NULL", context());
    auto *B = static_cast<const unsigned char *>(Value);
    V.Bytes.assign(B, B + Size);
  }
  return CL_SUCCESS;
}

cl_int Kernel::setArgSvm(cl_uint Index, const void *Ptr) {
  ArgValue V;
  if (cl_int Err = checkArgSvm(Index, Ptr, V))
    return Err;
  std::lock_guard<std::mutex> G(Lock);
  State.Args[Index] = std::move(V);
  return CL_SUCCESS;
}

cl_int Kernel::checkArgSvm(cl_uint Index, const void *Ptr, ArgValue &V) const {
  if (cl_int Err = checkArgIndex(Info, Index, context()))
    return Err;
  // CL_INVALID_ARG_VALUE if arg_value specified is not a valid value: an
  // SVM pointer only fits an argument declared as a pointer to global or
  // constant memory. (Any pointer value is valid there: the device supports
  // fine-grain system SVM, so host pointers work as they are.)
  if (!Info.Args[Index].isPointer() || isPipeArg(Info.Args[Index]))
    return fail(CL_INVALID_ARG_VALUE,
                "argument " + std::to_string(Index) +
                    " is not a pointer to global or constant memory",
                context());
  V = ArgValue();
  V.Set = true;
  V.SvmPtr = const_cast<void *>(Ptr);
  return CL_SUCCESS;
}

cl_int Kernel::setExecInfo(cl_kernel_exec_info Param, size_t Size,
                           const void *Value) {
  // Checked and applied to a copy, stored under the lock: fail() calls the
  // application's pfn_notify, which must not run under the lock.
  ArgState S;
  {
    std::lock_guard<std::mutex> G(Lock);
    S.SvmPtrs = State.SvmPtrs;
    S.FineGrainSystem = State.FineGrainSystem;
  }
  if (cl_int Err = setExecInfoIn(S, Param, Size, Value))
    return Err;
  std::lock_guard<std::mutex> G(Lock);
  State.SvmPtrs = std::move(S.SvmPtrs);
  State.FineGrainSystem = S.FineGrainSystem;
  return CL_SUCCESS;
}

cl_int Kernel::setExecInfoIn(ArgState &S, cl_kernel_exec_info Param,
                             size_t Size, const void *Value) const {
  // An empty CL_KERNEL_EXEC_INFO_SVM_PTRS list (param_value_size 0,
  // param_value NULL) clears the pointers set before; the CTS
  // (test_svm/set_kernel_exec_info_svm_ptrs) unsets them this way.
  if (Param == CL_KERNEL_EXEC_INFO_SVM_PTRS && Size == 0 && !Value) {
    S.SvmPtrs.clear();
    return CL_SUCCESS;
  }
  // CL_INVALID_VALUE if ... param_value is NULL or if the size specified by
  // param_value_size is not valid.
  if (!Value)
    return fail(CL_INVALID_VALUE, "param_value is NULL", context());
  switch (Param) {
  case CL_KERNEL_EXEC_INFO_SVM_PTRS: {
    if (Size % sizeof(void *) != 0)
      return fail(CL_INVALID_VALUE,
                  "param_value_size is not a multiple of sizeof(void *)",
                  context());
    // The pointers need no action on a CPU (they are valid as they are);
    // they are kept for the kernel's lifetime as the spec describes.
    auto *P = static_cast<void *const *>(Value);
    S.SvmPtrs.assign(P, P + Size / sizeof(void *));
    return CL_SUCCESS;
  }
  case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM: {
    if (Size != sizeof(cl_bool))
      return fail(CL_INVALID_VALUE, "param_value_size is not sizeof(cl_bool)",
                  context());
    // CL_INVALID_OPERATION if param_name is
    // CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM and param_value is CL_TRUE
    // but no devices in the context associated with kernel support
    // fine-grain system SVM allocations. (Every clcpu device does.)
    S.FineGrainSystem = *static_cast<const cl_bool *>(Value) != CL_FALSE;
    return CL_SUCCESS;
  }
  default:
    // CL_INVALID_VALUE if param_name is not valid.
    return fail(CL_INVALID_VALUE,
                "param_name " + std::to_string(Param) + " is not valid",
                context());
  }
}

Kernel *Kernel::clone(const Kernel &Src) {
  auto *K = new Kernel(Src.Prog, Src.Exe, Src.Info);
  std::lock_guard<std::mutex> G(Src.Lock);
  // "Cloning ... makes a copy of the kernel object, the kernel arguments
  // and any information passed to the kernel object using
  // clSetKernelExecInfo."
  K->State = Src.State;
  return K;
}

bool Kernel::ArgState::complete(cl_uint &Missing) const {
  for (cl_uint I = 0; I < Args.size(); ++I)
    if (!Args[I].Set) {
      Missing = I;
      return false;
    }
  return true;
}

bool Kernel::argsComplete(cl_uint &Missing) const {
  std::lock_guard<std::mutex> G(Lock);
  return State.complete(Missing);
}

Kernel::ArgState Kernel::argState() const {
  std::lock_guard<std::mutex> G(Lock);
  return State;
}

size_t Kernel::maxWorkGroupSize(const Device *D) const {
  return maxWorkGroupSizeOf(Info, D);
}

size_t maxWorkGroupSizeOf(const compiler::KernelInfo &Info, const Device *D) {
  size_t Max = 0;
  D->getInfo(CL_DEVICE_MAX_WORK_GROUP_SIZE, InfoOut(sizeof Max, &Max, nullptr));
  // A work-group with barriers needs a fiber stack per work-item: kernels
  // with large private arrays get smaller groups (scheduler/Fiber.h).
  size_t Frame = std::max(Info.StackFrameSize, Info.PrivateMemSize);
  if (Info.PerWorkItem)
    Max = std::min(Max, maxFibersPerGroup(fiberStackSize(Frame)));
  // Barrier regions: the scratch of one group (values live across barriers)
  // stays within MaxRegionGroupScratch per thread.
  if (Info.RegionScratch)
    Max = std::min(Max, MaxRegionGroupScratch / Info.RegionScratch);
  return Max ? Max : 1;
}

void Kernel::chooseLocalSize(LaunchDescription &R, size_t MaxTotal,
                             unsigned Threads, bool PerWorkItem, bool Regions) {
  // Dimension 0 is the vectorized loop: the largest divisor of the global
  // size up to a limit (and MaxTotal), a multiple of 16 if there is one.
  // Fibers (PerWorkItem) cost a stack each: 256. The work-item loop costs
  // nothing per item but something per group: groups as large as leave
  // every thread 16 of them to balance, counting the groups of every
  // dimension (a 4096 x 4096 image is 4096 rows of groups), up to 4096
  // items; barrier regions up to 1024, so that what lives across a barrier
  // stays in the caches. At least 64 items, a few vector iterations even
  // of the widest loop (64 byte lanes): a small global size on many
  // threads is a kernel heavy per item (nbody: 16,384 items, a loop over
  // every body in each), whose groups of 256 left 16 threads 4 groups
  // each, and the last group of the slowest thread idled the others.
  size_t Limit = 256;
  if (!PerWorkItem) {
    // The other dimensions' global sizes, as many groups each (their
    // local size is 1); saturated, since only the comparison matters.
    size_t Items = R.GlobalSize[0];
    for (unsigned D = 1; D < 3; ++D)
      if (R.GlobalSize[D] > 1 &&
          __builtin_mul_overflow(Items, R.GlobalSize[D], &Items))
        Items = SIZE_MAX;
    Limit = std::clamp<size_t>(Items / (16 * std::max(Threads, 1u)), 64,
                               Regions ? 1024 : 4096);
  }
  // Per launch: search downwards, multiples of 16 first, so the usual
  // global sizes stop at the first try.
  Limit = std::min({Limit, MaxTotal, R.GlobalSize[0]});
  size_t Best = 0;
  for (size_t L = Limit / 16 * 16; L >= 16 && !Best; L -= 16)
    if (R.GlobalSize[0] % L == 0)
      Best = L;
  for (size_t L = Limit; L >= 1 && !Best; --L)
    if (R.GlobalSize[0] % L == 0)
      Best = L;
  R.EnqueuedLocalSize[0] = Best;
  for (unsigned D = 1; D < 3; ++D)
    R.EnqueuedLocalSize[D] = 1;
}

namespace {
/// The formats of the images and the bits of the samplers \p Args bind to
/// kernel \p K's arguments, read under \p ArgsLock (null: \p Args is the
/// caller's own copy); empty if the kernel has neither or one is not set.
compiler::ArgBindings bindings(const compiler::KernelInfo &K,
                               const std::vector<Kernel::ArgValue> &Args,
                               std::mutex *ArgsLock) {
  compiler::ArgBindings B;
  bool Any = false;
  for (const compiler::ArgInfo &A : K.Args)
    Any |= A.isImage() || A.isSampler();
  if (!Any)
    return B;
  std::unique_lock<std::mutex> G;
  if (ArgsLock)
    G = std::unique_lock<std::mutex>(*ArgsLock);
  for (unsigned I = 0; I < K.Args.size() && I < Args.size(); ++I) {
    const Kernel::ArgValue &V = Args[I];
    if (K.Args[I].isImage()) {
      Mem *M = V.Buffer ? Mem::fromHandle(V.Buffer) : nullptr;
      if (!M || !M->isImage())
        return {}; // the launch fails its checks
      const DeviceImage &D = M->image()->Device;
      B.Images.push_back({I, D.Order, D.Type, D.ElementSize, D.Channels});
    } else if (K.Args[I].isSampler()) {
      uint64_t Bits = 0;
      if (V.Bytes.size() != sizeof Bits)
        return {};
      std::memcpy(&Bits, V.Bytes.data(), sizeof Bits);
      B.Samplers.push_back({I, static_cast<uint32_t>(Bits)});
    }
  }
  B.Kernel = K.Name;
  return B;
}

/// Whether \p B binds argument \p Index to an image of \p D's format.
bool boundFormat(const compiler::ArgBindings &B, unsigned Index,
                 const DeviceImage &D) {
  for (const compiler::ArgBindings::Image &I : B.Images)
    if (I.Index == Index)
      return I.Order == D.Order && I.Type == D.Type &&
             I.ElementSize == D.ElementSize && I.Channels == D.Channels;
  return false;
}

/// Whether \p B binds argument \p Index to the sampler bits \p Bytes.
bool boundSampler(const compiler::ArgBindings &B, unsigned Index,
                  const std::vector<unsigned char> &Bytes) {
  uint64_t Bits = 0;
  if (Bytes.size() != sizeof Bits)
    return false;
  std::memcpy(&Bits, Bytes.data(), sizeof Bits);
  for (const compiler::ArgBindings::Sampler &S : B.Samplers)
    if (S.Index == Index)
      return S.Bits == Bits;
  return false;
}
} // namespace

cl_int Kernel::prepare(CommandQueue *Q, const LaunchDescription &R,
                       std::shared_ptr<KernelLaunch> &Out, CodeRef How) {
  return prepareWith(Q, R, State.Args, &Lock, Out, How);
}

cl_int Kernel::prepare(CommandQueue *Q, const LaunchDescription &R,
                       const ArgState &S,
                       std::shared_ptr<KernelLaunch> &Out) const {
  return prepareWith(Q, R, S.Args, nullptr, Out);
}

cl_int Kernel::prepareWith(CommandQueue *Q, const LaunchDescription &R,
                           const std::vector<ArgValue> &Args,
                           std::mutex *ArgsLock,
                           std::shared_ptr<KernelLaunch> &Out,
                           CodeRef How) const {
  // A kernel with image or sampler arguments runs its build specialized
  // for the formats and sampler values of this launch, where the program
  // has one (Program::specialization): its image accesses vectorize.
  // The code's reference count is a line the worker that frees the
  // launch also writes: taken once per launch, not copied through locals.
  std::shared_ptr<const compiler::CompiledProgram> Spec;
  const compiler::KernelInfo *Run = &Info;
  compiler::ArgBindings Bindings = bindings(Info, Args, ArgsLock);
  if (!Bindings.empty())
    if (auto Found = Prog->specialization(Bindings))
      for (const compiler::KernelInfo &K : Found->Kernels)
        // The same path as the ordinary build (the local size was chosen
        // for it), else the ordinary build.
        if (K.Name == Info.Name && K.Fn && K.PerWorkItem == Info.PerWorkItem &&
            (K.RegionScratch > 0) == (Info.RegionScratch > 0) &&
            K.LocalMemSize == Info.LocalMemSize) {
          Spec = Found;
          Run = &K;
        }
  auto L = std::allocate_shared<KernelLaunch>(CommandAllocator<KernelLaunch>());
  // The kernel's own code: referenced here, or pinned by enqueue. A kernel
  // that enqueues finds its children's code through the launch's own
  // reference (DeviceRun).
  auto UseKernelCode = [&] {
    Run = &Info;
    if (How == CodeRef::Own || Info.Enqueues) {
      L->Exe = Exe;
    } else {
      L->Exe.reset();
      L->PinFrom = &Exe;
    }
  };
  if (Spec)
    L->Exe = std::move(Spec);
  else
    UseKernelCode();
  L->Exec = &Q->executor();
  L->Dev = Q->device();
  NDRangeJob &J = L->Job;
  J.Launch = R;
  J.Launch.SubGroupSize = subGroupSize();
  // A hardware fault in the kernel also goes to the context's pfn_notify
  // (scheduler/StackGuard.h); the queue keeps the context alive.
  J.FaultNotify = [](const char *Message, void *Ctx) {
    static_cast<Context *>(Ctx)->notify(Message);
  };
  J.FaultNotifyData = context();
  L->Ctx = context();
  // The application's __local sizes may add up past size_t (two of 2^63
  // bytes): summed with overflow checks before the limit check below.
  CheckedSize LocalBytes = Info.LocalMemSize;
  {
    std::unique_lock<std::mutex> G;
    if (ArgsLock)
      G = std::unique_lock<std::mutex>(*ArgsLock);
    L->Storage = alignedBlock(Args.size() * ArgAlign);
    // One allocation each, not one per doubling: the host thread and the
    // worker that frees the launch share malloc's arena lock.
    L->ArgPtrs.reserve(Args.size());
    L->Buffers.reserve(Args.size());
    for (size_t I = 0; I < Args.size(); ++I) {
      const ArgValue &V = Args[I];
      unsigned char *Slot = L->Storage.get() + I * ArgAlign;
      void *P = nullptr;
      if (V.LocalSize) {
        // The scheduler points this argument at each thread's local block.
        J.LocalArgs.push_back({static_cast<unsigned>(I), V.LocalSize});
        LocalBytes += V.LocalSize;
      } else if (Info.Args[I].isPointer()) {
        if (V.Buffer) {
          Mem *M = Mem::fromHandle(V.Buffer);
          // CL_INVALID_KERNEL_ARGS if the kernel argument values have not
          // been specified: a buffer released since clSetKernelArg is no
          // longer a value.
          if (!M)
            return fail(CL_INVALID_KERNEL_ARGS,
                        "argument " + std::to_string(I) +
                            " names a memory object that was released",
                        context());
          // An image argument points to the image as kernels see it.
          P = M->isImage() ? const_cast<DeviceImage *>(&M->image()->Device)
                           : M->data();
          // A specialization reads exactly the formats it was built for:
          // an argument changed since (clSetKernelArg on another thread)
          // takes the launch back to the ordinary build.
          if (Run != &Info && M->isImage() &&
              !boundFormat(Bindings, I, M->image()->Device))
            UseKernelCode();
          // (Not a pipe: its packets must be visible before the release
          // store of their sequence word, which non-temporal stores would
          // not be.)
          // An image's size is its pixels' (a write_image of whole rows
          // streams like a buffer's stores).
          if (I < 64 && !M->isPipe() &&
              M->size() >= compiler::streamingStoreMinBytes())
            J.Launch.StreamArgs |= uint64_t(1) << I;
          L->Buffers.push_back(MemRef(M));
        } else {
          P = V.SvmPtr; // clSetKernelArgSVMPointer (null otherwise)
        }
        std::memcpy(Slot, &P, sizeof P);
      } else {
        if (V.Bytes.size() > ArgAlign) {
          // Large by-value arguments get a block of their own.
          L->Blocks.push_back(alignedBlock(V.Bytes.size()));
          Slot = L->Blocks.back().get();
        }
        std::memcpy(Slot, V.Bytes.data(), V.Bytes.size());
        if (Run != &Info && Info.Args[I].isSampler() &&
            !boundSampler(Bindings, I, V.Bytes))
          UseKernelCode();
      }
      L->ArgPtrs.push_back(Slot);
    }
  }
  // The code the launch runs (Run lives in L->Exe, which the launch holds).
  J.Fn = Run->Fn;
  J.Name = Run->Name.c_str();
  J.PerWorkItem = Run->PerWorkItem;
  size_t Frame = std::max(Run->StackFrameSize, Run->PrivateMemSize);
  J.FiberStack = fiberStackSize(Frame);
  J.StackBytes = Frame + StackHeadroom;
  J.RegionScratch = Run->RegionScratch;
  J.LocalVarsSize = Run->LocalMemSize;
  J.CheckBounds = Run->CheckSites != nullptr;
  J.CheckReportFlagged = Run->CheckReportFlagged;
  L->Info = Run;
  {
    cl_ulong MaxLocal = Device::localMemSize();
    // CL_OUT_OF_RESOURCES if there is a failure to queue the execution
    // instance of kernel on the command-queue because of insufficient
    // resources needed to execute the kernel (here: the kernel's __local
    // variables plus its __local arguments exceed CL_DEVICE_LOCAL_MEM_SIZE).
    if (!LocalBytes.fitsIn(MaxLocal))
      return fail(CL_OUT_OF_RESOURCES,
                  "kernel '" + Info.Name + "' needs " +
                      (LocalBytes.valid() ? std::to_string(LocalBytes.value())
                                          : std::string("more than SIZE_MAX")) +
                      " bytes of local memory, more than "
                      "CL_DEVICE_LOCAL_MEM_SIZE (" +
                      std::to_string(MaxLocal) + ")",
                  context());
  }
  // CL_OUT_OF_RESOURCES if there is a failure to queue the execution
  // instance of kernel on the command-queue because of insufficient
  // resources needed to execute the kernel (here: a stack frame beyond what
  // a thread or fiber may reserve).
  if (Frame > MaxKernelStack)
    return fail(CL_OUT_OF_RESOURCES,
                "kernel '" + Info.Name + "' needs " + std::to_string(Frame) +
                    " bytes of stack per call, more than the " +
                    std::to_string(MaxKernelStack) + " a thread may reserve",
                context());
  if (J.CheckBounds) {
    // Bounds-check mode: the bytes each pointer argument may reach
    // (WorkGroupContext::ArgExtents).
    L->Blocks.push_back(alignedBlock(Args.size() * sizeof(uint64_t)));
    auto *Extents = reinterpret_cast<uint64_t *>(L->Blocks.back().get());
    std::unique_lock<std::mutex> G;
    if (ArgsLock)
      G = std::unique_lock<std::mutex>(*ArgsLock);
    for (size_t I = 0; I < Args.size(); ++I)
      Extents[I] = argExtent(Args[I], I);
    J.Launch.ArgExtents = Extents;
  }
  // The argument pointers never move again: every run of the launch, and
  // concurrent ones, read the same block.
  J.Args = L->ArgPtrs.data();
  J.NumArgs = L->ArgPtrs.size();
  Out = std::move(L);
  return CL_SUCCESS;
}

cl_int Kernel::enqueue(CommandQueue *Q, cl_command_type Type,
                       std::shared_ptr<KernelLaunch> L, cl_uint NumEvents,
                       const cl_event *WaitList, cl_event *Event) {
  CommandQueue::CodePin Pin{L->PinFrom, &L->Exe};
  return Q->enqueue(Type, NumEvents, WaitList, Event, /*Blocking=*/false,
                    LaunchWork{std::move(L)}, Pin.Code ? &Pin : nullptr);
}

cl_int Kernel::getInfo(cl_kernel_info Param, InfoOut Out) const {
  switch (Param) {
  case CL_KERNEL_FUNCTION_NAME:
    return Out.string(Info.Name);
  case CL_KERNEL_NUM_ARGS:
    return Out.value<cl_uint>(static_cast<cl_uint>(Info.Args.size()));
  case CL_KERNEL_REFERENCE_COUNT:
    return Out.value<cl_uint>(referenceCount());
  case CL_KERNEL_CONTEXT:
    return Out.value<cl_context>(context()->handle());
  case CL_KERNEL_PROGRAM:
    return Out.value<cl_program>(Prog->handle());
  case CL_KERNEL_ATTRIBUTES:
    return Out.string(Info.Attributes);
  default:
    return unknownParam(Param, context());
  }
}

cl_int Kernel::getWorkGroupInfo(const Device *D,
                                cl_kernel_work_group_info Param,
                                InfoOut Out) const {
  switch (Param) {
  case CL_KERNEL_WORK_GROUP_SIZE:
    return Out.value<size_t>(maxWorkGroupSize(D));
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
    return Out.bytes(Info.ReqdWorkGroupSize, sizeof Info.ReqdWorkGroupSize);
  case CL_KERNEL_LOCAL_MEM_SIZE: {
    CheckedSize N = Info.LocalMemSize;
    std::lock_guard<std::mutex> G(Lock);
    for (const ArgValue &V : State.Args)
      N += V.LocalSize;
    // Sizes past what a size_t holds (the application's __local sizes) are
    // reported as the largest value: the launch will be refused anyway.
    return Out.value<cl_ulong>(N.valid() ? N.value() : ~cl_ulong(0));
  }
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return Out.value<size_t>(16);
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    // The work-group function's fixed-size stack allocations.
    return Out.value<cl_ulong>(Info.PrivateMemSize);
  case CL_KERNEL_GLOBAL_WORK_SIZE:
    // CL_INVALID_VALUE if param_name is CL_KERNEL_GLOBAL_WORK_SIZE and device
    // is not a custom device and kernel is not a built-in kernel.
    return fail(CL_INVALID_VALUE,
                "CL_KERNEL_GLOBAL_WORK_SIZE is only for built-in kernels",
                context());
  default:
    return unknownParam(Param, context());
  }
}

cl_int Kernel::getSubGroupInfo(const Device *D, cl_kernel_sub_group_info Param,
                               size_t InputSize, const void *Input,
                               size_t ParamValueSize, void *ParamValue,
                               size_t *ParamValueSizeRet) const {
  // Sub-group i of a work-group holds linear local ids [i * S, (i + 1) * S)
  // (compiler/WorkGroupContext.h); the same for every kernel.
  const size_t S = subGroupSize();
  InfoOut Out(ParamValueSize, ParamValue, ParamValueSizeRet);
  switch (Param) {
  case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
  case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
    // CL_INVALID_VALUE if param_name is
    // CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
    // CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE or
    // CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT and the size in bytes specified
    // by input_value_size is not valid or if input_value is NULL.
    // ("The input_value must be an array of size_t values corresponding to
    // the local work size parameter of the intended dispatch. The number of
    // dimensions in the ND-range will be inferred from the value specified
    // for input_value_size.")
    if (!Input)
      return fail(CL_INVALID_VALUE, "input_value is NULL", context());
    if (InputSize == 0 || InputSize % sizeof(size_t) != 0 ||
        InputSize / sizeof(size_t) > 3)
      return fail(CL_INVALID_VALUE,
                  "input_value_size " + std::to_string(InputSize) +
                      " is not 1, 2 or 3 size_t values",
                  context());
    size_t Local[3] = {1, 1, 1};
    std::memcpy(Local, Input, InputSize);
    size_t Total = Local[0] * Local[1] * Local[2];
    // A local size of 0 has no sub-group.
    if (Param == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE)
      return Out.value<size_t>(std::min(Total, S));
    return Out.value<size_t>((Total + S - 1) / S);
  }
  case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
    // CL_INVALID_VALUE if param_name is ...
    // CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT and the size in bytes specified
    // by input_value_size is not valid or if input_value is NULL. (The input is
    // one size_t: the sub-group count.)
    if (!Input)
      return fail(CL_INVALID_VALUE, "input_value is NULL", context());
    if (InputSize != sizeof(size_t))
      return fail(CL_INVALID_VALUE,
                  "input_value_size " + std::to_string(InputSize) +
                      " is not sizeof(size_t)",
                  context());
    size_t Count;
    std::memcpy(&Count, Input, sizeof Count);
    // "Other dimensions inferred from the value specified for
    // param_value_size will be filled with the value 1."
    size_t Dims = std::clamp<size_t>(ParamValueSize / sizeof(size_t), 1, 3);
    std::vector<size_t> R(Dims, 1);
    // "Any returned work-group will have one dimension. ... The returned
    // value will produce an exact number of sub-groups ... If no work-group
    // size can accommodate the requested number of sub-groups, 0 will be
    // returned in each element of the return array."
    size_t MaxItems[3] = {0, 0, 0};
    D->getInfo(CL_DEVICE_MAX_WORK_ITEM_SIZES,
               InfoOut(sizeof MaxItems, MaxItems, nullptr));
    size_t Max = std::min(MaxItems[0], maxWorkGroupSize(D));
    if (Count == 0 || Count > Max / S)
      std::fill(R.begin(), R.end(), 0);
    else
      R[0] = Count * S;
    return Out.array(R);
  }
  case CL_KERNEL_MAX_NUM_SUB_GROUPS:
    // "the maximal number of sub-groups that can make up each work-group"
    return Out.value<size_t>((maxWorkGroupSize(D) + S - 1) / S);
  case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
    // "If the sub-group count is not specified then 0 is returned": OpenCL C
    // has no attribute for it (SPIR-V's SubgroupsPerWorkgroup).
    return Out.value<size_t>(0);
  default:
    return unknownParam(Param, context());
  }
}

cl_int Kernel::getArgInfo(cl_uint Index, cl_kernel_arg_info Param,
                          InfoOut Out) const {
  // CL_INVALID_ARG_INDEX if arg_index is not a valid argument index.
  if (Index >= Info.Args.size())
    return fail(CL_INVALID_ARG_INDEX, "arg_index is not a valid argument index",
                context());
  // CL_KERNEL_ARG_INFO_NOT_AVAILABLE if the argument information is not
  // available for kernel.
  if (!Info.ArgInfoAvailable)
    return fail(CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
                "the program was not built with -cl-kernel-arg-info",
                context());
  const compiler::ArgInfo &A = Info.Args[Index];
  switch (Param) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER: {
    cl_kernel_arg_address_qualifier Q = CL_KERNEL_ARG_ADDRESS_PRIVATE;
    if (A.AddressSpace == compiler::ArgGlobal)
      Q = CL_KERNEL_ARG_ADDRESS_GLOBAL;
    else if (A.AddressSpace == compiler::ArgConstant)
      Q = CL_KERNEL_ARG_ADDRESS_CONSTANT;
    else if (A.AddressSpace == compiler::ArgLocal)
      Q = CL_KERNEL_ARG_ADDRESS_LOCAL;
    return Out.value(Q);
  }
  case CL_KERNEL_ARG_ACCESS_QUALIFIER: {
    cl_kernel_arg_access_qualifier Q = CL_KERNEL_ARG_ACCESS_NONE;
    if (A.AccessQual == "read_only")
      Q = CL_KERNEL_ARG_ACCESS_READ_ONLY;
    else if (A.AccessQual == "write_only")
      Q = CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
    else if (A.AccessQual == "read_write")
      Q = CL_KERNEL_ARG_ACCESS_READ_WRITE;
    return Out.value(Q);
  }
  case CL_KERNEL_ARG_TYPE_NAME:
    return Out.string(A.TypeName);
  case CL_KERNEL_ARG_TYPE_QUALIFIER: {
    cl_kernel_arg_type_qualifier Q = CL_KERNEL_ARG_TYPE_NONE;
    auto Has = [&](const char *W) {
      return A.TypeQual.find(W) != std::string::npos;
    };
    if (Has("const") || A.AddressSpace == compiler::ArgConstant)
      Q |= CL_KERNEL_ARG_TYPE_CONST;
    if (Has("volatile"))
      Q |= CL_KERNEL_ARG_TYPE_VOLATILE;
    if (Has("restrict"))
      Q |= CL_KERNEL_ARG_TYPE_RESTRICT;
    if (Has("pipe"))
      Q |= CL_KERNEL_ARG_TYPE_PIPE;
    return Out.value(Q);
  }
  case CL_KERNEL_ARG_NAME:
    return Out.string(A.Name);
  default:
    return unknownParam(Param, context());
  }
}

} // namespace clcpu
