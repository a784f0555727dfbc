#include "runtime/Kernel.h"
#include "runtime/CommandQueue.h"
#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/Program.h"

#include <cstdlib>
#include <cstring>

namespace clcpu {

namespace {
constexpr size_t ArgAlign = 128; // enough for any vector type's alignment

size_t roundUp(size_t N, size_t A) { return (N + A - 1) / A * A; }

struct AlignedFree {
  void operator()(void *P) const { std::free(P); }
};
using AlignedBlock = std::unique_ptr<unsigned char, AlignedFree>;

AlignedBlock alignedBlock(size_t N) {
  void *P = std::aligned_alloc(ArgAlign, roundUp(N ? N : 1, ArgAlign));
  if (!P)
    throw std::bad_alloc();
  std::memset(P, 0, roundUp(N ? N : 1, ArgAlign));
  return AlignedBlock(static_cast<unsigned char *>(P));
}

/// Everything one launch needs, copied when it is enqueued.
struct Launch {
  std::shared_ptr<const compiler::CompiledProgram> Exe; // keeps the code
  WorkGroupFn Fn = nullptr;
  NDRange R;
  AlignedBlock Storage;             // one ArgAlign slot per argument
  std::vector<AlignedBlock> Locals; // __local blocks (one group at a time)
  AlignedBlock LocalVars;           // the kernel's __local variables
  std::vector<void *> ArgPtrs;
  std::vector<MemRef> Buffers;

  cl_int run() const {
    WorkGroupContext C{};
    size_t Groups[3];
    for (unsigned D = 0; D < 3; ++D) {
      C.LocalSize[D] = R.Local[D];
      C.GlobalOffset[D] = R.Offset[D];
      C.GlobalSize[D] = R.Global[D];
      Groups[D] = C.NumGroups[D] = R.Global[D] / R.Local[D];
    }
    C.WorkDim = R.Dims;
    C.LocalMem = LocalVars.get();
    void **Args = const_cast<void **>(ArgPtrs.data());
    for (size_t Z = 0; Z < Groups[2]; ++Z)
      for (size_t Y = 0; Y < Groups[1]; ++Y)
        for (size_t X = 0; X < Groups[0]; ++X) {
          C.GroupId[0] = X;
          C.GroupId[1] = Y;
          C.GroupId[2] = Z;
          Fn(Args, &C);
        }
    return CL_SUCCESS;
  }
};
} // namespace

Kernel::Kernel(Program *P, std::shared_ptr<const compiler::CompiledProgram> E,
               const compiler::KernelInfo &I)
    : Prog(P), Exe(std::move(E)), Info(I), Args(I.Args.size()) {
  Prog->retainInternal();
  Prog->kernelAttached();
}

Kernel::~Kernel() {
  Prog->kernelDetached();
  Prog->releaseInternal();
}

Context *Kernel::context() const { return Prog->context(); }

cl_int Kernel::setArg(cl_uint Index, size_t Size, const void *Value) {
  // CL_INVALID_ARG_INDEX if arg_index is not a valid argument index.
  if (Index >= Info.Args.size())
    return fail(CL_INVALID_ARG_INDEX,
                "arg_index " + std::to_string(Index) + " but kernel '" +
                    Info.Name + "' has " + std::to_string(Info.Args.size()) +
                    " arguments",
                context());
  const compiler::ArgInfo &A = Info.Args[Index];
  ArgValue V;
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
    if (H) {
      Mem *M = Mem::fromHandle(H);
      // CL_INVALID_MEM_OBJECT for an argument declared to be a memory object
      // when the specified arg_value is not a valid memory object.
      if (!M || M->context() != context())
        return fail(CL_INVALID_MEM_OBJECT,
                    "arg_value is not a valid memory object of the kernel's "
                    "context",
                    context());
      V.Buffer = MemRef(M);
    }
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
  std::lock_guard<std::mutex> G(Lock);
  Args[Index] = std::move(V);
  return CL_SUCCESS;
}

bool Kernel::argsComplete(cl_uint &Missing) const {
  std::lock_guard<std::mutex> G(Lock);
  for (cl_uint I = 0; I < Args.size(); ++I)
    if (!Args[I].Set) {
      Missing = I;
      return false;
    }
  return true;
}

size_t Kernel::maxWorkGroupSize(const Device *D) const {
  size_t Max = 0;
  D->getInfo(CL_DEVICE_MAX_WORK_GROUP_SIZE, InfoOut(sizeof Max, &Max, nullptr));
  return Max ? Max : 1;
}

void Kernel::chooseLocalSize(NDRange &R, size_t MaxTotal) {
  // Dimension 0 is the vectorized loop: the largest divisor of the global
  // size up to 256 (and MaxTotal), a multiple of 16 if there is one.
  size_t Limit = std::min<size_t>(MaxTotal, 256);
  size_t Best = 1, Best16 = 0;
  for (size_t L = 1; L <= Limit && L <= R.Global[0]; ++L)
    if (R.Global[0] % L == 0) {
      Best = L;
      if (L % 16 == 0)
        Best16 = L;
    }
  R.Local[0] = Best16 ? Best16 : Best;
  for (unsigned D = 1; D < 3; ++D)
    R.Local[D] = 1;
}

cl_int Kernel::enqueue(CommandQueue *Q, cl_command_type Type, const NDRange &R,
                       cl_uint NumEvents, const cl_event *WaitList,
                       cl_event *Event) {
  auto L = std::make_shared<Launch>();
  L->Exe = Exe;
  L->Fn = Info.Fn;
  L->R = R;
  L->LocalVars = alignedBlock(Info.LocalMemSize);
  {
    std::lock_guard<std::mutex> G(Lock);
    L->Storage = alignedBlock(Args.size() * ArgAlign);
    for (size_t I = 0; I < Args.size(); ++I) {
      const ArgValue &V = Args[I];
      unsigned char *Slot = L->Storage.get() + I * ArgAlign;
      void *P = nullptr;
      if (V.LocalSize) {
        L->Locals.push_back(alignedBlock(V.LocalSize));
        P = L->Locals.back().get();
        std::memcpy(Slot, &P, sizeof P);
      } else if (Info.Args[I].isPointer()) {
        if (V.Buffer.get())
          P = V.Buffer->data();
        std::memcpy(Slot, &P, sizeof P);
        L->Buffers.push_back(V.Buffer);
      } else {
        if (V.Bytes.size() > ArgAlign) {
          // Large by-value arguments get a block of their own.
          L->Locals.push_back(alignedBlock(V.Bytes.size()));
          Slot = L->Locals.back().get();
        }
        std::memcpy(Slot, V.Bytes.data(), V.Bytes.size());
      }
      L->ArgPtrs.push_back(Slot);
    }
  }
  return Q->enqueue(Type, NumEvents, WaitList, Event, /*Blocking=*/false,
                    [L]() -> cl_int {
                      cl_int Err = L->run();
                      // Drop the references before the command completes, so
                      // that the last one (which may free the JIT'd code)
                      // goes before anyone waiting on the command wakes up,
                      // never later on this worker thread.
                      L->Buffers.clear();
                      L->Exe.reset();
                      return Err;
                    });
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
    cl_ulong N = Info.LocalMemSize;
    std::lock_guard<std::mutex> G(Lock);
    for (const ArgValue &V : Args)
      N += V.LocalSize;
    return Out.value<cl_ulong>(N);
  }
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return Out.value<size_t>(16);
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    return Out.value<cl_ulong>(0);
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
