#ifndef CLCPU_RUNTIME_MEM_H
#define CLCPU_RUNTIME_MEM_H

// Memory objects (OpenCL 3.0 API spec, 5.2 "Buffer Objects", 5.3 "Image
// Objects", 5.4 "Pipes" and 5.5 "Memory Objects"): buffers, sub-buffers,
// images (whose descriptor and coordinate rules are in runtime/Image.h) and
// pipes.

#include "runtime/CheckedMath.h"
#include "runtime/Info.h"
#include "runtime/Object.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace clcpu {

using MemDestructorFn = void(CL_CALLBACK *)(cl_mem, void *);
struct ImageDesc;

/// A buffer, sub-buffer, image or pipe. The bytes live in host memory: the
/// application's own memory for CL_MEM_USE_HOST_PTR (zero copy), otherwise
/// an allocation aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN. A sub-buffer is a
/// window into its parent and holds a driver reference on it; so does an
/// image created from a buffer or from another image (it uses their bytes).
/// Every memory object holds one on its context. Thread-safe: immutable after
/// creation except the reference counts, the map records and the destructor
/// callbacks, which have their own mutex.
class Mem : public Object<Mem, _cl_mem, ObjectKind::Mem> {
public:
  /// Base alignment of every allocation, in bytes
  /// (CL_DEVICE_MEM_BASE_ADDR_ALIGN is this in bits); sub-buffer origins must
  /// be multiples of it.
  static constexpr size_t BaseAlign = 128;

  /// Checks the clCreateBuffer arguments against context \p Ctx and creates
  /// the buffer (one application reference). \p Props is the property list
  /// as given to clCreateBufferWithProperties (empty if NULL or
  /// clCreateBuffer).
  static cl_int createBuffer(Context *Ctx, cl_mem_flags Flags, size_t Size,
                             void *HostPtr,
                             std::vector<cl_mem_properties> Props, Mem *&Out);
  /// Checks the clCreateImage arguments against context \p Ctx and creates
  /// the image (runtime/Image.cpp). \p Props as for createBuffer.
  /// \p LegacyPitch: the clCreateImage2D/3D rules, under which a pitch that
  /// breaks the rules is CL_INVALID_IMAGE_SIZE, not
  /// CL_INVALID_IMAGE_DESCRIPTOR.
  static cl_int createImage(Context *Ctx, cl_mem_flags Flags,
                            const cl_image_format *Format,
                            const cl_image_desc *Desc, void *HostPtr,
                            std::vector<cl_mem_properties> Props,
                            bool LegacyPitch, Mem *&Out);
  /// Checks the clCreatePipe arguments (but properties) against context
  /// \p Ctx and creates the pipe: its bytes are the ring of
  /// builtins/PipeLayout.h, initialized empty.
  static cl_int createPipe(Context *Ctx, cl_mem_flags Flags, cl_uint PacketSize,
                           cl_uint MaxPackets, Mem *&Out);
  /// clCreateSubBuffer of this buffer with a CL_BUFFER_CREATE_TYPE_REGION.
  cl_int createSubBuffer(cl_mem_flags Flags, const cl_buffer_region &Region,
                         Mem *&Out);

  ~Mem() override;

  /// Base address of the object's bytes (for a sub-buffer: parent + offset).
  void *data() const { return Data; }
  size_t size() const { return Size; }
  /// The flags as the application gave them (plus, for a sub-buffer, those
  /// inherited from the parent): what CL_MEM_FLAGS reports.
  cl_mem_flags flags() const { return Flags; }
  Context *context() const { return Ctx; }
  Mem *parent() const { return Parent; }
  size_t offset() const { return Offset; }
  bool isSubBuffer() const { return Parent && !Image; }
  /// The image descriptor, or null for a buffer.
  const ImageDesc *image() const { return Image.get(); }
  bool isImage() const { return Image != nullptr; }
  /// A pipe is a memory object that no buffer command or buffer kernel
  /// argument accepts, and that only a pipe kernel argument does.
  bool isPipe() const { return PipePacketSize != 0; }

  /// Host-access rules of CL_MEM_HOST_{READ,WRITE}_ONLY / HOST_NO_ACCESS.
  bool hostMayRead() const {
    return !(Flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS));
  }
  bool hostMayWrite() const {
    return !(Flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
  }

  /// clSetMemObjectDestructorCallback: run in reverse order of registration
  /// just before the memory is freed.
  void addDestructorCallback(MemDestructorFn Fn, void *UserData);

  /// clEnqueueMapBuffer: records one mapping of [Off, Off+Len) and returns the
  /// pointer into the buffer (zero copy, constant time).
  void *map(size_t Off, size_t Len);
  /// clEnqueueUnmapMemObject: forgets one mapping returned at \p Ptr; false
  /// if \p Ptr is not a live mapping of this object.
  bool unmap(void *Ptr);
  cl_uint mapCount() const;

  cl_int getInfo(cl_mem_info Param, InfoOut Out) const;
  /// clGetPipeInfo of a pipe.
  cl_int getPipeInfo(cl_pipe_info Param, InfoOut Out) const;

  /// The smallest CL_DEVICE_MAX_MEM_ALLOC_SIZE is enough: larger sizes are
  /// invalid "for all devices in context" only above the largest one.
  static cl_ulong maxAllocSize(const Context *Ctx);

private:
  Mem(Context *Ctx, Mem *Parent, cl_mem_flags Flags, size_t Size, size_t Offset,
      void *Data, bool Owned, void *HostPtr,
      std::vector<cl_mem_properties> Props);

  /// Allocates \p Size bytes for a new object of \p Ctx (mmap from
  /// MmapThreshold on, NUMA-placed); null on failure. Freed by ~Mem when
  /// Owned.
  static void *allocate(Context *Ctx, size_t Size);
  /// The CL_INVALID_HOST_PTR rule clCreateBuffer and clCreateImage share:
  /// a host_ptr exactly when CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR.
  static cl_int checkHostPtr(Context *Ctx, cl_mem_flags Flags, void *HostPtr);
  /// Frees what allocate returned for \p Ctx: a large mapping goes to the
  /// page recycler (runtime/PageRecycler.h) for the next one of its size.
  static void deallocate(Context *Ctx, void *Data, size_t Size);

  Context *Ctx;
  Mem *Parent;
  cl_mem_flags Flags;
  size_t Size;
  size_t Offset;
  void *Data;
  bool Owned;    // Data was allocated by us (and is freed by us)
  void *HostPtr; // CL_MEM_HOST_PTR
  std::vector<cl_mem_properties> Props;
  std::shared_ptr<const ImageDesc> Image; // set once by createImage
  cl_uint PipePacketSize = 0;             // not 0 for a pipe
  cl_uint PipeMaxPackets = 0;

  mutable std::mutex Lock; // guards Maps, MapCount and DestructorCallbacks
  std::unordered_map<void *, cl_uint> Maps;
  cl_uint MapCount = 0;
  std::vector<std::pair<MemDestructorFn, void *>> DestructorCallbacks;
};

