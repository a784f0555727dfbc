//===- builtins/opencl-c-clcpu.h - builtins Clang 19 does not declare -----===//
//
// Declarations of OpenCL C builtins that the device supports but Clang 19
// declares neither in opencl-c.h nor through -fdeclare-opencl-builtins.
// compiler/Frontend.cpp force-includes this header (-include) after Clang's
// opencl-c-base.h into every program, served from the same in-memory
// resource directory (embedded by builtins/Embed.cpp.in), so Clang's own
// header stays unmodified and a Clang that declares the same functions
// only sees a second, identical declaration of each. tests/builtins/
// check_complete.py parses it next to Clang's opencl-c.h.
//
// Each block is guarded by the macros the spec ties the functions to: the
// frontend defines an extension's macro exactly when the device reports
// the extension (compiler/Extensions.def), so nothing is declared that the
// device lacks. The mangled names are what the compiler lowers
// (compiler/Barriers.cpp, collectiveKind: _Z21work_group_reduce_muli ...).
//
// Not part of the builtin library: every function here is lowered by the
// compiler.

#ifndef CLCPU_OPENCL_C_CLCPU_H
#define CLCPU_OPENCL_C_CLCPU_H

// cl_khr_work_group_uniform_arithmetic 1.0.0 (OpenCL C 3.0, 6.15.16 "Work-
// group Collective Functions"): "This extension requires OpenCL 2.0", i.e.
// the work-group collective functions, which OpenCL C 3.0 makes the
// optional feature __opencl_c_work_group_collective_functions (defined for
// OpenCL C 2.0 by opencl-c-base.h). Reductions, inclusive and exclusive
// scans of mul (int, uint, long, ulong, float, double, half), of the bitwise
// and, or and xor (int, uint, long, ulong), and of the logical and, or and
// xor of an int predicate. Every work-item of the group must reach them, as
// for the other work-group collective functions (Clang's opencl-c.h marks
// those convergent too).
#if defined(cl_khr_work_group_uniform_arithmetic) &&                           \
    defined(__opencl_c_work_group_collective_functions)

#define __CLCPU_WG_FN __attribute__((overloadable, convergent))
#define __CLCPU_WG_DECL(T, Op)                                                 \
  T __CLCPU_WG_FN work_group_reduce_##Op(T);                                   \
  T __CLCPU_WG_FN work_group_scan_inclusive_##Op(T);                           \
  T __CLCPU_WG_FN work_group_scan_exclusive_##Op(T);

#define __CLCPU_WG_INTEGER(Op)                                                 \
  __CLCPU_WG_DECL(int, Op)                                                     \
  __CLCPU_WG_DECL(uint, Op)                                                    \
  __CLCPU_WG_DECL(long, Op)                                                    \
  __CLCPU_WG_DECL(ulong, Op)

__CLCPU_WG_INTEGER(mul)
__CLCPU_WG_DECL(float, mul)
#ifdef cl_khr_fp64
__CLCPU_WG_DECL(double, mul)
#endif
#ifdef cl_khr_fp16
// A half parameter needs the extension enabled; opencl-c-base.h, included
// before, ends with every extension disabled, and so does this header (a
// program enables the ones it uses).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__CLCPU_WG_DECL(half, mul)
#pragma OPENCL EXTENSION cl_khr_fp16 : disable
#endif

__CLCPU_WG_INTEGER(and)
__CLCPU_WG_INTEGER(or)
__CLCPU_WG_INTEGER(xor)

// "a non-zero predicate argument or return value is logically true": the
// result is 1 or 0.
__CLCPU_WG_DECL(int, logical_and)
__CLCPU_WG_DECL(int, logical_or)
__CLCPU_WG_DECL(int, logical_xor)

#undef __CLCPU_WG_INTEGER
#undef __CLCPU_WG_DECL
#undef __CLCPU_WG_FN

#endif // cl_khr_work_group_uniform_arithmetic

#endif // CLCPU_OPENCL_C_CLCPU_H
