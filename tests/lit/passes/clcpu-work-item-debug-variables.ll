; clcpu-work-item-debug-variables (-g, docs/DEBUGGING.md): a kernel body
; whose code has debug locations gets __global_id, __local_id and
; __group_id, artificial size_t[3] variables of the kernel's subprogram (the
; one its locations are in), filled at its entry from the work-item
; functions that clcpu-work-item-calls lowers next. A body without debug
; information is left alone.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu \
; RUN:   -passes=clcpu-work-item-debug-variables %s | FileCheck %s

; CHECK-LABEL: define internal void @k.body(
; CHECK: %__global_id = alloca [3 x i64]
; CHECK: call i64 @_Z13get_global_idj(i32 0)
; CHECK: call i64 @_Z13get_global_idj(i32 1)
; CHECK: call i64 @_Z13get_global_idj(i32 2)
; CHECK: #dbg_declare(ptr %__global_id, ![[GID:[0-9]+]], !DIExpression(),
; CHECK: %__local_id = alloca [3 x i64]
; CHECK: call i64 @_Z12get_local_idj(i32 2)
; CHECK: #dbg_declare(ptr %__local_id, ![[LID:[0-9]+]], !DIExpression(),
; CHECK: %__group_id = alloca [3 x i64]
; CHECK: call i64 @_Z12get_group_idj(i32 2)
; CHECK: #dbg_declare(ptr %__group_id, ![[GRP:[0-9]+]], !DIExpression(),
; CHECK: %g = call i64 @_Z13get_global_idj(i32 0)
; CHECK-LABEL: define internal void @plain.body(
; CHECK-NEXT: store i64 0, ptr %out
; CHECK-NEXT: ret void
; CHECK: ![[SP:[0-9]+]] = distinct !DISubprogram(name: "k",
; CHECK: ![[GID]] = !DILocalVariable(name: "__global_id", scope: ![[SP]], file: !{{[0-9]+}}, line: 1, type: ![[ARR:[0-9]+]], flags: DIFlagArtificial)
; CHECK: ![[ARR]] = !DICompositeType(tag: DW_TAG_array_type, baseType: ![[SZ:[0-9]+]], size: 192
; CHECK: ![[SZ]] = !DIBasicType(name: "size_t", size: 64, encoding: DW_ATE_unsigned)
; CHECK: ![[LID]] = !DILocalVariable(name: "__local_id", scope: ![[SP]]
; CHECK: ![[GRP]] = !DILocalVariable(name: "__group_id", scope: ![[SP]]

declare i64 @_Z13get_global_idj(i32)

define internal void @k.body(ptr %out, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
  %g = call i64 @_Z13get_global_idj(i32 0), !dbg !7
  store i64 %g, ptr %out, align 8, !dbg !7
  ret void, !dbg !7
}

define internal void @plain.body(ptr %out, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
  store i64 0, ptr %out, align 8
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