/// A driver reference on a memory object, for a command's lifetime. Copyable
/// so it can live inside a std::function.
class MemRef {
public:
  MemRef() = default;
  explicit MemRef(Mem *M) : M(M) {
    if (M)
      M->retainInternal();
  }
  MemRef(const MemRef &O) : MemRef(O.M) {}
  MemRef(MemRef &&O) noexcept : M(std::exchange(O.M, nullptr)) {}
  MemRef &operator=(MemRef O) {
    std::swap(M, O.M);
    return *this;
  }
  ~MemRef() {
    if (M)
      M->releaseInternal();
  }
  Mem *get() const { return M; }
  Mem *operator->() const { return M; }

private:
  Mem *M = nullptr;
};

//===----------------------------------------------------------------------===//
// Argument checks and byte movers shared by the buffer commands; plain
// functions so they are unit-testable without a queue.
//===----------------------------------------------------------------------===//

/// The bytes of a pipe of \p MaxPackets packets of \p PacketSize bytes
/// (builtins/PipeLayout.h); invalid if that overflows.
CheckedSize pipeBytes(cl_uint PacketSize, cl_uint MaxPackets);

/// Checks the clCreateBuffer flags alone (conflicts, unknown bits).
cl_int checkBufferFlags(cl_mem_flags Flags, Context *Ctx = nullptr);

/// One side of a rectangular copy: origin in bytes/rows/slices and pitches.
/// `resolve` applies the spec's defaults (0 pitch = tightly packed) and
/// checks the pitch rules; `extent` is one past the last byte touched,
/// computed with overflow checks (the origin and pitches are the
/// application's). copyRect and rectsOverlap need a side whose extent is
/// valid.
struct RectSide {
  size_t Origin[3];
  size_t RowPitch;
  size_t SlicePitch;

  /// \p What names the side in the failure reason ("buffer", "host", ...).
  cl_int resolve(const size_t Region[3], const char *What,
                 Context *Ctx = nullptr);
  size_t start() const {
    return Origin[2] * SlicePitch + Origin[1] * RowPitch + Origin[0];
  }
  CheckedSize extent(const size_t Region[3]) const {
    return CheckedSize(Origin[2]) * SlicePitch +
           CheckedSize(Origin[1]) * RowPitch + Origin[0] +
           CheckedSize(Region[2] - 1) * SlicePitch +
           CheckedSize(Region[1] - 1) * RowPitch + Region[0];
  }
};

/// CL_INVALID_VALUE if any region component is 0.
cl_int checkRegion(const size_t *Region, Context *Ctx = nullptr);

/// Copies a Region[0] x Region[1] x Region[2] box of bytes.
void copyRect(char *Dst, const RectSide &DstSide, const char *Src,
              const RectSide &SrcSide, const size_t Region[3]);

/// True if the bytes touched by the two boxes (absolute addresses \p A and
/// \p B as bases) intersect. Exact, row by row.
bool rectsOverlap(const char *A, const RectSide &ASide, const char *B,
                  const RectSide &BSide, const size_t Region[3]);

/// True if [A, A+N) and [B, B+N) intersect. By the distance between the
/// starts, so that no end is computed (N is the application's and A + N may
/// wrap).
inline bool rangesOverlap(const void *A, const void *B, size_t N) {
  auto X = reinterpret_cast<uintptr_t>(A), Y = reinterpret_cast<uintptr_t>(B);
  return N && (X >= Y ? X - Y : Y - X) < N;
}

/// Fills [Dst, Dst+Size) with copies of the PatternSize-byte \p Pattern.
void fillPattern(void *Dst, size_t Size, const void *Pattern,
                 size_t PatternSize);

/// A fill pattern size is one of 1, 2, 4, ..., 128.
inline bool validPatternSize(size_t N) {
  return N && N <= 128 && (N & (N - 1)) == 0;
}

/// clEnqueueFillBuffer / clEnqueueSVMMemFill: the pattern and its size.
cl_int checkFillPattern(const void *Pattern, size_t PatternSize,
                        Context *Ctx = nullptr);

/// clEnqueueMapBuffer / clEnqueueSVMMap map_flags check.
cl_int checkMapFlags(cl_map_flags Flags, Context *Ctx = nullptr);

} // namespace clcpu

#endif
