// Work-group pipe reservations and commits (OpenCL C 3.0 6.15.16.3,
// builtins/pipe.cl) are collectives of their own kinds (compiler/Barriers.cpp,
// collectiveKind): the runtime makes one reservation per group when the group
// reaches it, Op CollPipeReserveWrite * 16 + CollULong = 707 for the producer,
// CollPipeReserveRead * 16 + CollULong = 691 for the consumer, and one commit
// once every work-item's copies are done, 739 (CollPipeCommitWrite) and 723
// (CollPipeCommitRead) (compiler/WorkGroupContext.h). Their arguments are the
// group's (the spec requires the same values in every work-item), so the
// runtime computes each for a group of one (`i64 1`): one operand stored, one
// id filled in. The work-items call neither a reservation nor a commit: the
// packet copies of the work-item loop vectorize (a masked scatter into the
// ring, whose slots wrap, and a masked gather out of it), and no work-item loop
// runs after the commit only for its first work-item to call it.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma \
// RUN:   '-cl-options=-cl-std=CL3.0 -cl-no-subgroup-ifp' %s | FileCheck %s

// CHECK-LABEL: define internal fastcc void @produce.collective(
// CHECK:       call void %{{[0-9]+}}(ptr %0, i32 707, ptr %{{[0-9]+}}, ptr
// %{{[0-9]+}}, i64 1, CHECK:       call void %{{[0-9]+}}(ptr %0, i32 739, ptr
// %{{[0-9]+}}, ptr %{{[0-9]+}}, i64 1, CHECK-LABEL: define void @wg_produce(
// CHECK-NOT:   @clcpu_pipe_reserve
// CHECK-NOT:   @clcpu_pipe_commit
// CHECK:       @llvm.masked.scatter.v16i32
// CHECK-NOT:   @clcpu_pipe_reserve
// CHECK-NOT:   @clcpu_pipe_commit
// CHECK:       {{^}}}
// CHECK-LABEL: define internal fastcc void @consume.collective(
// CHECK:       call void %{{[0-9]+}}(ptr %0, i32 691, ptr %{{[0-9]+}}, ptr
// %{{[0-9]+}}, i64 1, CHECK:       call void %{{[0-9]+}}(ptr %0, i32 723, ptr
// %{{[0-9]+}}, ptr %{{[0-9]+}}, i64 1, CHECK-LABEL: define void @wg_consume(
// CHECK-NOT:   @clcpu_pipe_reserve
// CHECK:       @llvm.masked.gather.v16i32
// CHECK-NOT:   @clcpu_pipe_commit
// CHECK:       {{^}}}
kernel void produce(global const int *restrict src, write_only pipe int p) {
  reserve_id_t r;
  do
    r = work_group_reserve_write_pipe(p, get_local_size(0));
  while (!is_valid_reserve_id(r));
  write_pipe(p, r, get_local_id(0), &src[get_global_id(0)]);
  work_group_commit_write_pipe(p, r);
}
kernel void consume(read_only pipe int p, global int *restrict dst) {
  reserve_id_t r;
  do
    r = work_group_reserve_read_pipe(p, get_local_size(0));
  while (!is_valid_reserve_id(r));
  read_pipe(p, r, get_local_id(0), &dst[get_global_id(0)]);
  work_group_commit_read_pipe(p, r);
}
