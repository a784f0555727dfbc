//===- FlattenAddressSpaces.h - clcpu-flatten-address-spaces ---*- C++ -*-===//
//
// The pass of compiler/passes/FlattenAddressSpaces.cpp (registered as
// `clcpu-flatten-address-spaces`, compiler/passes/Passes.def); the .cpp
// explains the transformation.

#ifndef CLCPU_COMPILER_PASSES_FLATTEN_ADDRESS_SPACES_H
#define CLCPU_COMPILER_PASSES_FLATTEN_ADDRESS_SPACES_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// Metadata on a module-scope variable of the work-group's local memory
/// (SPIR-V Workgroup storage) once its address space is gone: each kernel
/// that uses it gets its own copy in the group's local block
/// (compiler/WorkGroupFunction.cpp).
inline constexpr const char *WorkGroupVariableMetadata =
    "clcpu.work_group_variable";

/// Every pointer of a module translated from SPIR-V (SPIR address spaces 1
/// global, 2 constant, 3 local, 4 generic) moves to address space 0, the
/// one flat space the front end's modules use; spir_func becomes the C
/// calling convention.
struct FlattenAddressSpacesPass
    : llvm::PassInfoMixin<FlattenAddressSpacesPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace clcpu::compiler

#endif
