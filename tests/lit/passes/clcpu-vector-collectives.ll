; cl_khr_subgroup_extended_types lets sub_group_broadcast and
; sub_group_non_uniform_broadcast take vectors, but the collectives compute
; on 64 bits per work-item. clcpu-vector-collectives splits such a call into
; one scalar broadcast of the same name per component, with the same index,
; reading the vector through whatever the x86-64 ABI passed it as.
;  * float4: passed as <4 x float>; four calls of
;    _Z19sub_group_broadcastfj (the declaration the module already has is
;    reused), their results inserted back into a <4 x float>.
;  * char3 (non-uniform): coerced to an i32, so its bits are read as
;    <4 x i8> (the padding lane is broadcast too) and the result is
;    bitcast back to i32; the new scalar declaration is convergent nounwind.
;  * int2: coerced to a double; two i32 broadcasts, bitcast back to double.
;  * double16: passed byval through a pointer; the vector is loaded from it
;    and broadcast as sixteen doubles.
;  * scalar float: already a scalar builtin, left alone.
;  * half4 (cl_khr_fp16): four broadcasts of half, whose mangled element
;    type is the two letters Dh.
;  * a vector returned through memory (void call with an sret pointer) is
;    left alone.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-vector-collectives %s | FileCheck %s

; CHECK-LABEL: define <4 x float> @float4(
; CHECK-NEXT: [[X:%.*]] = extractelement <4 x float> %v, i64 0
; CHECK-NEXT: [[RX:%.*]] = call float @_Z19sub_group_broadcastfj(float [[X]], i32 %i) #[[CONV:[0-9]+]]
; CHECK-NEXT: [[I0:%.*]] = insertelement <4 x float> poison, float [[RX]], i64 0
; CHECK-NEXT: [[Y:%.*]] = extractelement <4 x float> %v, i64 1
; CHECK-NEXT: [[RY:%.*]] = call float @_Z19sub_group_broadcastfj(float [[Y]], i32 %i) #[[CONV]]
; CHECK-NEXT: [[I1:%.*]] = insertelement <4 x float> [[I0]], float [[RY]], i64 1
; CHECK-NEXT: [[Z:%.*]] = extractelement <4 x float> %v, i64 2
; CHECK-NEXT: [[RZ:%.*]] = call float @_Z19sub_group_broadcastfj(float [[Z]], i32 %i) #[[CONV]]
; CHECK-NEXT: [[I2:%.*]] = insertelement <4 x float> [[I1]], float [[RZ]], i64 2
; CHECK-NEXT: [[W:%.*]] = extractelement <4 x float> %v, i64 3
; CHECK-NEXT: [[RW:%.*]] = call float @_Z19sub_group_broadcastfj(float [[W]], i32 %i) #[[CONV]]
; CHECK-NEXT: [[I3:%.*]] = insertelement <4 x float> [[I2]], float [[RW]], i64 3
; CHECK-NEXT: ret <4 x float> [[I3]]
define <4 x float> @float4(<4 x float> %v, i32 %i) {
  %r = call <4 x float> @_Z19sub_group_broadcastDv4_fj(<4 x float> %v, i32 %i) #0
  ret <4 x float> %r
}

; CHECK-LABEL: define i32 @char3_coerced(
; CHECK-NEXT: [[VEC:%.*]] = bitcast i32 %v to <4 x i8>
; CHECK-COUNT-4: call i8 @_Z31sub_group_non_uniform_broadcastcj(i8 {{%.*}}, i32 2)
; CHECK: [[RES:%.*]] = insertelement <4 x i8> {{%.*}}, i8 {{%.*}}, i64 3
; CHECK-NEXT: [[OUT:%.*]] = bitcast <4 x i8> [[RES]] to i32
; CHECK-NEXT: ret i32 [[OUT]]
define i32 @char3_coerced(i32 %v) {
  %r = call i32 @_Z31sub_group_non_uniform_broadcastDv3_cj(i32 %v, i32 2) #0
  ret i32 %r
}

; CHECK-LABEL: define double @int2_coerced(
; CHECK-NEXT: [[VEC:%.*]] = bitcast double %v to <2 x i32>
; CHECK-NEXT: [[A:%.*]] = extractelement <2 x i32> [[VEC]], i64 0
; CHECK-NEXT: [[RA:%.*]] = call i32 @_Z19sub_group_broadcastij(i32 [[A]], i32 %i)
; CHECK-NEXT: [[IA:%.*]] = insertelement <2 x i32> poison, i32 [[RA]], i64 0
; CHECK-NEXT: [[B:%.*]] = extractelement <2 x i32> [[VEC]], i64 1
; CHECK-NEXT: [[RB:%.*]] = call i32 @_Z19sub_group_broadcastij(i32 [[B]], i32 %i)
; CHECK-NEXT: [[IB:%.*]] = insertelement <2 x i32> [[IA]], i32 [[RB]], i64 1
; CHECK-NEXT: [[OUT:%.*]] = bitcast <2 x i32> [[IB]] to double
; CHECK-NEXT: ret double [[OUT]]
define double @int2_coerced(double %v, i32 %i) {
  %r = call double @_Z19sub_group_broadcastDv2_ij(double %v, i32 %i) #0
  ret double %r
}

; CHECK-LABEL: define <16 x double> @double16_byval(
; CHECK-NEXT: [[V:%.*]] = load <16 x double>, ptr %p
; CHECK-COUNT-16: call double @_Z19sub_group_broadcastdj(double {{%.*}}, i32 1)
; CHECK-NOT: @_Z19sub_group_broadcastDv16_dj
; CHECK: ret <16 x double>
define <16 x double> @double16_byval(ptr %p) {
  %r = call <16 x double> @_Z19sub_group_broadcastDv16_dj(ptr byval(<16 x double>) align 128 %p, i32 1) #0
  ret <16 x double> %r
}

; CHECK-LABEL: define float @scalar(
; CHECK-NEXT: %r = call float @_Z19sub_group_broadcastfj(float %v, i32 %i)
; CHECK-NEXT: ret float %r
define float @scalar(float %v, i32 %i) {
  %r = call float @_Z19sub_group_broadcastfj(float %v, i32 %i) #0
  ret float %r
}

; CHECK-LABEL: define <4 x half> @half4(
; CHECK-COUNT-4: call half @_Z19sub_group_broadcastDhj(half %{{[0-9]+}}, i32 %i)
; CHECK-NOT: call
; CHECK: ret <4 x half>
define <4 x half> @half4(<4 x half> %v, i32 %i) {
  %r = call <4 x half> @_Z19sub_group_broadcastDv4_Dhj(<4 x half> %v, i32 %i) #0
  ret <4 x half> %r
}

; CHECK-LABEL: define void @sret_result(
; CHECK-NEXT: call void @_Z19sub_group_broadcastDv8_dj(ptr sret(<8 x double>) %out, ptr byval(<8 x double>) %p, i32 0)
; CHECK-NEXT: ret void
define void @sret_result(ptr %out, ptr %p) {
  call void @_Z19sub_group_broadcastDv8_dj(ptr sret(<8 x double>) %out, ptr byval(<8 x double>) %p, i32 0) #0
  ret void
}

; CHECK-DAG: declare i8 @_Z31sub_group_non_uniform_broadcastcj(i8, i32) #[[DECL:[0-9]+]]
; CHECK-DAG: attributes #[[CONV]] = { convergent }
; CHECK-DAG: attributes #[[DECL]] = { convergent nounwind }

declare <4 x float> @_Z19sub_group_broadcastDv4_fj(<4 x float>, i32)
declare i32 @_Z31sub_group_non_uniform_broadcastDv3_cj(i32, i32)
declare double @_Z19sub_group_broadcastDv2_ij(double, i32)
declare <16 x double> @_Z19sub_group_broadcastDv16_dj(ptr, i32)
declare float @_Z19sub_group_broadcastfj(float, i32)
declare <4 x half> @_Z19sub_group_broadcastDv4_Dhj(<4 x half>, i32)
declare void @_Z19sub_group_broadcastDv8_dj(ptr, ptr, i32)

attributes #0 = { convergent nounwind }
