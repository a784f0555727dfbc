//===- Printf.h - The OpenCL C printf of JIT-compiled kernels ---*- C++ -*-===//

#pragma once

#include <cstdarg>

namespace clcpu::compiler {

/// OpenCL C printf (6.15.14) on the host's stdout: vector specifiers, and 0
/// on success / -1 on failure as the return value.
int printfImpl(const char *Fmt, va_list Ap);

/// What the JIT binds a kernel's `printf` to.
extern "C" int clcpu_printf(const char *Fmt, ...);

} // namespace clcpu::compiler
