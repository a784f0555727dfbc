#ifndef CLCPU_COMPILER_INTERNAL_H
#define CLCPU_COMPILER_INTERNAL_H

// Interfaces between the compiler's stages (Frontend → WorkGroupFunction →
// Jit). Only the compiler's own .cpp files include this.

#include "compiler/Compiler.h"

#include <llvm/IR/PassManager.h>

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class BranchInst;
class Function;
class LLVMContext;
class Module;
class PassBuilder;
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

/// LinkBuiltins.cpp: the path of the loaded SLEEF library (libsleef, which
/// the driver links against), made searchable by llvm::sys::DynamicLibrary;
/// empty if it cannot be found. The JIT resolves Sleef_* symbols there.
const std::string &sleefLibrary();

/// Barriers.cpp: replaces barrier()/work_group_barrier() and the
/// work_group_* collectives in \p Body (a kernel body whose last parameters
/// are ctx, lx, ly, lz) by calls through WorkGroupContext::Barrier and
/// ::Collective. True if there was any: the kernel must then run one fiber
/// per work-item (emitWorkItemFunction). Collectives of a type clcpu does
/// not handle (half) stay calls, reported later as unsupported builtins.
bool lowerWorkGroupSync(llvm::Function &Body);

/// Barriers.cpp: independent forward progress of sub-groups. Puts a call
/// through WorkGroupContext::Yield on the back edge of every loop of \p Body
/// whose exit depends on an atomic or volatile load (a work-item waiting for
/// another one). True if there was any: the kernel must then run one fiber
/// per work-item.
bool insertProgressYields(llvm::Function &Body);

/// WorkItemLoopVectorize.cpp: turns on the loop vectorizer's outer-loop
/// (VPlan-native) path for this process; idempotent and thread-safe.
void enableOuterLoopVectorization();

/// WorkItemLoopVectorize.cpp: the vectorizer's remarks and missed-hint
/// warnings in \p C are dropped instead of printed to stderr.
void quietVectorizerDiagnostics(llvm::LLVMContext &C);

/// WorkItemLoopVectorize.cpp: marks the work-item x-loop whose latch is
/// \p Latch; if \p Body (the kernel body it calls) has loops, also asks the
/// vectorizer to widen it by \p Lanes work-items.
void markWorkItemLoop(llvm::BranchInst &Latch, const llvm::Function &Body,
                      unsigned Lanes);

/// WorkItemLoopVectorize.cpp: the passes that run right before the
/// vectorizer: scalarizing OpenCL vector operations in work-item loops and
/// withdrawing the outer-loop hint where the native path cannot widen.
void registerWorkItemLoopPasses(llvm::PassBuilder &PB);

/// UniformVectorPhis.cpp: after vectorization, vector PHIs whose lanes are
/// always equal become scalar PHIs and a broadcast.
void addUniformVectorPhiPass(llvm::FunctionPassManager &FPM);

/// ConsecutiveGathers.cpp: gathers/scatters whose lanes are adjacent
/// elements become vector loads/stores.
void addConsecutiveGatherPass(llvm::FunctionPassManager &FPM);

/// SafeIntegerDivision.cpp: integer / and % never trap (OpenCL C 6.3: an
/// unspecified value instead of an exception). True if \p M changed.
bool makeIntegerDivisionSafe(llvm::Module &M);

/// Barriers.cpp: `wg_<Name>` running the one work-item at Ctx->LocalId.
void emitWorkItemFunction(llvm::Module &M, llvm::Function &Kernel,
                          llvm::Function &Body, const std::string &Name);

} // namespace clcpu::compiler

#endif
