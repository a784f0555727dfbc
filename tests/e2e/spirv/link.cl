// A kernel calling a function that another program defines (linked with
// clLinkProgram, tests/e2e/SpirvTests.cpp); compiled into link.spvasm as
// kernels.cl is into kernels.spvasm.
int triple_plus(int x, global const int *bias);
kernel void use_helper(global int *p, global const int *bias) {
  size_t i = get_global_id(0);
  p[i] = triple_plus(p[i], bias);
}
