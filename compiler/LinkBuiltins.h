//===- compiler/LinkBuiltins.h - the builtin library ------------*- C++ -*-===//
//
// The interface of compiler/LinkBuiltins.cpp: the builtin library linked into a
// program.

#ifndef CLCPU_COMPILER_LINKBUILTINS_H
#define CLCPU_COMPILER_LINKBUILTINS_H

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace clcpu::compiler {

/// Links the builtin library functions \p M uses (builtins/, embedded
/// bitcode) into \p M. False (with the reason in \p Log) on failure.
bool linkBuiltins(llvm::Module &M, std::string &Log);

/// The path of the loaded SLEEF library (libsleef, which
/// the driver links against), made searchable by llvm::sys::DynamicLibrary;
/// empty if it cannot be found. The JIT resolves Sleef_* symbols there.
const std::string &sleefLibrary();

} // namespace clcpu::compiler

#endif
