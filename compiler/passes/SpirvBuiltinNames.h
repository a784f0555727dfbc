//===- SpirvBuiltinNames.h - clcpu-spirv-builtin-names ----------*- C++ -*-===//
//
// The pass of compiler/passes/SpirvBuiltinNames.cpp (registered as
// `clcpu-spirv-builtin-names`, compiler/passes/Passes.def); the .cpp explains
// the transformation.

#ifndef CLCPU_COMPILER_PASSES_SPIRV_BUILTIN_NAMES_H
#define CLCPU_COMPILER_PASSES_SPIRV_BUILTIN_NAMES_H

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/PassManager.h>

#include <string>

namespace clcpu::compiler {

/// \p Name, an Itanium-mangled OpenCL C function name as SPIR spells
/// address spaces (`PU3AS1f`, private pointers unqualified), as the front
/// end spells them for the host (`PU8CLglobalf`, `PU9CLprivatef`); \p Name
/// itself if nothing changes or the name cannot be rewritten safely.
std::string hostMangledName(llvm::StringRef Name);

/// The functions of a module translated from SPIR-V take the names the
/// front end gives them, so that calls reach the builtin library and
/// OpenCL C objects link with SPIR-V ones; printf's float arguments are
/// promoted to double as in C.
struct SpirvBuiltinNamesPass : llvm::PassInfoMixin<SpirvBuiltinNamesPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace clcpu::compiler

#endif
