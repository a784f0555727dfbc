// OpenCL 3.0 API spec 5.9.3, reqd_work_group_size
// (compiler/WorkItemLoops.cpp, markWorkItemLoop): a group of 12 work-items in
// x, as pyopencl's radix sort uses on CPUs, runs each region's x-loop in
// vectors of 8 (the largest power of two within 12). The 4 work-items left
// over in every group ran as a scalar remainder; folded into the vector loop,
// they are its last, masked iteration, and no scalar copy of the loop (a block
// named after the x-loop, `x:` or `x4:`) is left.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

// CHECK-LABEL: define void @wg_bins(
// CHECK-NOT:   {{^x4?:}}
// CHECK:       @llvm.masked.load.v8i32
// CHECK-NOT:   {{^x4?:}}
// CHECK:       {{^}}}{{$}}
kernel __attribute__((reqd_work_group_size(12, 1, 1))) void
bins(global int *out, global const int *in, int interval, int n) {
  int begin = interval * (int)get_group_id(0);
  int end = min(begin + interval, n);
  for (int i = begin + (int)get_local_id(0); i < end; i += 12)
    out[i] = in[i] * 3 + 1;
}
