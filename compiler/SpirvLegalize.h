//===- compiler/SpirvLegalize.h - SPIR-V the translator reads ---*- C++ -*-===//
//
// The interface of compiler/SpirvLegalize.cpp: a SPIR-V to SPIR-V rewrite
// run on an IL program's words before the translator reads them.

#ifndef CLCPU_COMPILER_SPIRV_LEGALIZE_H
#define CLCPU_COMPILER_SPIRV_LEGALIZE_H

#include <string>

namespace clcpu::compiler {

/// \p Il, a module inspectSpirv accepted, with the constructs Debian's
/// translator (llvm-spirv-15) cannot read rewritten into equivalent SPIR-V
/// it reads; \p Il itself when none occurs. A construct whose operands'
/// types cannot be worked out is left as it is: the translator then fails
/// the build with its own message.
std::string legalizeSpirv(const std::string &Il);

} // namespace clcpu::compiler

#endif
