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

/// -g: copies \p Source (as input.cl) and \p Headers into a directory of
/// \p Root named by a hash of their contents, where the DWARF of the
/// program will name them, so that a debugger lists the kernel's lines.
/// Returns that directory, or "" (with a warning in \p Log) if it cannot
/// be written.
std::string writeDebugSources(const std::string &Root,
                              const std::string &Source,
                              const std::vector<Header> &Headers,
                              std::string &Log);

} // namespace clcpu::compiler

#endif
