#ifndef CLCPU_RUNTIME_PROGRAM_H
#define CLCPU_RUNTIME_PROGRAM_H

// Program objects (OpenCL 3.0 API spec, 5.8 "Program Objects"): created from
// OpenCL C source, a SPIR-V module (compiler/Spirv.cpp) or a clcpu program
// binary (compiler/Binary.h), built
// in process by compiler/ (Clang + ORC JIT), with the on-disk kernel cache.

#include "compiler/Binary.h"
#include "compiler/Compiler.h"
#include "runtime/Info.h"
#include "runtime/Object.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace clcpu {

using ProgramNotifyFn = void(CL_CALLBACK *)(cl_program, void *);

/// A program: its source (or input binary), the result of the last build
/// (one build serves every device of the context: they are all the same host
/// CPU), and the number of kernel objects attached. Holds a driver reference
/// on its context. Thread-safe: `Lock` guards the build state; a build runs
/// outside the lock (on a background thread when the application passed a
/// pfn_notify), with `Building` set.
class Program : public Object<Program, _cl_program, ObjectKind::Program> {
public:
  enum class Origin { Source, IL, Binary, Linked };

  /// Created by clCreateProgramWithSource (\p O Source) or clLinkProgram
  /// (\p O Linked).
  Program(Context *Ctx, std::string Source, Origin O = Origin::Source);
  /// Created by clCreateProgramWithIL from SPIR-V module \p Il, checked by
  /// compiler::inspectSpirv (\p Info).
  Program(Context *Ctx, std::string Il, compiler::SpirvInfo Info);
  /// Created by clCreateProgramWithBinary from a checked binary, for the
  /// devices of its device_list.
  Program(Context *Ctx, compiler::BinaryContents Binary,
          std::vector<Device *> Devices);
  ~Program() override;

  Context *context() const { return Ctx; }
  /// The source (immutable; empty for linked and binary programs).
  const std::string &source() const { return Source; }
  bool hasDevice(const Device *D) const;
  const std::vector<Device *> &devices() const { return Devices; }

  /// clSetProgramSpecializationConstant after the handle check:
  /// CL_SUCCESS, CL_INVALID_PROGRAM (not an IL program), CL_INVALID_SPEC_ID
  /// or CL_INVALID_VALUE. The value applies to the next build or compile.
  cl_int setSpecConstant(cl_uint Id, size_t Size, const void *Value);

  /// clBuildProgram after the argument checks. Without \p Notify it is
  /// synchronous and returns CL_SUCCESS, CL_INVALID_OPERATION (build running
  /// or kernels attached), CL_INVALID_BUILD_OPTIONS or
  /// CL_BUILD_PROGRAM_FAILURE; with \p Notify the build runs on a background
  /// thread, which calls \p Notify when done.
  cl_int build(const char *Options, ProgramNotifyFn Notify = nullptr,
               void *User = nullptr);
  /// clCompileProgram after the argument checks (the result is a compiled
  /// object): CL_SUCCESS, CL_INVALID_OPERATION, CL_INVALID_COMPILER_OPTIONS
  /// or CL_COMPILE_PROGRAM_FAILURE; asynchronous as build() with \p Notify.
  cl_int compile(const char *Options,
                 const std::vector<compiler::Header> &Headers,
                 ProgramNotifyFn Notify = nullptr, void *User = nullptr);
  /// clLinkProgram after the argument checks: a new program in \p Out (also
  /// on CL_LINK_PROGRAM_FAILURE, so its log can be read). With \p Notify the
  /// link runs in the background and \p Out is returned at once. \p Devices
  /// (empty: the context's) become the new program's devices.
  static cl_int link(Context *Ctx, std::vector<Device *> Devices,
                     const char *Options, const std::vector<Program *> &Inputs,
                     Program *&Out, ProgramNotifyFn Notify = nullptr,
                     void *User = nullptr);

  /// The last successful build, or nullptr (also while a build runs).
  std::shared_ptr<const compiler::CompiledProgram> executable() const;
  /// The last successful build specialized for the argument values \p B
  /// of one of its kernels (compiler::ArgBindings), built at the first
  /// request and kept with the build; null if the program has no source
  /// to build again (binaries, IL, linked programs), already holds
  /// MaxSpecializations, or the build failed: the launch then runs the
  /// ordinary build. Thread-safe; the build runs outside the locks.
  std::shared_ptr<const compiler::CompiledProgram>
  specialization(const compiler::ArgBindings &B);
  /// Specializations kept per build at most (an application cycling
  /// through formats gets the ordinary build beyond them).
  static constexpr size_t MaxSpecializations = 16;
  /// The program binary (CL_PROGRAM_BINARIES) of every device; empty if
  /// there is nothing to return.
  std::string binary() const;

  /// Kernel objects attached (clBuildProgram fails while there are any).
  void kernelAttached() { ++Kernels; }
  void kernelDetached() { --Kernels; }

  cl_int getInfo(cl_program_info Param, InfoOut Out) const;
  cl_int getBuildInfo(cl_program_build_info Param, InfoOut Out) const;

  /// The compiler's settings from the configuration (cache, dumps, timing).
  static compiler::BuildSettings buildSettings();

private:
  Context *Ctx;
  /// The devices associated with the program (CL_PROGRAM_DEVICES): the
  /// context's, or the device_list of clCreateProgramWithBinary and
  /// clLinkProgram.
  std::vector<Device *> Devices;
  std::string Source;
  Origin Orig;
  std::string Il;             // Origin::IL: the module (immutable)
  compiler::SpirvInfo IlInfo; // its specialization constants
  std::vector<compiler::SpecConstantValue> Spec; // guarded by Lock
  compiler::BinaryContents Input;                // Origin::Binary
  std::atomic<int> Kernels{0};
  mutable std::mutex Lock; // guards everything below
  bool Building = false;
  cl_build_status Status = CL_BUILD_NONE;
  std::string Options;
  std::string Log;
  std::shared_ptr<const compiler::CompiledProgram> Exe;
  std::string Object; // compiled object or library (LLVM bitcode)
  /// specialization()'s builds by ArgBindings::key(), for Exe; guarded by
  /// SpecLock (taken after Lock, never before).
  std::map<std::string, std::shared_ptr<const compiler::CompiledProgram>>
      Specializations;
  mutable std::mutex SpecLock;
  cl_program_binary_type ObjectType = CL_PROGRAM_BINARY_TYPE_NONE;

  /// Marks a build/compile as running; fails if one is or kernels exist, or
  /// (\p NeedSource) if the program has no source or IL.
  cl_int begin(const std::string &Opts, bool NeedSource);
  /// The build itself (runs outside the lock, with the specialization
  /// constants \p Spec set when it began), then the new state.
  cl_int runBuild(const std::string &Opts,
                  const std::vector<compiler::SpecConstantValue> &Spec);
  cl_int runCompile(const std::string &Opts,
                    const std::vector<compiler::Header> &Headers,
                    const std::vector<compiler::SpecConstantValue> &Spec);
  /// The specialization constants set so far (for a build that begins).
  std::vector<compiler::SpecConstantValue> specSnapshot() const;
  /// Runs \p Work now, or (with \p Notify) on a background thread that then
  /// calls \p Notify; the program stays alive until then.
  cl_int dispatch(std::function<cl_int()> Work, ProgramNotifyFn Notify,
                  void *User);
};

} // namespace clcpu

#endif
