#include "runtime/Mem.h"
#include "compiler/Binary.h"
#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/Image.h"
#include "runtime/PageRecycler.h"
#include "runtime/Svm.h"
#include "runtime/Topology.h"
#include "scheduler/PipeRing.h"

#include "builtins/PipeLayout.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace clcpu {

namespace {
constexpr cl_mem_flags AccessFlags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags HostAccessFlags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
constexpr cl_mem_flags HostPtrFlags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
// Allocations from this size on come from mmap: page aligned, zeroed lazily
// by the kernel, returned to the system on free.
constexpr size_t MmapThreshold = 1 << 20;
constexpr size_t HugePageHint = 4 << 20;

bool moreThanOne(cl_mem_flags F) { return F & (F - 1); }

/// Where the pages of a new buffer of \p Ctx go: the rule of
/// Topology::placementFor, over the CPUs of every device of the context
/// (any of them may run the kernels that use it); first touch on a machine
/// of one node.
MemoryPlacement placementOf(Context *Ctx) {
  const Topology &T = Topology::get();
  if (T.numaNodes() < 2)
    return {};
  std::vector<unsigned> Cpus;
  for (Device *D : Ctx->devices())
    Cpus.insert(Cpus.end(), D->cpus().begin(), D->cpus().end());
  return T.placementFor(Cpus);
}

/// The placement \p P as the page recycler's key: mappings are handed
/// only to buffers whose pages belong where theirs are. 0 is first touch.
uint64_t placementKey(const MemoryPlacement &P) {
  if (P.Kind == MemoryPlacement::FirstTouch)
    return 0;
  uint64_t Key = compiler::fnv1a(&P.Kind, sizeof P.Kind);
  Key = compiler::fnv1a(P.Nodes.data(), P.Nodes.size() * sizeof(unsigned), Key);
  return Key | 1;
}

/// The offset of the packets in a pipe of \p MaxPackets packets.
CheckedSize pipeDataOffset(cl_uint MaxPackets) {
  // The run records (builtins/PipeLayout.h) after the header; the packets
  // from the next multiple of CLCPU_PIPE_DATA_ALIGN.
  CheckedSize End = CheckedSize(CLCPU_PIPE_RUNS_OFFSET) +
                    CheckedSize(MaxPackets) * CLCPU_PIPE_RUN_BYTES_PER_PACKET;
  return End + (CLCPU_PIPE_DATA_ALIGN - 1);
}
} // namespace

CheckedSize pipeBytes(cl_uint PacketSize, cl_uint MaxPackets) {
  CheckedSize Offset = pipeDataOffset(MaxPackets);
  if (!Offset.valid())
    return Offset;
  size_t Aligned =
      Offset.value() / CLCPU_PIPE_DATA_ALIGN * CLCPU_PIPE_DATA_ALIGN;
  return CheckedSize(Aligned) + CheckedSize(PacketSize) * MaxPackets;
}

