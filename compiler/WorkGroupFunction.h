//===- compiler/WorkGroupFunction.h - kernels to work-group functions -----===//
//
// What compiler/Pipeline.cpp needs from compiler/WorkGroupFunction.cpp.

#ifndef CLCPU_COMPILER_WORK_GROUP_FUNCTION_H
#define CLCPU_COMPILER_WORK_GROUP_FUNCTION_H

#include "compiler/Compiler.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <string>

namespace llvm {
class Function;
class GlobalVariable;
class Module;
} // namespace llvm

namespace clcpu::compiler {

/// Whether \p F is a kernel with a body (SPIR_KERNEL calling convention).
bool isKernel(const llvm::Function &F);

/// The unmangled name of an Itanium-mangled free function
/// (`_Z13get_global_idj` → "get_global_id"); the name itself if it is not
/// mangled.
llvm::StringRef baseName(llvm::StringRef N);

/// Whether \p G is a __local variable declared in kernel \p Kernel (an
/// internal, uninitialized, writable global named "<kernel>.<var>": how
/// Clang emits them on this target).
bool isKernelLocalVariable(const llvm::GlobalVariable &G,
                           llvm::StringRef Kernel);

/// Reads \p Kernel's argument metadata into \p K and generates
/// `wg_<kernel>` for it on the path its shape allows (work-item loop,
/// barrier regions or fibers; K.Path says which). \p KernelFns: all of the
/// program's kernels (a kernel uses the __local variables of the kernels it
/// calls). False, with the reason in \p Log, if the kernel cannot be
/// compiled.
bool formWorkGroupFunction(llvm::Module &M, llvm::Function &Kernel,
                           llvm::ArrayRef<llvm::Function *> KernelFns,
                           const Options &Opts, KernelInfo &K,
                           std::string &Log);

} // namespace clcpu::compiler

#endif
