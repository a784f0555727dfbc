//===- compiler/Spirv.h - SPIR-V modules to LLVM IR -------------*- C++ -*-===//
//
// The interface of compiler/Spirv.cpp: the IL programs' front end.

#ifndef CLCPU_COMPILER_SPIRV_H
#define CLCPU_COMPILER_SPIRV_H

#include "compiler/Compiler.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class DataLayout;
class LLVMContext;
class Module;
} // namespace llvm

namespace clcpu::compiler {

/// Whether the SPIR-V translator \p Path (DefaultSpirvTranslator when
/// empty) is an executable file: without it the device takes no IL
/// programs (no cl_khr_il_program, an empty CL_DEVICE_IL_VERSION,
/// clCreateProgramWithIL is CL_INVALID_OPERATION). Looked up on the first
/// call only: what the device reports must not change under an application
/// that queried it. Thread-safe.
bool spirvTranslatorFound(const std::string &Path);

/// SPIR-V module \p Il (specialized with \p Spec) → unoptimized LLVM IR
/// for the host (\p Triple, \p DL) in the front end's shape: flat address
/// spaces, the builtins' host names, the host CPU's function attributes.
/// nullptr on error, with the reason in \p Log.
std::unique_ptr<llvm::Module>
translateSpirv(llvm::LLVMContext &Ctx, const std::string &Il,
               const std::vector<SpecConstantValue> &Spec, const Options &Opts,
               const std::string &Triple, const llvm::DataLayout &DL,
               const BuildSettings &S, std::string &Log);

} // namespace clcpu::compiler

#endif
