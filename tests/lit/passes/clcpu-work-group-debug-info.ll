; clcpu-work-group-debug-info (-g, docs/DEBUGGING.md): once the kernels have
; their work-group functions, every function holding a kernel's code gets a
; subprogram, so that code generation emits its line table and a debugger
; finds the kernel by name.
; - @k.body, the body clone, takes back the copy of the kernel's subprogram
;   its locations are in (cloning made it, the clone dropped it);
; - @wg_k, which calls the body, gets an artificial subprogram, and the call
;   a location in it (the inliner then records the kernel as inlined there);
; - @k.region, holding the kernel's code without a subprogram, gets one,
;   and its locations become the kernel's inlined at its first line;
; - @no_debug has no location and stays as it is.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu \
; RUN:   -passes=clcpu-work-group-debug-info %s | FileCheck %s

; CHECK: define internal void @k.body({{.*}}) !dbg ![[K:[0-9]+]] {
; CHECK-NEXT: store i32 1, ptr %out, align 4, !dbg ![[L2:[0-9]+]]
; CHECK: define void @wg_k({{.*}}) !dbg ![[WG:[0-9]+]] {
; CHECK-NEXT: call void @k.body({{.*}}), !dbg ![[CALL:[0-9]+]]
; CHECK: define void @k.region({{.*}}) !dbg ![[REG:[0-9]+]] {
; CHECK-NEXT: store i32 2, ptr %out, align 4, !dbg ![[INL:[0-9]+]]
; CHECK-LABEL: define void @no_debug(ptr %out) {
; CHECK-NEXT: store i32 3, ptr %out, align 4{{$}}
; CHECK: ![[K]] = distinct !DISubprogram(name: "k",
; CHECK: ![[L2]] = !DILocation(line: 2, column: 3, scope: ![[K]])
; CHECK: ![[WG]] = distinct !DISubprogram(name: "wg_k", linkageName: "wg_k", {{.*}}flags: DIFlagArtificial | DIFlagPrototyped
; CHECK: ![[CALL]] = !DILocation(line: 0, scope: ![[WG]])
; CHECK: ![[REG]] = distinct !DISubprogram(name: "k.region", {{.*}}line: 1, {{.*}}flags: DIFlagArtificial
; CHECK: ![[INL]] = !DILocation(line: 3, column: 1, scope: ![[K]], inlinedAt: ![[AT:[0-9]+]])
; CHECK: ![[AT]] = !DILocation(line: 1, scope: ![[REG]])

define internal void @k.body(ptr %out, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
  store i32 1, ptr %out, align 4, !dbg !7
  ret void, !dbg !8
}

define void @wg_k(ptr %args, ptr %ctx) {
  call void @k.body(ptr null, ptr %ctx, i64 0, i64 0, i64 0)
  ret void
}

define void @k.region(ptr %out) {
  store i32 2, ptr %out, align 4, !dbg !8
  ret void
}

define void @no_debug(ptr %out) {
  store i32 3, ptr %out, align 4
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_OpenCL, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "input.cl", directory: "/clcpu-program")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!7 = !DILocation(line: 2, column: 3, scope: !4)
!8 = !DILocation(line: 3, column: 1, scope: !4)
