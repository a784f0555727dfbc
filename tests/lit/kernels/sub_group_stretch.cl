// #8 (sub-group stretches, compiler/passes/SubGroupStepInline.cpp): regions
// joined by sub-group collectives run one sub-group at a time (the
// "stretch"), each collective's step inlined into the work-group function (no
// call of it is left), the reduction a max across the lanes of one <S x i32>
// vector. Per sub-group the value slots are stored more often than they are
// loaded: the reduction's operand is forwarded from the scan's vector in the
// region instead of reloaded from its slot (GVN across the inlined step).
// S is the host's sub-group size (compiler::hostSubGroupSize), whatever -mcpu
// says, and the stretch runs on vectors only where the target's are one
// sub-group wide, as the driver's (the host's) are: the target follows the
// host's ISA, AVX-512 or AVX2.
//
// REQUIRES: host-avx
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   %if host-avx512 %{ -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %} \
// RUN:   %else %{ -mcpu=x86-64-v3 -mattr=+avx2,+fma,+fast-gather %} \
// RUN:   -cl-options=-cl-std=CL3.0 %s \
// RUN:   | FileCheck %s '--implicit-check-not=call void @sgs.collective.sg'

// CHECK-LABEL: define void @wg_sgs(
// CHECK:       {{^}}stretch:
// CHECK:       %sg.x0 = shl nuw nsw i64 %{{[^,]+}}, {{2|3|4}}
// CHECK:       store <[[S:[0-9]+]] x i64>
// CHECK:       load <[[S]] x i64>
// CHECK-NOT:   load <[[S]] x i64>
// CHECK:       store <[[S]] x i32> [[SCAN:%[0-9]+]], ptr
// CHECK-NOT:   load <[[S]] x i64>
// CHECK:       call <[[S]] x i32> @llvm.smax.v[[S]]i32(<[[S]] x i32> [[SCAN]],
// CHECK-NOT:   load <[[S]] x i64>
// CHECK:       store <[[S]] x i64>
kernel void sgs(global int *out, global const int *in) {
  size_t g = get_global_id(0);
  int v = in[g];
  int s = sub_group_scan_inclusive_add(v);
  out[g] = s + sub_group_reduce_max(s);
}
