//===- compiler/Frontend.h - OpenCL C to LLVM IR ----------------*- C++ -*-===//
//
// The interface of compiler/Frontend.cpp: the front end, in-process Clang.

#ifndef CLCPU_COMPILER_FRONTEND_H
#define CLCPU_COMPILER_FRONTEND_H

#include "compiler/Compiler.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace clcpu::compiler {

/// OpenCL C → unoptimized LLVM IR for the host, with in-process Clang.
/// nullptr on error; diagnostics (file:line:col) are appended to \p Log.
std::unique_ptr<llvm::Module> compileSource(llvm::LLVMContext &Ctx,
                                            const std::string &Source,
                                            const Options &Opts,
                                            const std::vector<Header> &Headers,
                                            std::string &Log);

} // namespace clcpu::compiler

#endif
