#ifndef CLCPU_RUNTIME_KERNEL_H
#define CLCPU_RUNTIME_KERNEL_H

// Kernel objects (OpenCL 3.0 API spec, 5.9 "Kernel Objects") and their
// execution (5.10 "Executing Kernels").

#include "compiler/Compiler.h"
#include "runtime/Info.h"
#include "runtime/Mem.h"
#include "runtime/Object.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

namespace clcpu {

class CommandQueue;

/// One launch of a kernel, ready to run: the work-group function, the
/// arguments packed as the kernel's ABI wants them, the NDRange and its
/// work-group plan, the memory objects it holds (runtime/Kernel.cpp).
/// Immutable once made, so a command-buffer runs it at every replay, also
/// from several replays at once.
struct KernelLaunch;
/// Runs every work-group of \p L and returns when all have finished (and,
/// for a kernel that enqueues, every child it enqueued).
cl_int runLaunch(const KernelLaunch &L);
/// Largest work-group kernel \p Info runs with on \p D.
size_t maxWorkGroupSizeOf(const compiler::KernelInfo &Info, const Device *D);

/// A kernel of a built program plus its argument values. Holds a driver
/// reference on its program (and through it on the JIT'd code). Thread-safe:
/// `Lock` guards the argument values; a launch copies them.
class Kernel : public Object<Kernel, _cl_kernel, ObjectKind::Kernel> {
public:
  /// One argument's value, as clSetKernelArg or clSetKernelArgSVMPointer
  /// set it.
  struct ArgValue {
    bool Set = false;
    std::vector<unsigned char> Bytes; // private arguments
    // Buffers (may be null). Only the handle: setting an argument does not
    // keep the memory object alive (its destructor callbacks run once the
    // application releases it, CTS test_api/retain_mem_object_set_kernel_arg);
    // a launch resolves it and holds it until the command finishes.
    cl_mem Buffer = nullptr;
    size_t LocalSize = 0;   // __local arguments
    void *SvmPtr = nullptr; // clSetKernelArgSVMPointer
  };
  /// What a launch takes from the kernel object: the argument values and
  /// the execution information. A kernel has its own; a mutable-dispatch
  /// (runtime/MutableCommand.h) a copy that clUpdateMutableCommandsKHR
  /// changes.
  struct ArgState {
    std::vector<ArgValue> Args;
    std::vector<void *> SvmPtrs; // CL_KERNEL_EXEC_INFO_SVM_PTRS
    bool FineGrainSystem = true; // CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM
    /// True if every argument has a value (else \p Missing is the first
    /// one).
    bool complete(cl_uint &Missing) const;
  };

  Kernel(Program *P, std::shared_ptr<const compiler::CompiledProgram> Exe,
         const compiler::KernelInfo &Info);
  ~Kernel() override;

  Program *program() const { return Prog; }
  Context *context() const;
  const compiler::KernelInfo &info() const { return Info; }

  /// clSetKernelArg after the handle check.
  cl_int setArg(cl_uint Index, size_t Size, const void *Value);
  /// clSetKernelArgSVMPointer after the handle check: any pointer is valid
  /// (the device supports fine-grain system SVM).
  cl_int setArgSvm(cl_uint Index, const void *Ptr);
  /// clSetKernelExecInfo after the handle check.
  cl_int setExecInfo(cl_kernel_exec_info Param, size_t Size, const void *Value);
  /// clSetKernelArg's checks: \p V is the value it would set.
  cl_int checkArg(cl_uint Index, size_t Size, const void *Value,
                  ArgValue &V) const;
  /// clSetKernelArgSVMPointer's checks: \p V is the value it would set.
  cl_int checkArgSvm(cl_uint Index, const void *Ptr, ArgValue &V) const;
  /// clSetKernelExecInfo's checks, then the information set into \p S.
  cl_int setExecInfoIn(ArgState &S, cl_kernel_exec_info Param, size_t Size,
                       const void *Value) const;
  /// A copy of the argument values and execution information now.
  ArgState argState() const;
  /// clCloneKernel: a new kernel object with \p Src's argument values and
  /// execution information.
  static Kernel *clone(const Kernel &Src);
  /// True if every argument has a value (else \p Missing is the first one).
  bool argsComplete(cl_uint &Missing) const;