cl_int checkBufferFlags(cl_mem_flags Flags, Context *Ctx) {
  // CL_INVALID_VALUE if values specified in flags are not valid as defined in
  // the Memory Flags table.
  if (Flags & ~(AccessFlags | HostAccessFlags | HostPtrFlags))
    return fail(CL_INVALID_VALUE, "flags has unknown bits", Ctx);
  // (Memory Flags table) CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY and
  // CL_MEM_READ_ONLY are mutually exclusive.
  if (moreThanOne(Flags & AccessFlags))
    return fail(CL_INVALID_VALUE,
                "flags combines more than one of CL_MEM_READ_WRITE, "
                "CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY",
                Ctx);
  // CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY and CL_MEM_HOST_NO_ACCESS
  // are mutually exclusive.
  if (moreThanOne(Flags & HostAccessFlags))
    return fail(CL_INVALID_VALUE,
                "flags combines more than one of CL_MEM_HOST_WRITE_ONLY, "
                "CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_NO_ACCESS",
                Ctx);
  // CL_MEM_USE_HOST_PTR: "CL_MEM_ALLOC_HOST_PTR and CL_MEM_USE_HOST_PTR are
  // mutually exclusive"; "CL_MEM_COPY_HOST_PTR and CL_MEM_USE_HOST_PTR are
  // mutually exclusive".
  if ((Flags & CL_MEM_USE_HOST_PTR) &&
      (Flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
    return fail(CL_INVALID_VALUE,
                "CL_MEM_USE_HOST_PTR is combined with "
                "CL_MEM_ALLOC_HOST_PTR or "
                "CL_MEM_COPY_HOST_PTR",
                Ctx);
  return CL_SUCCESS;
}

cl_ulong Mem::maxAllocSize(const Context *Ctx) {
  cl_ulong Max = 0;
  for (Device *D : Ctx->devices()) {
    cl_ulong V = 0;
    D->getInfo(CL_DEVICE_MAX_MEM_ALLOC_SIZE, InfoOut(sizeof V, &V, nullptr));
    Max = std::max(Max, V);
  }
  return Max;
}

Mem::Mem(Context *C, Mem *P, cl_mem_flags F, size_t S, size_t Off, void *D,
         bool Own, void *HP, std::vector<cl_mem_properties> Pr)
    : Ctx(C), Parent(P), Flags(F), Size(S), Offset(Off), Data(D), Owned(Own),
      HostPtr(HP), Props(std::move(Pr)) {
  Ctx->retainInternal();
  if (Parent)
    Parent->retainInternal();
}

Mem::~Mem() {
  // "The registered user callback functions are called in the reverse order in
  // which they were registered. The user callback functions are called and
  // then the memory object's resources are freed".
  for (auto It = DestructorCallbacks.rbegin(); It != DestructorCallbacks.rend();
       ++It)
    It->first(handle(), It->second);
  if (Owned)
    deallocate(Ctx, Data, Size);
  if (Parent)
    Parent->releaseInternal();
  Ctx->releaseInternal();
}

void *Mem::allocate(Context *Ctx, size_t Size) {
  void *Data = nullptr;
  if (Size >= MmapThreshold) {
    MemoryPlacement P = placementOf(Ctx);
    if (void *Kept = PageRecycler::get().take(Size, placementKey(P)))
      return Kept;
    Data = mmap(nullptr, Size, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (Data == MAP_FAILED)
      return nullptr;
    if (Size >= HugePageHint)
      // Kernels stream through large buffers: 2 MiB pages cut TLB misses
      // (transparent huge pages are often enabled only on request).
      madvise(Data, Size, MADV_HUGEPAGE);
    // Before the first touch (a copy, or a kernel) decides.
    if (P.Kind != MemoryPlacement::FirstTouch &&
        !Topology::get().place(Data, Size, P))
      logLine("could not set the NUMA placement of a " + std::to_string(Size) +
              "-byte buffer; its pages follow first touch");
  } else if (posix_memalign(&Data, BaseAlign, Size) != 0) {
    Data = nullptr;
  }
  return Data;
}

void Mem::deallocate(Context *Ctx, void *Data, size_t Size) {
  if (Size >= MmapThreshold)
    // The next buffer of this size (pyopencl's temporaries, a loop's
    // scratch) takes the mapping as it is.
    PageRecycler::get().release(Data, Size, placementKey(placementOf(Ctx)));
  else
    std::free(Data);
}

cl_int Mem::checkHostPtr(Context *Ctx, cl_mem_flags Flags, void *HostPtr) {
  // CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
  // CL_MEM_COPY_HOST_PTR are set in flags or if host_ptr is not NULL but
  // CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags.
  bool WantsPtr = Flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (WantsPtr && !HostPtr)
    return fail(CL_INVALID_HOST_PTR,
                "host_ptr is NULL with CL_MEM_USE_HOST_PTR or "
                "CL_MEM_COPY_HOST_PTR",
                Ctx);
  if (!WantsPtr && HostPtr)
    return fail(CL_INVALID_HOST_PTR,
                "host_ptr is not NULL but neither CL_MEM_USE_HOST_PTR nor "
                "CL_MEM_COPY_HOST_PTR is set",
                Ctx);
  return CL_SUCCESS;
}

cl_int Mem::createBuffer(Context *Ctx, cl_mem_flags Flags, size_t Size,
                         void *HostPtr, std::vector<cl_mem_properties> Props,
                         Mem *&Out) {
  if (cl_int Err = checkBufferFlags(Flags, Ctx))
    return Err;
  // CL_INVALID_BUFFER_SIZE if size is 0, or if size is greater than
  // CL_DEVICE_MAX_MEM_ALLOC_SIZE value specified in the Device Queries table
  // for all devices in context.
  if (Size == 0)
    return fail(CL_INVALID_BUFFER_SIZE, "size is 0", Ctx);
  if (Size > maxAllocSize(Ctx))
    return fail(CL_INVALID_BUFFER_SIZE,
                "size " + std::to_string(Size) +
                    " exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE",
                Ctx);
  if (cl_int Err = checkHostPtr(Ctx, Flags, HostPtr))
    return Err;

  // CL_INVALID_HOST_PTR if ... host_ptr is not NULL but [it does not point
  // to size bytes]: a range that wraps around the address space cannot.
  if (HostPtr && hostRangeWraps(HostPtr, Size))
    return fail(CL_INVALID_HOST_PTR,
                "host_ptr + size wraps around the address space", Ctx);
  // CL_INVALID_BUFFER_SIZE if CL_MEM_USE_HOST_PTR is set in flags and
  // host_ptr is a pointer returned by clSVMAlloc and size is greater than
  // the size passed to clSVMAlloc.
  SvmAllocation A;
  if ((Flags & CL_MEM_USE_HOST_PTR) && svm::find(nullptr, HostPtr, &A) &&
      Size > A.Size - (static_cast<const char *>(HostPtr) -
                       static_cast<const char *>(A.Base)))
    return fail(CL_INVALID_BUFFER_SIZE,
                "size exceeds the SVM allocation host_ptr points into", Ctx);
  if (Flags & CL_MEM_USE_HOST_PTR) {
    // Zero copy: the buffer is the application's memory.
    Out = new Mem(Ctx, nullptr, Flags, Size, 0, HostPtr, false, HostPtr,
                  std::move(Props));
    return CL_SUCCESS;
  }
  void *Data = allocate(Ctx, Size);
  // CL_MEM_OBJECT_ALLOCATION_FAILURE if there is a failure to allocate memory
  // for buffer object.
  if (!Data)
    return fail(CL_MEM_OBJECT_ALLOCATION_FAILURE,
                "cannot allocate " + std::to_string(Size) + " bytes", Ctx);
  if (Flags & CL_MEM_COPY_HOST_PTR)
    std::memcpy(Data, HostPtr, Size);
  try {
    Out = new Mem(Ctx, nullptr, Flags, Size, 0, Data, true, nullptr,
                  std::move(Props));
  } catch (...) {
    deallocate(Ctx, Data, Size);
    throw;
  }
  return CL_SUCCESS;
}

cl_int Mem::createPipe(Context *Ctx, cl_mem_flags Flags, cl_uint PacketSize,
                       cl_uint MaxPackets, Mem *&Out) {
  // CL_INVALID_VALUE if values specified in flags are not as defined above:
  // "Only CL_MEM_READ_WRITE and CL_MEM_HOST_NO_ACCESS can be specified when
  // creating a pipe object" (the host pointer flags among those refused: a
  // pipe has no host pointer).
  if (Flags & ~(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS))
    return fail(CL_INVALID_VALUE,
                "flags has bits other than CL_MEM_READ_WRITE and "
                "CL_MEM_HOST_NO_ACCESS",
                Ctx);
  cl_uint MaxPacketSize = 0;
  for (Device *D : Ctx->devices()) {
    cl_uint V = 0;
    D->getInfo(CL_DEVICE_PIPE_MAX_PACKET_SIZE, InfoOut(sizeof V, &V, nullptr));
    MaxPacketSize = std::max(MaxPacketSize, V);
  }
  // CL_INVALID_PIPE_SIZE if pipe_packet_size is 0 or the pipe_packet_size
  // exceeds CL_DEVICE_PIPE_MAX_PACKET_SIZE value specified in the Device
  // Queries table for all devices in context or if pipe_max_packets is 0.
  if (PacketSize == 0)
    return fail(CL_INVALID_PIPE_SIZE, "pipe_packet_size is 0", Ctx);
  if (PacketSize > MaxPacketSize)
    return fail(CL_INVALID_PIPE_SIZE,
                "pipe_packet_size " + std::to_string(PacketSize) +
                    " exceeds CL_DEVICE_PIPE_MAX_PACKET_SIZE (" +
                    std::to_string(MaxPacketSize) + ")",
                Ctx);
  if (MaxPackets == 0)
    return fail(CL_INVALID_PIPE_SIZE, "pipe_max_packets is 0", Ctx);
  // CL_MEM_OBJECT_ALLOCATION_FAILURE if there is a failure to allocate
  // memory for the pipe object: a run's packet count shares its 32-bit word
  // with a flag (builtins/PipeLayout.h), and no allocation is larger than
  // CL_DEVICE_MAX_MEM_ALLOC_SIZE.
  if (MaxPackets > CLCPU_PIPE_MAX_CAPACITY)
    return fail(CL_MEM_OBJECT_ALLOCATION_FAILURE,
                "pipe_max_packets " + std::to_string(MaxPackets) +
                    " is more than a pipe holds (" +
                    std::to_string(CLCPU_PIPE_MAX_CAPACITY) + ")",
                Ctx);
  CheckedSize Bytes = pipeBytes(PacketSize, MaxPackets);
  if (!Bytes.fitsIn(maxAllocSize(Ctx)))
    return fail(CL_MEM_OBJECT_ALLOCATION_FAILURE,
                "a pipe of " + std::to_string(MaxPackets) + " packets of " +
                    std::to_string(PacketSize) +
                    " bytes exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE",
                Ctx);
  size_t Size = Bytes.value();
  void *Data = allocate(Ctx, Size);
  if (!Data)
    return fail(CL_MEM_OBJECT_ALLOCATION_FAILURE,
                "cannot allocate " + std::to_string(Size) + " bytes", Ctx);
  initPipeRing(Data, PacketSize, MaxPackets,
               pipeDataOffset(MaxPackets).value() / CLCPU_PIPE_DATA_ALIGN *
                   CLCPU_PIPE_DATA_ALIGN);
  try {
    Out = new Mem(Ctx, nullptr, Flags, Size, 0, Data, true, nullptr, {});
  } catch (...) {
    deallocate(Ctx, Data, Size);
    throw;
  }
  Out->PipePacketSize = PacketSize;
  Out->PipeMaxPackets = MaxPackets;
  return CL_SUCCESS;
}

cl_int Mem::createSubBuffer(cl_mem_flags F, const cl_buffer_region &Region,
                            Mem *&Out) {
  // CL_INVALID_VALUE if values specified in flags are not valid.
  if (cl_int Err = checkBufferFlags(F, Ctx))
    return Err;
  // "CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR and CL_MEM_COPY_HOST_PTR
  // values cannot be specified in flags but are inherited".
  if (F & HostPtrFlags)
    return fail(CL_INVALID_VALUE,
                "flags of a sub-buffer cannot contain CL_MEM_USE_HOST_PTR, "
                "CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR",
                Ctx);
  // CL_INVALID_VALUE if buffer was created with CL_MEM_WRITE_ONLY and flags
  // specifies CL_MEM_READ_WRITE or CL_MEM_READ_ONLY, or if buffer was created
  // with CL_MEM_READ_ONLY and flags specifies CL_MEM_READ_WRITE or
  // CL_MEM_WRITE_ONLY.
  if (((Flags & CL_MEM_WRITE_ONLY) &&
       (F & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
      ((Flags & CL_MEM_READ_ONLY) &&
       (F & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))))
    return fail(CL_INVALID_VALUE,
                "flags conflict with the parent buffer's access flags", Ctx);
  // CL_INVALID_VALUE if buffer was created with CL_MEM_HOST_WRITE_ONLY and
  // flags specify CL_MEM_HOST_READ_ONLY, or if buffer was created with
  // CL_MEM_HOST_READ_ONLY and flags specify CL_MEM_HOST_WRITE_ONLY, or if
  // buffer was created with CL_MEM_HOST_NO_ACCESS and flags specify
  // CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_WRITE_ONLY.
  if (((Flags & CL_MEM_HOST_WRITE_ONLY) && (F & CL_MEM_HOST_READ_ONLY)) ||
      ((Flags & CL_MEM_HOST_READ_ONLY) && (F & CL_MEM_HOST_WRITE_ONLY)) ||
      ((Flags & CL_MEM_HOST_NO_ACCESS) &&
       (F & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
    return fail(CL_INVALID_VALUE,
                "flags conflict with the parent buffer's host access flags",
                Ctx);
  // CL_INVALID_BUFFER_SIZE if the size field of the cl_buffer_region
  // structure passed in buffer_create_info is 0.
  if (Region.size == 0)
    return fail(CL_INVALID_BUFFER_SIZE, "region size is 0", Ctx);
  // CL_INVALID_VALUE if the region specified by the cl_buffer_region
  // structure passed in buffer_create_info is out of bounds in buffer.
  if (Region.origin > Size || Region.size > Size - Region.origin)
    return fail(CL_INVALID_VALUE, "region is out of bounds of the buffer", Ctx);
  // CL_MISALIGNED_SUB_BUFFER_OFFSET if there are no devices in context
  // associated with buffer for which the origin field of the cl_buffer_region
  // structure passed in buffer_create_info is aligned to the
  // CL_DEVICE_MEM_BASE_ADDR_ALIGN value.
  if (Region.origin % BaseAlign)
    return fail(CL_MISALIGNED_SUB_BUFFER_OFFSET,
                "origin " + std::to_string(Region.origin) +
                    " is not a multiple of " + std::to_string(BaseAlign),
                Ctx);
  // "If the CL_MEM_READ_WRITE, CL_MEM_READ_ONLY or CL_MEM_WRITE_ONLY values
  // are not specified in flags, they are inherited"; likewise the host
  // access flags; the host pointer flags always are.
  cl_mem_flags Eff = F | (Flags & HostPtrFlags);
  if (!(F & AccessFlags))
    Eff |= Flags & AccessFlags;
  if (!(F & HostAccessFlags))
    Eff |= Flags & HostAccessFlags;
  void *HP = HostPtr ? static_cast<char *>(HostPtr) + Region.origin : nullptr;
  Out = new Mem(Ctx, this, Eff, Region.size, Region.origin,
                static_cast<char *>(Data) + Region.origin, false, HP, {});
  return CL_SUCCESS;
}

void Mem::addDestructorCallback(MemDestructorFn Fn, void *UserData) {
  std::lock_guard<std::mutex> G(Lock);
  DestructorCallbacks.emplace_back(Fn, UserData);
}

void *Mem::map(size_t Off, size_t Len) {
  void *P = static_cast<char *>(Data) + Off;
  std::lock_guard<std::mutex> G(Lock);
  ++Maps[P];
  ++MapCount;
  return P;
}

bool Mem::unmap(void *Ptr) {
  std::lock_guard<std::mutex> G(Lock);
  auto It = Maps.find(Ptr);
  if (It == Maps.end())
    return false;
  if (--It->second == 0)
    Maps.erase(It);
  --MapCount;
  return true;
}

cl_uint Mem::mapCount() const {
  std::lock_guard<std::mutex> G(Lock);
  return MapCount;
}

cl_int Mem::getInfo(cl_mem_info Param, InfoOut Out) const {
  switch (Param) {
  case CL_MEM_TYPE:
    return Out.value<cl_mem_object_type>(Image      ? Image->Type
                                         : isPipe() ? CL_MEM_OBJECT_PIPE
                                                    : CL_MEM_OBJECT_BUFFER);
  case CL_MEM_FLAGS:
    return Out.value<cl_mem_flags>(Flags);
  case CL_MEM_SIZE:
    return Out.value<size_t>(Size);
  case CL_MEM_HOST_PTR:
    // "If memobj is created with clCreateBuffer ... and CL_MEM_USE_HOST_PTR is
    // specified in mem_flags, return the host_ptr argument value"; for a
    // sub-buffer "host_ptr + origin". (An image created from a memory
    // object has no host_ptr argument: NULL.)
    return Out.value<void *>(HostPtr);
  case CL_MEM_MAP_COUNT:
    return Out.value<cl_uint>(mapCount());
  case CL_MEM_REFERENCE_COUNT:
    return Out.value<cl_uint>(referenceCount());
  case CL_MEM_CONTEXT:
    return Out.value<cl_context>(Ctx->handle());
  case CL_MEM_ASSOCIATED_MEMOBJECT:
    // The parent of a sub-buffer; "the memory object specified as
    // image_desc->mem_object" of an image created from one.
    return Out.value<cl_mem>(Parent ? Parent->handle() : nullptr);
  case CL_MEM_OFFSET:
    return Out.value<size_t>(Offset);
  case CL_MEM_USES_SVM_POINTER: {
    // CL_TRUE if created with CL_MEM_USE_HOST_PTR (or a sub-buffer of such a
    // buffer) "and the host_ptr specified when the buffer object was created
    // is a SVM pointer".
    const Mem *Root = this;
    while (Root->Parent)
      Root = Root->Parent;
    bool Svm =
        (Root->Flags & CL_MEM_USE_HOST_PTR) && svm::find(Ctx, Root->HostPtr);
    return Out.value<cl_bool>(Svm ? CL_TRUE : CL_FALSE);
  }
  case CL_MEM_PROPERTIES:
    // "If the properties argument specified in clCreateBufferWithProperties
    // ... was not NULL, the implementation must return the values specified
    // in the properties argument"; otherwise param_value_size_ret 0.
    return Out.array(Props);
  default:
    return unknownParam(Param, Ctx);
  }
}

cl_int Mem::getPipeInfo(cl_pipe_info Param, InfoOut Out) const {
  switch (Param) {
  case CL_PIPE_PACKET_SIZE:
    return Out.value<cl_uint>(PipePacketSize);
  case CL_PIPE_MAX_PACKETS:
    return Out.value<cl_uint>(PipeMaxPackets);
  case CL_PIPE_PROPERTIES:
    // "If the properties argument specified in clCreatePipe used to create
    // pipe was NULL, the implementation must return a value of 0 in
    // param_value_size_ret": it always is (clCreatePipe refuses others).
    return Out.array(std::vector<cl_pipe_properties>());
  default:
    return unknownParam(Param, Ctx);
  }
}

//===----------------------------------------------------------------------===//
// Rectangles, fills and flags.
//===----------------------------------------------------------------------===//

cl_int checkRegion(const size_t *Region, Context *Ctx) {
  // CL_INVALID_VALUE if region is NULL / if any region array element is 0.
  if (!Region)
    return fail(CL_INVALID_VALUE, "region is NULL", Ctx);
  if (!Region[0] || !Region[1] || !Region[2])
    return fail(CL_INVALID_VALUE, "a region component is 0", Ctx);
  return CL_SUCCESS;
}

cl_int RectSide::resolve(const size_t Region[3], const char *What,
                         Context *Ctx) {
  std::string W = What;
  // "If <x>_row_pitch is 0, <x>_row_pitch is computed as region[0]."
  // CL_INVALID_VALUE if <x>_row_pitch is not 0 and is less than region[0].
  if (RowPitch == 0)
    RowPitch = Region[0];
  else if (RowPitch < Region[0])
    return fail(CL_INVALID_VALUE, W + "_row_pitch is less than region[0]", Ctx);
  // "If <x>_slice_pitch is 0, <x>_slice_pitch is computed as region[1] *
  // <x>_row_pitch." CL_INVALID_VALUE if <x>_slice_pitch is not 0 and is less
  // than region[1] * <x>_row_pitch and not a multiple of <x>_row_pitch.
  // The product is the application's and may not fit: a slice pitch can
  // only be below a product that does not fit.
  CheckedSize MinSlice = CheckedSize(Region[1]) * RowPitch;
  if (SlicePitch == 0) {
    if (!MinSlice.valid())
      return fail(CL_INVALID_VALUE,
                  "region[1] * " + W + "_row_pitch overflows size_t", Ctx);
    SlicePitch = MinSlice.value();
  } else if (!MinSlice.fitsIn(SlicePitch)) {
    return fail(CL_INVALID_VALUE,
                W + "_slice_pitch is less than region[1] * " + W + "_row_pitch",
                Ctx);
  } else if (SlicePitch % RowPitch) {
    return fail(CL_INVALID_VALUE,
                W + "_slice_pitch is not a multiple of " + W + "_row_pitch",
                Ctx);
  }
  return CL_SUCCESS;
}

void copyRect(char *Dst, const RectSide &D, const char *Src, const RectSide &S,
              const size_t Region[3]) {
  for (size_t Z = 0; Z < Region[2]; ++Z) {
    char *DS = Dst + D.start() + Z * D.SlicePitch;
    const char *SS = Src + S.start() + Z * S.SlicePitch;
    for (size_t Y = 0; Y < Region[1]; ++Y)
      std::memmove(DS + Y * D.RowPitch, SS + Y * S.RowPitch, Region[0]);
  }
}

bool rectsOverlap(const char *A, const RectSide &AS, const char *B,
                  const RectSide &BS, const size_t Region[3]) {
  auto AStart = reinterpret_cast<uintptr_t>(A) + AS.start();
  auto BStart = reinterpret_cast<uintptr_t>(B) + BS.start();
  uintptr_t AEnd = AStart + (AS.extent(Region).value() - AS.start());
  uintptr_t BEnd = BStart + (BS.extent(Region).value() - BS.start());
  if (AEnd <= BStart || BEnd <= AStart)
    return false;
  // Every row of A against the rows of B that can reach it: for each slice of
  // B, the rows whose start lies in (RowA - width, RowA + width).
  const size_t W = Region[0];
  for (size_t Z = 0; Z < Region[2]; ++Z)
    for (size_t Y = 0; Y < Region[1]; ++Y) {
      uintptr_t R = AStart + Z * AS.SlicePitch + Y * AS.RowPitch;
      for (size_t Z2 = 0; Z2 < Region[2]; ++Z2) {
        uintptr_t S = BStart + Z2 * BS.SlicePitch; // row 0 of slice Z2
        // Rows of this slice start at S + k * BS.RowPitch, k < Region[1];
        // row k overlaps [R, R+W) iff S + k*P < R + W and R < S + k*P + W.
        uintptr_t Lo = R + 1 > S + W ? R + 1 - W : S; // first start allowed
        if (Lo > R + W - 1)
          continue;
        size_t KMin = Lo <= S ? 0 : (Lo - S + BS.RowPitch - 1) / BS.RowPitch;
        if (KMin >= Region[1])
          continue;
        uintptr_t First = S + KMin * BS.RowPitch;
        if (First < R + W)
          return true;
      }
    }
  return false;
}

void fillPattern(void *Dst, size_t Size, const void *Pattern,
                 size_t PatternSize) {
  if (!Size)
    return;
  char *D = static_cast<char *>(Dst);
  if (PatternSize == 1) {
    std::memset(D, *static_cast<const unsigned char *>(Pattern), Size);
    return;
  }
  // Write one copy, then double the filled prefix until done.
  size_t Done = std::min(PatternSize, Size);
  std::memcpy(D, Pattern, Done);
  while (Done < Size) {
    size_t N = std::min(Done, Size - Done);
    std::memcpy(D + Done, D, N);
    Done += N;
  }
}

cl_int checkFillPattern(const void *Pattern, size_t PatternSize, Context *Ctx) {
  // CL_INVALID_VALUE if pattern is NULL or if pattern_size is 0 or if
  // pattern_size is not one of { 1, 2, 4, 8, 16, 32, 64, 128 }.
  if (!Pattern)
    return fail(CL_INVALID_VALUE, "pattern is NULL", Ctx);
  if (!validPatternSize(PatternSize))
    return fail(CL_INVALID_VALUE,
                "pattern_size " + std::to_string(PatternSize) +
                    " is not one of 1, 2, 4, ..., 128",
                Ctx);
  return CL_SUCCESS;
}

cl_int checkMapFlags(cl_map_flags Flags, Context *Ctx) {
  // CL_INVALID_VALUE if values specified in map_flags are not valid.
  if (Flags & ~(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
    return fail(CL_INVALID_VALUE, "map_flags has unknown bits", Ctx);
  // "CL_MAP_WRITE_INVALIDATE_REGION ... is mutually exclusive with CL_MAP_READ
  // or CL_MAP_WRITE."
  if ((Flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
      (Flags & (CL_MAP_READ | CL_MAP_WRITE)))
    return fail(CL_INVALID_VALUE,
                "CL_MAP_WRITE_INVALIDATE_REGION is combined "
                "with CL_MAP_READ or CL_MAP_WRITE",
                Ctx);
  return CL_SUCCESS;
}

} // namespace clcpu
