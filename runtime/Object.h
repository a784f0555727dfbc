#ifndef CLCPU_RUNTIME_OBJECT_H
#define CLCPU_RUNTIME_OBJECT_H

#include "icd/Dispatch.h"

#include <atomic>
#include <cstdint>
#include <type_traits>

namespace clcpu {
class Platform;
class Device;
class Context;
class CommandQueue;
class Event;
class Mem;
class Sampler;
class Program;
class Kernel;
class CommandBuffer;
class MutableCommand;

/// The context whose pfn_notify hears about errors of the entry point running
/// on this thread: set by the first handle that resolves to a context (see
/// Object::fromHandle), cleared by apiCall. Lets fail() reach the
/// application's callback without every check naming the context.
void noteErrorContext(Context *C);

/// Tags that tell handle kinds apart; a handle of the wrong kind, a stray
/// pointer into one of our objects or a destroyed object fails the check.
enum class ObjectKind : std::uint32_t {
  Platform = 0x504c4154,       // "PLAT"
  Device = 0x44455643,         // "DEVC"
  Context = 0x43545854,        // "CTXT"
  Queue = 0x51554555,          // "QUEU"
  Event = 0x4556454e,          // "EVEN"
  Mem = 0x4d454d4f,            // "MEMO"
  Sampler = 0x53414d50,        // "SAMP"
  Program = 0x50524f47,        // "PROG"
  Kernel = 0x4b524e4c,         // "KRNL"
  CommandBuffer = 0x434d4442,  // "CMDB"
  MutableCommand = 0x4d555443, // "MUTC"
  Dead = 0xdeadbeef,
};

/// The part of every object the application sees. The ICD loader requires
/// the dispatch pointer to be the first word; the handle is a member of the
/// object, so objects themselves are free to have virtual functions.
template <typename Obj> struct IcdHandle {
  const cl_icd_dispatch *Dispatch;
  ObjectKind Kind;
  /// The object's Object<> base (the derived object is not constructed yet
  /// when the base sets this: Object::fromHandle casts down).
  void *Self;
};
} // namespace clcpu

struct _cl_platform_id : clcpu::IcdHandle<clcpu::Platform> {};
struct _cl_device_id : clcpu::IcdHandle<clcpu::Device> {};
struct _cl_context : clcpu::IcdHandle<clcpu::Context> {};
struct _cl_command_queue : clcpu::IcdHandle<clcpu::CommandQueue> {};
struct _cl_event : clcpu::IcdHandle<clcpu::Event> {};
struct _cl_mem : clcpu::IcdHandle<clcpu::Mem> {};
struct _cl_sampler : clcpu::IcdHandle<clcpu::Sampler> {};
struct _cl_program : clcpu::IcdHandle<clcpu::Program> {};
struct _cl_kernel : clcpu::IcdHandle<clcpu::Kernel> {};
// cl_khr_command_buffer: not an ICD-dispatched handle (its entry points are
// found by name), but shaped like one so it checks like every other.
struct _cl_command_buffer_khr : clcpu::IcdHandle<clcpu::CommandBuffer> {};
// cl_khr_command_buffer_mutable_dispatch: the same.
struct _cl_mutable_command_khr : clcpu::IcdHandle<clcpu::MutableCommand> {};

namespace clcpu {

/// Base of every API object: the ICD handle plus two reference counts.
/// `ExternalRefs` counts the application's references (clRetain/clRelease);
/// `AllRefs` adds the driver's own (a kernel holding its program, a queue
/// its context, a sub-buffer its parent, a command its buffers). The handle
/// stays valid while any reference holds the object: the spec's implicit
/// retains keep it valid for the application too (the C++ bindings retain
/// what clGetKernelInfo(CL_KERNEL_PROGRAM) returns long after the
/// application released its own reference). CL_*_REFERENCE_COUNT reports the
/// application's references.
/// Thread-safe: counts are atomic; the object is deleted by whoever drops the
/// last reference.
template <typename Derived, typename HandleT, ObjectKind K> class Object {
public:
  using Handle = HandleT *;

  Object() {
    H.Dispatch = &icd::dispatchTable();
    H.Kind = K;
    H.Self = this;
  }
  virtual ~Object() { H.Kind = ObjectKind::Dead; }
  Object(const Object &) = delete;
  Object &operator=(const Object &) = delete;

  Handle handle() { return &H; }

  /// The object behind \p Hd if it is a live handle of this kind (held by
  /// the application or by another object); nullptr otherwise.
  static Derived *fromHandle(Handle Hd) {
    if (!Hd || Hd->Kind != K)
      return nullptr;
    Derived *D = static_cast<Derived *>(static_cast<Object *>(Hd->Self));
    if (D->AllRefs.load(std::memory_order_acquire) == 0)
      return nullptr;
    if constexpr (requires { D->context(); })
      noteErrorContext(D->context());
    else if constexpr (std::is_same_v<Derived, Context>)
      noteErrorContext(D);
    return D;
  }

  void retain() {
    ExternalRefs.fetch_add(1, std::memory_order_relaxed);
    AllRefs.fetch_add(1, std::memory_order_relaxed);
  }
  /// Drops one of the application's references. False (and nothing
  /// changes) if the application holds none: a release more than it
  /// retained must not take away a reference another object holds.
  [[nodiscard]] bool release() {
    cl_uint N = ExternalRefs.load(std::memory_order_relaxed);
    do {
      if (N == 0)
        return false;
    } while (!ExternalRefs.compare_exchange_weak(N, N - 1,
                                                 std::memory_order_acq_rel));
    if (N == 1)
      static_cast<Derived *>(this)->onLastExternalRelease();
    releaseInternal();
    return true;
  }
  void retainInternal() { AllRefs.fetch_add(1, std::memory_order_relaxed); }
  void releaseInternal() {
    if (AllRefs.fetch_sub(1, std::memory_order_acq_rel) == 1)
      delete this;
  }
  /// The count CL_*_REFERENCE_COUNT reports.
  cl_uint referenceCount() const {
    return ExternalRefs.load(std::memory_order_relaxed);
  }

protected:
  /// Hook run once when the application drops its last reference.
  void onLastExternalRelease() {}

private:
  HandleT H;
  std::atomic<cl_uint> ExternalRefs{1};
  std::atomic<cl_uint> AllRefs{1};
};

} // namespace clcpu

#endif