  /// Largest work-group this kernel runs with on \p D.
  size_t maxWorkGroupSize(const Device *D) const;
  /// Bytes of stack one call of the work-group function takes: its frame as
  /// generated, or its fixed-size allocas where the frame is not known.
  size_t stackFrame() const {
    return std::max(Info.StackFrameSize, Info.PrivateMemSize);
  }
  /// Picks a local size for a NULL local_work_size: divides the global size,
  /// prefers multiples of 16 in dimension 0, stays within \p MaxTotal.
  /// \p Regions: the kernel runs as barrier regions (its scratch grows with
  /// the group).
  static void chooseLocalSize(LaunchDescription &R, size_t MaxTotal,
                              unsigned Threads, bool PerWorkItem,
                              bool Regions = false);

  /// The launch of every work-group of \p R (the sizes clEnqueueNDRangeKernel
  /// checked, every dimension filled) on \p Q's device and executor with the
  /// current argument values (a snapshot: clSetKernelArg later does not
  /// change it); adds the device's sub-group size and the streaming
  /// arguments.
  ///
  /// How a launch keeps its code loaded: its own reference (a launch that
  /// may run again: command-buffers), or the one `enqueue` takes through
  /// its queue (CommandQueue::CodePin; clEnqueueNDRangeKernel).
  enum class CodeRef { Own, ByQueue };
  cl_int prepare(CommandQueue *Q, const LaunchDescription &R,
                 std::shared_ptr<KernelLaunch> &Out,
                 CodeRef How = CodeRef::Own);
  /// prepare with the argument values of \p S (complete) instead of the
  /// kernel's: a mutable-dispatch's launch.
  cl_int prepare(CommandQueue *Q, const LaunchDescription &R, const ArgState &S,
                 std::shared_ptr<KernelLaunch> &Out) const;
  /// Schedules the launch \p L (made by prepare for \p Q) on \p Q; it
  /// drops its memory objects once it ran. Its kernel must still exist
  /// during the call (CodeRef::ByQueue reads the kernel's reference).
  static cl_int enqueue(CommandQueue *Q, cl_command_type Type,
                        std::shared_ptr<KernelLaunch> L, cl_uint NumEvents,
                        const cl_event *WaitList, cl_event *Event);

  cl_int getInfo(cl_kernel_info Param, InfoOut Out) const;
  cl_int getWorkGroupInfo(const Device *D, cl_kernel_work_group_info Param,
                          InfoOut Out) const;
  cl_int getArgInfo(cl_uint Index, cl_kernel_arg_info Param, InfoOut Out) const;
  /// clGetKernelSubGroupInfo after the kernel and device checks (5.9.4).
  cl_int getSubGroupInfo(const Device *D, cl_kernel_sub_group_info Param,
                         size_t InputSize, const void *Input,
                         size_t ParamValueSize, void *ParamValue,
                         size_t *ParamValueSizeRet) const;

private:
  /// prepare with the argument values \p Args, read under \p ArgsLock
  /// (null: \p Args is the caller's own copy).
  cl_int prepareWith(CommandQueue *Q, const LaunchDescription &R,
                     const std::vector<ArgValue> &Args, std::mutex *ArgsLock,
                     std::shared_ptr<KernelLaunch> &Out,
                     CodeRef How = CodeRef::Own) const;
  /// Bounds-check mode: the bytes argument \p Index, of value \p V, may
  /// reach (WorkGroupContext::ArgExtents). Its lock held.
  uint64_t argExtent(const ArgValue &V, size_t Index) const;

  Program *Prog;
  std::shared_ptr<const compiler::CompiledProgram> Exe;
  const compiler::KernelInfo &Info;
  mutable std::mutex Lock; // guards State
  ArgState State;
};

} // namespace clcpu

#endif
