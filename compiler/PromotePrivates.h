//===- compiler/PromotePrivates.h - private variables to SSA ----*- C++ -*-===//
//
// The interface of compiler/PromotePrivates.cpp.

#ifndef CLCPU_COMPILER_PROMOTEPRIVATES_H
#define CLCPU_COMPILER_PROMOTEPRIVATES_H

namespace llvm {
class Function;
} // namespace llvm

namespace clcpu::compiler {

/// \p F's private variables to SSA values where it
/// can (SROA), before the uniformity analysis (compiler/analyses/
/// WorkItemUniformity.h), which takes every load from a private variable as
/// divergent.
void promotePrivates(llvm::Function &F);

} // namespace clcpu::compiler

#endif
