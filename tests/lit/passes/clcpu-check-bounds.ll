; clcpu-check-bounds (-fclcpu-check-bounds, docs/DEBUGGING.md): in a kernel
; body, each access whose pointer leads back to an object of known extent is
; checked: `@clcpu.check.in_bounds(ptr - object, extent, size)`, which
; clcpu-check-range-versioning expands into `offset <= extent - size`
; (unsigned, so below the object fails too). The first failure of the work-item (site, offset, extent) is
; kept in first.* and stored at the return into WorkGroupContext::CheckReport
; at the linear local id (three arrays, CheckReportSlots apart); site n is
; entry n - 1 of @"clcpu.check_sites.<kernel>"; after its null, the mark
; that a failure also sets the report's CheckReportFailed word (no loops).
; - %p, %q: loads and stores through kernel arguments, extents from
;   WorkGroupContext::ArgExtents; the access moves under a branch on the
;   check (the vectorizer makes it a masked access), a load's value is 0
;   when it does not happen;
; - %u: a load the same in every work-item (in[0]) goes to the dummy
;   object @clcpu.check.sink instead, without a branch;
; - %a1: a constant offset inside a private array: decided now, no check;
;   %a2: a variable one: checked against the array's 16 bytes;
; - %t: a __local variable (!clcpu.local_variable: 64 bytes);
; - %c: a program-scope constant table;
; - the sdiv guarded by SafeIntegerDivision: a zero divisor is reported;
; - @not_a_body: not a kernel body, left alone.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu \
; RUN:   -passes=clcpu-check-bounds %s | FileCheck %s %ctx-vars

; CHECK: @clcpu.check.sink = internal global [256 x i8] zeroinitializer
; CHECK: @clcpu.check_flagged = private constant {{.*}} c"failure word\00"
; CHECK: @clcpu.check_sites.k = constant [10 x ptr] [ptr @clcpu.check_site, {{.*}}, ptr null, ptr @clcpu.check_flagged]

; CHECK-LABEL: define internal void @k.body(
; CHECK: %first.site = alloca i64
; CHECK: %[[TAB:.+]] = load ptr, ptr %{{.+}}, align 8, !invariant.load
; CHECK: %extent.arg1 = load i64, ptr %{{.+}}, align 8, !invariant.load

; CHECK: %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %lx
; CHECK: %offset = sub i64 %{{.+}}, %{{.+}}
; CHECK: %in.bounds = call i1 @clcpu.check.in_bounds(i64 %offset, i64 %extent.arg1, i64 4)
; CHECK: %first.failure = and i1
; CHECK: select i1 %first.failure, i64 1,
; CHECK: br i1 %in.bounds, label %[[DO:.+]], label %[[DONE:.+]]
; CHECK: [[DO]]:
; CHECK-NEXT: %v = load float, ptr addrspace(1) %p
; CHECK: %v.checked = phi float [ %v, %[[DO]] ], [ 0.000000e+00, %entry ]

; CHECK: %[[SAFE:.+]] = select i1 %in.bounds2, ptr addrspace(1) %in, ptr addrspace(1) addrspacecast (ptr @clcpu.check.sink to ptr addrspace(1))
; CHECK-NEXT: %u = load float, ptr addrspace(1) %[[SAFE]]

; CHECK: store float %s, ptr addrspace(1) %q
; CHECK: store i32 1, ptr %a1
; CHECK: call i1 @clcpu.check.in_bounds(i64 %{{.+}}, i64 16, i64 4)
; CHECK: store i32 2, ptr %a2
; CHECK-NOT: in.bounds
; CHECK: %a3 = load i32, ptr %a1
; CHECK: select i1 %{{.+}}, i64 64,
; CHECK: store i32 %a3, ptr %t
; CHECK: sub i64 %{{.+}}, ptrtoint (ptr addrspace(2) @table to i64)
; CHECK: %cv = load i32, ptr addrspace(2) %c
; CHECK: %[[NZ:.+]] = icmp ne i32 %d, 0
; CHECK: %div = sdiv i32 %cv.checked, %safe.divisor

; The report, at the return, only on a failure: the failure word (after
; the three arrays) first.
; CHECK: %[[WORD:.+]] = load ptr, ptr %{{.+}}, align 8, !invariant.load
; CHECK: %[[AT:.+]] = getelementptr inbounds i64, ptr %[[WORD]], i64 12288
; CHECK: store i64 1, ptr %[[AT]]
; CHECK: %[[REP:.+]] = load ptr, ptr %{{.+}}, align 8, !invariant.load
; CHECK: %[[LIN:.+]] = add i64 %lx,
; CHECK: getelementptr inbounds i64, ptr %[[REP]]
; CHECK: add i64 %[[LIN]], 4096
; CHECK: add i64 %[[LIN]], 8192
; CHECK: ret void

; CHECK-LABEL: define void @not_a_body(
; CHECK-NEXT: store i32 0, ptr addrspace(1) %out, align 4
; CHECK-NEXT: ret void

@table = internal addrspace(2) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]

define internal void @k.body(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %d, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  %arr = alloca [4 x i32], align 4
  %lmp = getelementptr inbounds i64, ptr %ctx, i64 24
  %lm = load ptr, ptr %lmp, align 8, !invariant.load !1
  %tile = getelementptr inbounds i8, ptr %lm, i64 16, !clcpu.local_variable !0
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %lx
  %v = load float, ptr addrspace(1) %p, align 4
  %u = load float, ptr addrspace(1) %in, align 4
  %s = fadd float %v, %u
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %lx
  store float %s, ptr addrspace(1) %q, align 4
  %a1 = getelementptr inbounds [4 x i32], ptr %arr, i64 0, i64 1
  store i32 1, ptr %a1, align 4
  %a2 = getelementptr inbounds [4 x i32], ptr %arr, i64 0, i64 %lx
  store i32 2, ptr %a2, align 4
  %a3 = load i32, ptr %a1, align 4
  %t = getelementptr inbounds i32, ptr %tile, i64 %lx
  store i32 %a3, ptr %t, align 4
  %c = getelementptr inbounds [4 x i32], ptr addrspace(2) @table, i64 0, i64 %ly
  %cv = load i32, ptr addrspace(2) %c, align 4
  %iszero = icmp eq i32 %d, 0
  %safe.divisor = select i1 %iszero, i32 1, i32 %d
  %div = sdiv i32 %cv, %safe.divisor
  %o2 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %ly
  store i32 %div, ptr addrspace(1) %o2, align 4
  ret void
}

define void @not_a_body(ptr addrspace(1) %out) {
  store i32 0, ptr addrspace(1) %out, align 4
  ret void
}

!0 = !{i64 64, !"tile"}
!1 = !{}
