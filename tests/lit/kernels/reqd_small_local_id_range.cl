// OpenCL 3.0 API spec 5.9.3, reqd_work_group_size
// (compiler/WorkGroupFunction.cpp, loadLocalSize): a small required group (at
// most 16 work-items in a dimension) bounds that dimension's local size, so
// its local ids are known to be small and non-negative. pyopencl's scan
// transposes each unit through local memory with `int` offsets,
// `ldata[o % 256][o / 256]` for `o = k * 16 + lid`; without the bound the
// truncated id could be negative, the division and remainder stayed signed,
// and the loop ran scalar. With it they are a shift and a mask.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

// CHECK-LABEL: define void @wg_transpose(
// CHECK-NOT:   {{sdiv|srem}}
// CHECK:       {{^}}}{{$}}
kernel __attribute__((reqd_work_group_size(16, 1, 1))) void
transpose(global const int *in, global int *out, int units) {
  local int ldata[256][17];
  int lid = (int)(long)get_local_id(0);
  for (int u = 0; u < units; ++u) {
    int base = ((int)get_group_id(0) * units + u) * 4096;
    for (int k = 0; k < 256; ++k) {
      int o = k * 16 + lid;
      ldata[o % 256][o / 256] = in[base + o];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 256; ++k)
      out[base + k * 16 + lid] = ldata[k][lid];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
