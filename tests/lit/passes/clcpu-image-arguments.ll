; clcpu-image-arguments: the loads of an image descriptor (runtime/Image.h's
; DeviceImage, which a launch never changes) are invariant, so that image
; writes do not keep them in the work-item loop; in a launch's
; specialization (compiler::ArgBindings) the loads of the order (offset 40),
; data type (44), element size (48) and channel count (52) are the bound
; format's constants, and a bound sampler parameter is its bits. The
; parameters come spilled to allocas, as the front end leaves them.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64 \
; RUN:   -passes=clcpu-image-arguments %s | FileCheck %s

; A bound image (CL_RGBA = 0x10B5 = 4277, CL_FLOAT = 0x10DE = 4318, 16-byte
; elements, 4 channels) read through its spill slot, and a bound sampler
; (0x22: normalized, clamp-to-edge, linear).
; CHECK-LABEL: define void @bound(
; CHECK: %width = load i32, ptr addrspace(1) %w.addr, align 4, !invariant.load
; CHECK-NOT: load i32, ptr addrspace(1) %order.addr
; CHECK-NOT: load i32, ptr addrspace(1) %type.addr
; CHECK: store volatile i32 4277, ptr %out
; CHECK: store volatile i32 4318, ptr %out
; CHECK: store volatile i32 16, ptr %out
; CHECK: store volatile i32 4, ptr %out
; CHECK: store volatile i32 %width, ptr %out
; CHECK: %bits = ptrtoint ptr addrspace(2) inttoptr (i64 34 to ptr addrspace(2)) to i64
; CHECK: store volatile i64 %bits, ptr %out
; CHECK-NOT: clcpu.image_args
define void @bound(ptr addrspace(1) %img, ptr addrspace(2) %smp, ptr %out) !clcpu.image_args !0 {
entry:
  %img.addr = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %img, ptr %img.addr, align 8
  %d = load ptr addrspace(1), ptr %img.addr, align 8
  %order.addr = getelementptr inbounds i8, ptr addrspace(1) %d, i64 40
  %order = load i32, ptr addrspace(1) %order.addr, align 8
  %type.addr = getelementptr inbounds i8, ptr addrspace(1) %d, i64 44
  %type = load i32, ptr addrspace(1) %type.addr, align 4
  %size.addr = getelementptr inbounds i8, ptr addrspace(1) %d, i64 48
  %size = load i32, ptr addrspace(1) %size.addr, align 8
  %ch.addr = getelementptr inbounds i8, ptr addrspace(1) %d, i64 52
  %ch = load i32, ptr addrspace(1) %ch.addr, align 4
  %w.addr = getelementptr inbounds i8, ptr addrspace(1) %d, i64 24
  %width = load i32, ptr addrspace(1) %w.addr, align 4
  store volatile i32 %order, ptr %out
  store volatile i32 %type, ptr %out
  store volatile i32 %size, ptr %out
  store volatile i32 %ch, ptr %out
  store volatile i32 %width, ptr %out
  %bits = ptrtoint ptr addrspace(2) %smp to i64
  store volatile i64 %bits, ptr %out
  ret void
}

; An image without bound values (the ordinary build): its loads only become
; invariant, the data pointer's too; a load of another pointer does not.
; CHECK-LABEL: define void @unbound(
; CHECK: %data = load ptr addrspace(1), ptr addrspace(1) %img, align 8, !invariant.load
; CHECK: %order = load i32, ptr addrspace(1) %order.addr, align 8, !invariant.load
; CHECK: %other = load i32, ptr addrspace(1) %p, align 4{{$}}
; CHECK: store i32 %order, ptr addrspace(1) %data
define void @unbound(ptr addrspace(1) %img, ptr addrspace(1) %p) !clcpu.image_args !3 {
entry:
  %data = load ptr addrspace(1), ptr addrspace(1) %img, align 8
  %order.addr = getelementptr inbounds i8, ptr addrspace(1) %img, i64 40
  %order = load i32, ptr addrspace(1) %order.addr, align 8
  %other = load i32, ptr addrspace(1) %p, align 4
  store i32 %order, ptr addrspace(1) %data
  store i32 %other, ptr addrspace(1) %data
  ret void
}

; A spill slot that also holds something else is not the parameter.
; CHECK-LABEL: define i32 @shared_slot(
; CHECK: %order = load i32, ptr addrspace(1) %order.addr, align 8{{$}}
define i32 @shared_slot(ptr addrspace(1) %img, ptr addrspace(1) %q) !clcpu.image_args !5 {
entry:
  %slot = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %img, ptr %slot, align 8
  store ptr addrspace(1) %q, ptr %slot, align 8
  %d = load ptr addrspace(1), ptr %slot, align 8
  %order.addr = getelementptr inbounds i8, ptr addrspace(1) %d, i64 40
  %order = load i32, ptr addrspace(1) %order.addr, align 8
  ret i32 %order
}

!0 = !{!1, !2}
!1 = !{i32 0, !"image", i32 4277, i32 4318, i32 16, i32 4}
!2 = !{i32 1, !"sampler", i32 34}
!3 = !{!4}
!4 = !{i32 0, !"image"}
!5 = !{!6}
!6 = !{i32 0, !"image", i32 4277, i32 4318, i32 16, i32 4}
