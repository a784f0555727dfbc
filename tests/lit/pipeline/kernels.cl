// The three ways clcpu runs a kernel (compiler/WorkGroupFunction.cpp,
// formWorkGroupFunction), as `clcpu-kernels` prints them:
//
// - scale: no barrier, no collective and no loop: one loop over the
//   group's work-items ("work-item loop").
// - neighbour: a barrier: the body is cut into barrier regions
//   (compiler/regions/), each run for all work-items before the
//   next; lid is recomputed in the second region, so no value crosses the
//   barrier.
// - handoff: work-items other than 0 spin on an atomic until work-item 0
//   sets it: a loop waiting for another work-item needs independent
//   forward progress (compiler/passes/ProgressYields.cpp), one fiber per
//   work-item (compiler/Barriers.cpp).
// - cas_add: a compare-and-swap retry loop (OpenCL C 1.2's float atomic
//   add) goes round only when another thread changed the value: no wait,
//   so the work-item loop. spin_lock compares with a fixed value, waits for
//   the lock's holder, and takes fibers.
//
// clcpu-opt replaces the front end's "target-cpu" and "target-features"
// with -mcpu and -mattr; the sub-group size stays the host's
// (compiler::hostSubGroupSize), but none of these paths depends on it.
// RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
// RUN:   -passes=clcpu-kernels %s -disable-output 2>&1 | FileCheck %s

// CHECK: {{^}}clcpu-opt: kernel scale: work-item loop{{$}}
kernel void scale(global float *a, float s) {
  size_t i = get_global_id(0);
  a[i] *= s;
}

// CHECK-NEXT: {{^}}clcpu-opt: kernel neighbour: barrier regions: 2 regions (1 barrier, 0 collectives), 0 values (0 uniform) and 0 private arrays across them, 24 bytes of scratch per work-item, 2 regions with uniform exits{{$}}
kernel void neighbour(global const int *in, global int *out) {
  local int tile[64];
  size_t lid = get_local_id(0);
  tile[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[(lid + 1) % get_local_size(0)];
}

// CHECK-NEXT: {{^}}clcpu-opt: kernel handoff: fibers: a loop waits for another work-item (independent forward progress){{$}}
kernel void handoff(volatile global int *flag, global int *out) {
  if (get_local_id(0) == 0) {
    out[0] = 42;
    atomic_xchg(flag, 1);
  } else {
    while (atomic_add(flag, 0) == 0)
      ;
    out[get_local_id(0)] = out[0];
  }
}

// CHECK-NEXT: {{^}}clcpu-opt: kernel cas_add: work-item loop{{$}}
kernel void cas_add(volatile global uint *sum, global const float *x) {
  uint old = *sum, seen;
  float v = x[get_global_id(0)];
  while ((seen = atomic_cmpxchg(sum, old, as_uint(as_float(old) + v))) != old)
    old = seen;
}

// CHECK-NEXT: {{^}}clcpu-opt: kernel spin_lock: fibers: a loop waits for another work-item (independent forward progress){{$}}
// CHECK-NOT: {{.}}
kernel void spin_lock(volatile global int *lock, global int *count) {
  while (atomic_cmpxchg(lock, 0, 1) != 0)
    ;
  *count += 1;
  atomic_xchg(lock, 0);
}
