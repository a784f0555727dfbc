// OpenCL 3.0 API spec 5.10, OpenCL C 6.15.12.9
// (compiler/passes/NonTemporalStores.cpp): a kernel that publishes to other
// work-groups gets streaming stores and an sfence before each release no
// mfence already orders. The group writes its part of out, then publishes a
// flag for later groups, as a look-back scan does.
// - OpenCL C 1.2: the fence is an mfence (fence seq_cst), which orders the
//   streaming stores, so neither it nor the exchange right after it needs an
//   sfence.
// - OpenCL C 2.0: a release store with no fence before it: the sfence is on
//   the line right before it. Large is per launch: the StreamArgs field of
//   the context (word CTXW_StreamArgs, %ctx-vars) decides too.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s \
// RUN:   | FileCheck %s %ctx-vars --check-prefix=CL12
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma -cl-options=-cl-std=CL2.0 \
// RUN:   %s | FileCheck %s %ctx-vars --check-prefix=CL20

#if __OPENCL_C_VERSION__ < 200
// CL12-LABEL: define void @wg_publish(
// CL12-NOT:   @llvm.x86.sse.sfence
// CL12:       store <16 x i32> {{.*}}, !nontemporal
// CL12-NOT:   @llvm.x86.sse.sfence
// CL12:       fence seq_cst
// CL12-NOT:   @llvm.x86.sse.sfence
// CL12:       atomicrmw volatile xchg
// CL12-NOT:   @llvm.x86.sse.sfence
// CL12:       {{^}}}{{$}}
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void publish(global const int *restrict in, global int *restrict out,
             volatile global int *flags) {
  size_t i = get_global_id(0);
  out[i] = in[i] * 2;
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_xchg(&flags[get_group_id(0)], 1);
  }
}
#else
// CL20-LABEL: define void @wg_publish_release(
// CL20:       getelementptr inbounds i64, ptr %1, i64 [[#CTXW_StreamArgs]]{{$}}
// CL20-NOT:   store atomic
// CL20:       store <16 x i32> {{.*}}, !nontemporal
// CL20-NOT:   store atomic
// CL20:       call void @llvm.x86.sse.sfence()
// CL20-NEXT:  store atomic
// CL20-NOT:   store atomic
// CL20:       {{^}}}{{$}}
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void publish_release(global const int *restrict in, global int *restrict out,
                     volatile global atomic_int *flags) {
  size_t i = get_global_id(0);
  out[i] = in[i] * 2;
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    atomic_store_explicit(&flags[get_group_id(0)], 1, memory_order_release,
                          memory_scope_device);
}
#endif
