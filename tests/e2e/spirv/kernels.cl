// Kernels of tests/e2e/SpirvTests.cpp, compiled to SPIR-V with clang-15
// -target spir64 -cl-std=CL2.0 -O2 and llvm-spirv-15, then disassembled by
// spirv-dis into kernels.spvasm (which the build assembles).
kernel void scale_add(global const float *a, global float *b, float s) {
  size_t i = get_global_id(0);
  b[i] = a[i] * s + sqrt(a[i]);
}

kernel void reverse_in_group(global const int *in, global int *out,
                             local int *tmp, global int *count) {
  size_t l = get_local_id(0), n = get_local_size(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[n - 1 - l];
  atomic_inc(count);
}

kernel void group_sum(global const int *in, global int *out) {
  int s = work_group_reduce_add(in[get_global_id(0)]);
  if (get_local_id(0) == 0)
    out[get_group_id(0)] = s;
}

kernel void vector_math(global const float4 *in, global float4 *out) {
  size_t i = get_global_id(0);
  float4 v = vload4(i, (global const float *)in);
  float f;
  float r = fract(v.x, &f);
  out[i] = (float4)(dot(v, v), r + f, fmax(v.z, v.w), clamp(v.y, 0.0f, 1.0f));
}

// Vectors wider than the vector registers: the builtin library takes them
// in memory (compiler/passes/BuiltinCallAbi.cpp).
kernel void wide_math(global const double16 *in, global double16 *out,
                      global const float16 *fin, global float16 *fout) {
  size_t i = get_global_id(0);
  out[i] = sin(in[i]) + fmax(in[i], 0.5);
  fout[i] = cos(fin[i]);
}
