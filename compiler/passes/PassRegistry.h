//===- PassRegistry.h - clcpu's passes by name ----------------------------===//
//
// Makes the passes of compiler/passes/Passes.def known to a PassBuilder by
// name, so `-passes=clcpu-...` pipelines (clcpu-opt, the IR tests) and
// `-print-after=clcpu-...` reach them.

#ifndef CLCPU_COMPILER_PASSES_PASS_REGISTRY_H
#define CLCPU_COMPILER_PASSES_PASS_REGISTRY_H

#include <llvm/ADT/StringRef.h>

#include <vector>

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace clcpu::compiler {

/// Registers every pass of Passes.def with \p PB's pipeline parser (and its
/// instrumentation's class-to-name map, when it has one).
void registerPasses(llvm::PassBuilder &PB);

/// The registered names, in Passes.def order.
const std::vector<llvm::StringRef> &passNames();

} // namespace clcpu::compiler

#endif
