#ifndef CLCPU_COMPILER_INTERNAL_H
#define CLCPU_COMPILER_INTERNAL_H

// Interfaces between the compiler's stages (Frontend → WorkGroupFunction →
// Jit). Only the compiler's own .cpp files include this.

#include "compiler/Compiler.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Function;
class LLVMContext;
class Module;
class TargetMachine;
} // namespace llvm

namespace clcpu::compiler {

/// OpenCL C → unoptimized LLVM IR for the host, with in-process Clang.
/// nullptr on error; diagnostics (file:line:col) are appended to \p Log.
std::unique_ptr<llvm::Module> compileSource(llvm::LLVMContext &Ctx,
                                            const std::string &Source,
                                            const Options &Opts,
                                            const std::vector<Header> &Headers,
                                            std::string &Log);

/// Reads the kernels' argument metadata into \p Kernels, generates
/// `wg_<kernel>` for each and runs the optimization pipeline for \p TM.
/// False (with the reason in \p Log) if some kernel cannot be compiled.
bool lowerKernels(llvm::Module &M, llvm::TargetMachine &TM, const Options &Opts,
                  std::vector<KernelInfo> &Kernels, size_t &GlobalVarSize,
                  std::string &Log);

/// Links the builtin library functions \p M uses (builtins/, embedded
/// bitcode) into \p M. False (with the reason in \p Log) on failure.
bool linkBuiltins(llvm::Module &M, std::string &Log);

/// Barriers.cpp: replaces barrier()/work_group_barrier() and the
/// work_group_* collectives in \p Body (a kernel body whose last parameters
/// are ctx, lx, ly, lz) by calls through WorkGroupContext::Barrier and
/// ::Collective. True if there was any: the kernel must then run one fiber
/// per work-item (emitWorkItemFunction). Collectives of a type clcpu does
/// not handle (half) stay calls, reported later as unsupported builtins.
bool lowerWorkGroupSync(llvm::Function &Body);

/// Barriers.cpp: `wg_<Name>` running the one work-item at Ctx->LocalId.
void emitWorkItemFunction(llvm::Module &M, llvm::Function &Kernel,
                          llvm::Function &Body, const std::string &Name);

} // namespace clcpu::compiler

#endif
