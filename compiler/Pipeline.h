//===- compiler/Pipeline.h - the kernel compiler's pipeline ---------------===//
//
// Program IR from the front end (compiler/Frontend.cpp) to the optimized
// work-group functions the JIT compiles (compiler/Jit.cpp).

#ifndef CLCPU_COMPILER_PIPELINE_H
#define CLCPU_COMPILER_PIPELINE_H

#include "compiler/Compiler.h"

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/IR/PassManager.h>

#include <string>
#include <vector>

namespace llvm {
class Module;
class PassBuilder;
class TargetMachine;
} // namespace llvm

namespace clcpu::compiler {

/// Reads the kernels' argument metadata into \p Kernels, generates
/// `wg_<kernel>` for each and runs the optimization pipeline for \p TM.
/// False (with the reason in \p Log) if some kernel cannot be compiled.
bool lowerKernels(llvm::Module &M, llvm::TargetMachine &TM, const Options &Opts,
                  std::vector<KernelInfo> &Kernels, size_t &GlobalVarSize,
                  std::string &Log);

/// Prepares \p PB for the optimizer of work-group functions: clcpu's passes
/// by name (compiler/passes/Passes.def) and at their places in the default
/// pipelines (the vectorizer's start, the optimizer's end), and the
/// vectorizer's outer-loop path on. `default<O3>` on \p PB is then the
/// optimizer lowerKernels runs.
void configureKernelPipeline(llvm::PassBuilder &PB);

/// Reads what ArgBindings::key() wrote into \p Out (clcpu-opt's -bind: a
/// launch-time specialization from the command line); false if \p Text
/// is malformed.
bool parseArgBindings(const std::string &Text, ArgBindings &Out);

/// The four analysis managers a module pipeline runs with. They exist
/// before the PassBuilder (instrumentation takes the module manager);
/// registerWith fills them with \p PB's analyses (clcpu's included once
/// configureKernelPipeline ran) and connects them.
struct AnalysisManagers {
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  void registerWith(llvm::PassBuilder &PB);
};

} // namespace clcpu::compiler

#endif
