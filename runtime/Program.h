#ifndef CLCPU_RUNTIME_PROGRAM_H
#define CLCPU_RUNTIME_PROGRAM_H

// Program objects (OpenCL 3.0 API spec, 5.8 "Program Objects"): created from
// OpenCL C source, built in process by compiler/ (Clang + ORC JIT).

#include "compiler/Compiler.h"
#include "runtime/Info.h"
#include "runtime/Object.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace clcpu {

using ProgramNotifyFn = void(CL_CALLBACK *)(cl_program, void *);

/// A program: its source, the result of the last build (one build serves
/// every device of the context: they are all the same host CPU), and the
/// number of kernel objects attached. Holds a driver reference on its
/// context. Thread-safe: `Lock` guards the build state; a build runs outside
/// the lock, with `Building` set.
class Program : public Object<Program, _cl_program, ObjectKind::Program> {
public:
  /// \p FromSource: created by clCreateProgramWithSource (else by
  /// clLinkProgram).
  Program(Context *Ctx, std::string Source, bool FromSource = true);
  ~Program() override;

  Context *context() const { return Ctx; }
  /// The source (immutable; empty for linked programs).
  const std::string &source() const { return Source; }
  bool hasDevice(const Device *D) const;

  /// clBuildProgram after the argument checks: synchronous; returns
  /// CL_SUCCESS, CL_INVALID_OPERATION (build running or kernels attached),
  /// CL_INVALID_BUILD_OPTIONS or CL_BUILD_PROGRAM_FAILURE.
  cl_int build(const char *Options);
  /// clCompileProgram after the argument checks: synchronous; the result is
  /// a compiled object. CL_SUCCESS, CL_INVALID_OPERATION,
  /// CL_INVALID_COMPILER_OPTIONS or CL_COMPILE_PROGRAM_FAILURE.
  cl_int compile(const char *Options,
                 const std::vector<compiler::Header> &Headers);
  /// clLinkProgram after the argument checks: a new program in \p Out (also
  /// on CL_LINK_PROGRAM_FAILURE, so its log can be read).
  static cl_int link(Context *Ctx, const char *Options,
                     const std::vector<Program *> &Inputs, Program *&Out);

  /// The last successful build, or nullptr.
  std::shared_ptr<const compiler::CompiledProgram> executable() const;

  /// Kernel objects attached (clBuildProgram fails while there are any).
  void kernelAttached() { ++Kernels; }
  void kernelDetached() { --Kernels; }

  cl_int getInfo(cl_program_info Param, InfoOut Out) const;
  cl_int getBuildInfo(cl_program_build_info Param, InfoOut Out) const;

private:
  Context *Ctx;
  std::string Source;
  bool FromSource;
  std::atomic<int> Kernels{0};
  mutable std::mutex Lock; // guards everything below
  bool Building = false;
  cl_build_status Status = CL_BUILD_NONE;
  std::string Options;
  std::string Log;
  std::shared_ptr<const compiler::CompiledProgram> Exe;
  std::string Object; // compiled object or library (LLVM bitcode)
  cl_program_binary_type ObjectType = CL_PROGRAM_BINARY_TYPE_NONE;

  /// Marks a build/compile as running; fails if one is or kernels exist.
  cl_int begin(const std::string &Opts);
};

} // namespace clcpu

#endif
