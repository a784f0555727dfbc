//===- compiler/WorkGroupFunction.h - kernels to work-group functions -----===//
//
// What compiler/Pipeline.cpp needs from compiler/WorkGroupFunction.cpp.

#ifndef CLCPU_COMPILER_WORK_GROUP_FUNCTION_H
#define CLCPU_COMPILER_WORK_GROUP_FUNCTION_H

#include "compiler/Compiler.h"
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/IRBuilder.h>

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
/// Clang emits them on this target), or a module-scope local-memory
/// variable of a SPIR-V module (WorkGroupVariableMetadata), which belongs to
/// every kernel that uses it.
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

/// Creates `wg_<Name>` for \p Kernel (its target and
/// floating-point attributes), loads the kernel's arguments into
/// \p CallArgs followed by the WorkGroupContext pointer, and leaves \p B at
/// the end of the entry block.
llvm::Function *
beginWorkGroupFunction(llvm::Module &M, llvm::Function &Kernel,
                       const std::string &Name, llvm::IRBuilder<> &B,
                       llvm::SmallVectorImpl<llvm::Value *> &CallArgs);

/// The index i when \p V is a kernel argument's value in a work-group
/// function whose first parameter is \p Args, `load (load (Args + 8 * i))`
/// (beginWorkGroupFunction); -1 otherwise.
int argumentIndex(const llvm::Value *V, const llvm::Argument *Args,
                  const llvm::DataLayout &DL);

/// The group's local sizes from \p Ctx (constant 1
/// where \p K's reqd_work_group_size says 1).
void loadLocalSize(llvm::IRBuilder<> &B, llvm::Value *Ctx, llvm::Value *Size[3],
                   const KernelInfo &K);

/// Loops z, y, x over the local ids [0, Size[d])
/// at \p B (x innermost), with \p EmitBody's code in the x-loop; returns the
/// x-loop's latch and leaves \p B after the loops.
llvm::BranchInst *
emitLocalIdLoops(llvm::IRBuilder<> &B, llvm::Value *const Size[3],
                 llvm::function_ref<void(llvm::IRBuilder<> &, llvm::Value *,
                                         llvm::Value *, llvm::Value *)>
                     EmitBody);

/// Work-items per vector register of 32-bit lanes on
/// \p Kernel's target.
unsigned workItemLanes(const llvm::Function &Kernel);
/// The width for \p Kernel's work-item x-loops: workItemLanes, or, where
/// its reqd_work_group_size fixes an x extent below that, the largest
/// power of two within the extent (\p Capped set).
unsigned xLoopLanes(const llvm::Function &Kernel, bool &Capped);

} // namespace clcpu::compiler

#endif
