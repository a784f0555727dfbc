// OpenCL 3.0 API spec 5.8.6: -D, -cl-opt-disable, -cl-fast-relaxed-math,
// -cl-denorms-are-zero and -g change the generated IR: the macro's value
// reaches the code; -cl-fast-relaxed-math puts fast-math flags on the
// arithmetic; -cl-opt-disable runs the minimal pipeline (no vectorized loop,
// allocas kept); -cl-denorms-are-zero flushes float denormals
// (preserve-sign); -g emits debug info. (tests/unit/CompilerTests.cpp checks
// that the other documented options are accepted.)
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma -cl-options=-DVALUE=1.5f %s \
// RUN:   | FileCheck %s --check-prefix=BASE \
// RUN:     --implicit-check-not=preserve-sign \
// RUN:     '--implicit-check-not=fmul {{fast|reassoc}}' \
// RUN:     --implicit-check-not=DICompileUnit
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma -cl-options=-DVALUE=2.5f %s \
// RUN:   | FileCheck %s --check-prefix=OTHER --implicit-check-not=1.500000e+00
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma \
// RUN:   '-cl-options=-DVALUE=1.5f -cl-fast-relaxed-math' %s \
// RUN:   | FileCheck %s --check-prefix=FAST
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma \
// RUN:   '-cl-options=-DVALUE=1.5f -cl-opt-disable' %s \
// RUN:   | FileCheck %s --check-prefix=NOOPT
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma \
// RUN:   '-cl-options=-DVALUE=1.5f -cl-denorms-are-zero' %s \
// RUN:   | FileCheck %s --check-prefix=FTZ
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma \
// RUN:   '-cl-options=-DVALUE=1.5f -g' %s | FileCheck %s --check-prefix=DEBUG

// BASE-LABEL:  define void @wg_k(
// BASE:        <16 x float>
// BASE:        1.500000e+00
// OTHER-LABEL: define void @wg_k(
// OTHER:       2.500000e+00
// FAST-LABEL:  define void @wg_k(
// FAST:        fmul {{fast|reassoc nnan ninf nsz arcp contract afn}} <16 x float>
// NOOPT-LABEL: define void @wg_k(
// NOOPT-NOT:   x float>
// NOOPT:       alloca
// NOOPT-NOT:   x float>
// NOOPT:       {{^}}}{{$}}
// FTZ:         "denormal-fp-math-f32"="preserve-sign,preserve-sign"
// DEBUG:       !DICompileUnit(
kernel void k(global float *p) {
  size_t i = get_global_id(0);
  p[i] = p[i] * p[i + 1] + VALUE;
}
