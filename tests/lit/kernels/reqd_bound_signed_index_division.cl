// OpenCL 3.0 API spec 5.9.3, reqd_work_group_size
// (compiler/WorkGroupFunction.cpp, loadLocalSize): with
// reqd_work_group_size(16, 1, 1) the loop over the local x ids runs at most 16
// times (16, or fewer in a remainder group), and its bound says so. pyopencl's
// scan_lev1 transposes a unit of data through local memory at `[o % 256][o /
// 256]` with `o = k * 16 + lid` in signed ints; with lid known to be below 16,
// o is known not negative and the division and remainder are a shift and a mask
// (they were signed divisions with their sign corrections).
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

// CHECK-LABEL: define void @wg_transpose(
// CHECK:       call i64 @llvm.umin.i64(i64 %{{[0-9]+}}, i64 16)
// CHECK-NOT:   {{sdiv|srem}}
// CHECK:       {{^}}}{{$}}
kernel __attribute__((reqd_work_group_size(16, 1, 1))) void
transpose(global const int *in, global int *out) {
  local int ld[256][17];
  int lid = get_local_id(0);
  int base = (int)get_group_id(0) * 4096;
  for (int k = 0; k < 256; k++) {
    int o = k * 16 + lid;
    ld[o % 256][o / 256] = in[base + o];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int sum = 0;
  for (int k = 0; k < 256; k++) {
    sum += ld[k][lid];
    ld[k][lid] = sum;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < 256; k++) {
    int o = k * 16 + lid;
    out[base + o] = ld[o % 256][o / 256];
  }
}
