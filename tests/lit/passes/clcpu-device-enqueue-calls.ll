; OpenCL C 2.0 6.13.17: Clang lowers enqueue_kernel to calls of
; __enqueue_kernel_basic & co. that pass the block's kernel and its literal;
; clcpu-device-enqueue-calls makes each one call of the runtime naming the
; block's kernel, gives the block kernels their arguments' metadata, and
; nulls the literals' invoke pointers (blocks are called directly).
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64 \
; RUN:   -passes=clcpu-device-enqueue-calls %s | FileCheck %s

%struct.ndrange_t = type { i32, [3 x i64], [3 x i64], [3 x i64] }

; CHECK: @clcpu.block.__parent_block_invoke_kernel = {{.*}} c"__parent_block_invoke_kernel\00"
; CHECK: @clcpu.block.__parent_block_invoke_2_kernel = {{.*}} c"__parent_block_invoke_2_kernel\00"

; CHECK-LABEL: define spir_kernel void @parent(
; The literal's invoke pointer: never read, so null.
; CHECK: store ptr null, ptr %invoke
; CHECK: call i32 @clcpu_device_enqueue_kernel(ptr %q, i32 1, ptr %nd, i32 0, ptr null, ptr null, ptr @clcpu.block.__parent_block_invoke_kernel, ptr %block, i32 0, ptr null, i32 0)
; CHECK: call i32 @clcpu_device_enqueue_kernel(ptr %q, i32 0, ptr %nd, i32 1, ptr %wait, ptr %ret, ptr @clcpu.block.__parent_block_invoke_2_kernel, ptr %block, i32 2, ptr %sizes, i32 0)
; CHECK: call i32 @clcpu_device_query(i32 0, ptr @clcpu.block.__parent_block_invoke_kernel, ptr null)
; CHECK: call i32 @clcpu_device_query(i32 3, ptr @clcpu.block.__parent_block_invoke_kernel, ptr %nd)
; CHECK-NOT: __enqueue_kernel
; CHECK-NOT: __get_kernel
define spir_kernel void @parent(ptr %q, ptr %wait, ptr %ret, ptr %sizes) #0 {
  %nd = alloca %struct.ndrange_t
  %block = alloca <{ i32, i32, ptr, ptr }>
  %invoke = getelementptr inbounds <{ i32, i32, ptr, ptr }>, ptr %block, i32 0, i32 2
  store ptr @__parent_block_invoke, ptr %invoke
  %a = call i32 @__enqueue_kernel_basic(ptr %q, i32 1, ptr byval(%struct.ndrange_t) %nd, ptr @__parent_block_invoke_kernel, ptr %block)
  %b = call i32 @__enqueue_kernel_events_varargs(ptr %q, i32 0, ptr %nd, i32 1, ptr %wait, ptr %ret, ptr @__parent_block_invoke_2_kernel, ptr %block, i32 2, ptr %sizes)
  %c = call i32 @__get_kernel_work_group_size_impl(ptr @__parent_block_invoke_kernel, ptr %block)
  %d = call i32 @__get_kernel_sub_group_count_for_ndrange_impl(ptr %nd, ptr @__parent_block_invoke_kernel, ptr %block)
  ret void
}

define internal void @__parent_block_invoke(ptr %literal) {
  ret void
}

; The block kernels: the literal (private), then __local pointers.
; CHECK: define dso_local spir_kernel void @__parent_block_invoke_kernel(ptr %0) #[[BK:[0-9]+]] !kernel_arg_addr_space ![[AS1:[0-9]+]]
define spir_kernel void @__parent_block_invoke_kernel(ptr %0) {
  call void @__parent_block_invoke(ptr %0)
  ret void
}

; CHECK: define dso_local spir_kernel void @__parent_block_invoke_2_kernel(ptr %0, ptr %1, ptr %2) #[[BK]] !kernel_arg_addr_space ![[AS3:[0-9]+]]
define spir_kernel void @__parent_block_invoke_2_kernel(ptr %0, ptr %1, ptr %2) {
  ret void
}

declare i32 @__enqueue_kernel_basic(ptr, i32, ptr, ptr, ptr)
declare i32 @__enqueue_kernel_events_varargs(ptr, i32, ptr, i32, ptr, ptr, ptr, ptr, i32, ptr)
declare i32 @__get_kernel_work_group_size_impl(ptr, ptr)
declare i32 @__get_kernel_sub_group_count_for_ndrange_impl(ptr, ptr, ptr)

attributes #0 = { "uniform-work-group-size"="false" }

; CHECK: attributes #[[BK]] = { "clcpu-block-kernel" "uniform-work-group-size"="false" }
; CHECK-DAG: ![[AS1]] = !{i32 0}
; CHECK-DAG: ![[AS3]] = !{i32 0, i32 3, i32 3}
