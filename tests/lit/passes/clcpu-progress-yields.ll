; clcpu-progress-yields (cl_khr_subgroups, independent forward progress):
; a loop of a kernel body whose exit depends on an atomic load (a
; work-item waiting for another) gets a call through
; WorkGroupContext::Yield, on a block of its own on the back edge, so a
; loop that exits at once costs nothing. The value is followed through a
; private variable (the IR is not optimized yet). A loop on a plain load
; is left alone: waiting on it would be a data race. A flag that control
; flow sets (a phi of constants, an inlined `return -1` / `return 0` such as
; read_pipe's) follows the branches that chose it (@spin_on_flag_phi).
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-progress-yields %s | FileCheck %s %ctx-vars

; CHECK-LABEL: define internal void @spin_on_atomic.body(
; CHECK: loop:
; CHECK: br i1 %c, label %[[EDGE:.+]], label %exit
; CHECK: [[EDGE]]:
; CHECK-NEXT: %[[YP:.+]] = getelementptr inbounds i64, ptr %ctx, i64 [[#CTXW_Yield]]
; CHECK-NEXT: %[[Y:.+]] = load ptr, ptr %[[YP]], align 8, !invariant.load
; CHECK-NEXT: call void %[[Y]](ptr %ctx) #[[#]]
; CHECK-NEXT: br label %loop
define internal void @spin_on_atomic.body(ptr %flag, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  %seen = alloca i32
  br label %loop

loop:
  %v = load atomic i32, ptr %flag seq_cst, align 4
  store i32 %v, ptr %seen
  %w = load i32, ptr %seen
  %c = icmp eq i32 %w, 0
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

; CHECK-LABEL: define internal void @spin_on_flag_phi.body(
; CHECK: br i1 %again, label %[[EDGE:.+]], label %exit
; CHECK: [[EDGE]]:
; CHECK: call void %{{.+}}(ptr %ctx)
; CHECK-NEXT: br label %loop
define internal void @spin_on_flag_phi.body(ptr %flag, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  br label %loop

loop:
  %v = load atomic i32, ptr %flag acquire, align 4
  %empty = icmp eq i32 %v, 0
  br i1 %empty, label %fail, label %done

fail:
  br label %ret

done:
  br label %ret

ret:
  %r = phi i32 [ -1, %fail ], [ 0, %done ]
  %again = icmp ne i32 %r, 0
  br i1 %again, label %loop, label %exit

exit:
  ret void
}

; CHECK-LABEL: define internal void @plain_loop.body(
; CHECK-NOT: call
; CHECK: ret void
define internal void @plain_loop.body(ptr %flag, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  %a = atomicrmw add ptr %flag, i32 1 seq_cst
  br label %loop

loop:
  %v = load i32, ptr %flag, align 4
  %c = icmp eq i32 %v, 0
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

; A compare-and-swap retry loop (OpenCL C 1.2's float atomic add:
; `while ((seen = atomic_cmpxchg(p, old, f(old))) != old) old = seen;`)
; goes round again only when the compare-exchange failed on the value it
; just read, that is, when another thread changed it: no yield.
; CHECK-LABEL: define internal void @cas_retry.body(
; CHECK-NOT: call
; CHECK: ret void
define internal void @cas_retry.body(ptr %p, float %v, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  %b = alloca ptr
  %old = alloca i32
  %seen = alloca i32
  store ptr %p, ptr %b
  %p0 = load ptr, ptr %b
  %first = load volatile i32, ptr %p0, align 4
  store i32 %first, ptr %old
  br label %while.cond

while.cond:
  %p1 = load ptr, ptr %b
  %e = load i32, ptr %old
  %e2 = load i32, ptr %old
  %f = bitcast i32 %e2 to float
  %sum = fadd float %f, %v
  %new = bitcast float %sum to i32
  %x = cmpxchg volatile ptr %p1, i32 %e, i32 %new seq_cst seq_cst, align 4
  %got = extractvalue { i32, i1 } %x, 0
  store i32 %got, ptr %seen
  %e3 = load i32, ptr %old
  %cmp = icmp ne i32 %got, %e3
  br i1 %cmp, label %while.body, label %while.end

while.body:
  %s = load i32, ptr %seen
  store i32 %s, ptr %old
  br label %while.cond

while.end:
  ret void
}

; The OpenCL C 2.0 form, `do { ... } while (!atomic_compare_exchange_weak(p,
; &old, old + 1))`: the builtin stores the value it read into `old`, and the
; loop branches on the success flag. A maximum that also leaves once the
; value read is large enough is the same: no yield.
; CHECK-LABEL: define internal void @c11_retry_max.body(
; CHECK-NOT: call
; CHECK: ret void
define internal void @c11_retry_max.body(ptr %p, i32 %v, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  %old = alloca i32
  %first = load atomic i32, ptr %p seq_cst, align 4
  store i32 %first, ptr %old
  br label %do.body

do.body:
  %o = load i32, ptr %old
  %small = icmp sge i32 %o, %v
  br i1 %small, label %done, label %try

try:
  %e = load i32, ptr %old
  %x = cmpxchg ptr %p, i32 %e, i32 %v seq_cst seq_cst, align 4
  %ok = extractvalue { i32, i1 } %x, 1
  %got = extractvalue { i32, i1 } %x, 0
  store i32 %got, ptr %old
  %okb = zext i1 %ok to i8
  %okt = trunc i8 %okb to i1
  %fail = xor i1 %okt, true
  br i1 %fail, label %do.body, label %done

done:
  ret void
}

; A spin lock compares with a fixed value: it waits for the holder, and
; keeps its yield. So does the C11 form that resets what it expects.
; CHECK-LABEL: define internal void @spin_lock.body(
; CHECK: call void %{{.+}}(ptr %ctx)
; CHECK: ret void
define internal void @spin_lock.body(ptr %lock, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  br label %loop

loop:
  %x = cmpxchg volatile ptr %lock, i32 0, i32 1 seq_cst seq_cst, align 4
  %got = extractvalue { i32, i1 } %x, 0
  %held = icmp ne i32 %got, 0
  br i1 %held, label %loop, label %exit

exit:
  ret void
}

; CHECK-LABEL: define internal void @c11_spin_lock.body(
; CHECK: call void %{{.+}}(ptr %ctx)
; CHECK: ret void
define internal void @c11_spin_lock.body(ptr %lock, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  %e = alloca i32
  store i32 0, ptr %e
  br label %loop

loop:
  %want = load i32, ptr %e
  %x = cmpxchg ptr %lock, i32 %want, i32 1 seq_cst seq_cst, align 4
  %ok = extractvalue { i32, i1 } %x, 1
  %got = extractvalue { i32, i1 } %x, 0
  store i32 %got, ptr %e
  store i32 0, ptr %e
  br i1 %ok, label %exit, label %loop

exit:
  ret void
}

; A fresh expected value is not enough when the loop waits on what it read
; (`do { old = *lock; } while (atomic_cmpxchg(lock, old, 1) != 0)`): it goes
; round again after a successful exchange too, so it keeps its yield.
; CHECK-LABEL: define internal void @fresh_but_waits.body(
; CHECK: call void %{{.+}}(ptr %ctx)
; CHECK: ret void
define internal void @fresh_but_waits.body(ptr %lock, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  br label %loop

loop:
  %old = load volatile i32, ptr %lock, align 4
  %x = cmpxchg volatile ptr %lock, i32 %old, i32 1 seq_cst seq_cst, align 4
  %got = extractvalue { i32, i1 } %x, 0
  %held = icmp ne i32 %got, 0
  br i1 %held, label %loop, label %exit

exit:
  ret void
}

; C's `while (old < v && !atomic_compare_exchange_weak(p, &old, v));`: the
; loop's condition is a phi, false on the edge from the comparison and the
; negated success flag on the edge from the exchange: still a retry loop.
; CHECK-LABEL: define internal void @c11_retry_phi.body(
; CHECK-NOT: call
; CHECK: ret void
define internal void @c11_retry_phi.body(ptr %p, i32 %v, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  %old = alloca i32
  %first = load atomic i32, ptr %p monotonic, align 4
  store i32 %first, ptr %old
  br label %while.cond

while.cond:
  %o = load i32, ptr %old
  %lt = icmp slt i32 %o, %v
  br i1 %lt, label %land.rhs, label %land.end

land.rhs:
  %e = load i32, ptr %old
  %x = cmpxchg ptr %p, i32 %e, i32 %v seq_cst seq_cst, align 4
  %ok = extractvalue { i32, i1 } %x, 1
  %got = extractvalue { i32, i1 } %x, 0
  store i32 %got, ptr %old
  %lnot = xor i1 %ok, true
  br label %land.end

land.end:
  %again = phi i1 [ false, %while.cond ], [ %lnot, %land.rhs ]
  br i1 %again, label %while.body, label %while.end

while.body:
  br label %while.cond

while.end:
  ret void
}
