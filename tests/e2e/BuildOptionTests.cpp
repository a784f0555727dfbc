// Build options whose effect shows in results (OpenCL 3.0 API 5.8.6), run
// through the loader. The code-shape effects of the math options are
// checked on the IR in tests/lit/kernels/math_options_ir.cl.

#include "SchedulerCommon.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

TEST_CASE("5.8.6.3: -cl-fp32-correctly-rounded-divide-sqrt: float x / y and "
          "sqrt(x) are correctly rounded",
          "[options]") {
  sched::Env E;
  // The option is only valid on devices that report the capability.
  auto Config =
      deviceInfo<cl_device_fp_config>(E.D, CL_DEVICE_SINGLE_FP_CONFIG);
  REQUIRE((Config & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0);
  cl_kernel K = E.kernel(R"(
    kernel void k(global const float *x, global const float *y,
                  global float *q, global float *r) {
      size_t i = get_global_id(0);
      q[i] = x[i] / y[i];
      r[i] = sqrt(x[i]);
    })",
                         "k", "-cl-fp32-correctly-rounded-divide-sqrt");
  const size_t N = 1 << 16;
  std::mt19937 Rng(7);
  std::vector<float> X(N), Y(N);
  for (size_t I = 0; I < N; ++I) {
    // Random bit patterns: all exponents, denormals included; no NaN/inf.
    uint32_t A, B;
    do
      A = Rng() & 0x7fffffffu;
    while ((A >> 23) == 0xff);
    do
      B = Rng();
    while (((B >> 23) & 0xff) == 0xff || (B & 0x7fffffffu) == 0);
    std::memcpy(&X[I], &A, 4);
    std::memcpy(&Y[I], &B, 4);
  }
  cl_mem MX = E.buffer(X), MY = E.buffer(Y),
         MQ = E.buffer(std::vector<float>(N)),
         MR = E.buffer(std::vector<float>(N));
  E.arg(K, 0, MX);
  E.arg(K, 1, MY);
  E.arg(K, 2, MQ);
  E.arg(K, 3, MR);
  REQUIRE(E.run(K, 1, &N, nullptr) == CL_SUCCESS);
  std::vector<float> Q = E.read<float>(MQ, N), R = E.read<float>(MR, N);
  size_t Bad = 0;
  for (size_t I = 0; I < N; ++I) {
    // The host's IEEE float operations round correctly.
    float WantQ = X[I] / Y[I], WantR = std::sqrt(X[I]);
    if ((std::memcmp(&Q[I], &WantQ, 4) || std::memcmp(&R[I], &WantR, 4)) &&
        Bad++ < 5)
      FAIL_CHECK("x=" << X[I] << " y=" << Y[I] << ": " << Q[I] << " vs "
                      << WantQ << ", " << R[I] << " vs " << WantR);
  }
  CHECK(Bad == 0);
}

TEST_CASE("5.8.6.1: -D name=value and -I dir reach the preprocessor",
          "[options]") {
  sched::Env E;
  std::string Log;
  // -I names a directory the front end can read; the header is on disk.
  std::string Dir = std::string(CLCPU_TEST_TMPDIR) + "/include-option";
  std::string Cmd = "mkdir -p '" + Dir + "'";
  REQUIRE(std::system(Cmd.c_str()) == 0);
  {
    FILE *H = std::fopen((Dir + "/scale.h").c_str(), "w");
    REQUIRE(H);
    std::fputs("#define SCALE 3\n", H);
    std::fclose(H);
  }
  std::string Opts = "-D OFFSET=40 -I " + Dir;
  cl_kernel K = E.kernel(R"(
    #include "scale.h"
    kernel void k(global int *p) { p[get_global_id(0)] = SCALE * (int)get_global_id(0) + OFFSET; })",
                         "k", Opts.c_str());
  cl_mem M = E.buffer(std::vector<int>(8));
  E.arg(K, 0, M);
  size_t G = 8;
  REQUIRE(E.run(K, 1, &G, nullptr) == CL_SUCCESS);
  std::vector<int> R = E.read<int>(M, 8);
  for (int I = 0; I < 8; ++I)
    CHECK(R[I] == 3 * I + 40);
}

//===----------------------------------------------------------------------===//
// OpenCL C 3.0 6.2.1 / 6.13: "the macro for an extension is defined if the
// device supports it", and a feature macro exactly when the device reports
// the feature. A macro for something the device lacks makes a program take a
// path that cannot build (clpeak's `#if defined(cl_khr_fp16)`).
//===----------------------------------------------------------------------===//

namespace {
/// Every extension and feature macro name a compiler could predefine: the
/// Khronos registry's OpenCL C extensions and OpenCL C 3.0 features, and
/// the vendor ones Clang knows.
const char *const CandidateMacros[] = {
    "cl_khr_3d_image_writes",
    "cl_khr_byte_addressable_store",
    "cl_khr_d3d10_sharing",
    "cl_khr_d3d11_sharing",
    "cl_khr_depth_images",
    "cl_khr_device_enqueue_local_arg_types",
    "cl_khr_dx9_media_sharing",
    "cl_khr_egl_event",
    "cl_khr_egl_image",
    "cl_khr_expect_assume",
    "cl_khr_extended_async_copies",
    "cl_khr_extended_bit_ops",
    "cl_khr_fp16",
    "cl_khr_fp64",
    "cl_khr_gl_depth_images",
    "cl_khr_gl_event",
    "cl_khr_gl_msaa_sharing",
    "cl_khr_gl_sharing",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_icd",
    "cl_khr_il_program",
    "cl_khr_image2d_from_buffer",
    "cl_khr_initialize_memory",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_khr_integer_dot_product",
    "cl_khr_kernel_clock",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "cl_khr_mipmap_image",
    "cl_khr_mipmap_image_writes",
    "cl_khr_priority_hints",
    "cl_khr_spir",
    "cl_khr_srgb_image_writes",
    "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_clustered_reduce",
    "cl_khr_subgroup_extended_types",
    "cl_khr_subgroup_named_barrier",
    "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_rotate",
    "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroups",
    "cl_khr_terminate_context",
    "cl_khr_throttle_hints",
    "cl_khr_work_group_uniform_arithmetic",
    "cl_ext_float_atomics",
    "cl_ext_image_raw10_raw12",
    "cles_khr_int64",
    "cl_amd_media_ops",
    "cl_amd_media_ops2",
    "cl_intel_subgroups",
    "cl_intel_subgroups_short",
    "cl_intel_device_side_avc_motion_estimation",
    "cl_clang_storage_class_specifiers",
    "__cl_clang_function_pointers",
    "__cl_clang_variadic_functions",
    "__cl_clang_non_portable_kernel_param_types",
    "__cl_clang_bitfields",
    "__opencl_c_3d_image_writes",
    "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device",
    "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_device_enqueue",
    "__opencl_c_fp16",
    "__opencl_c_fp64",
    "__opencl_c_generic_address_space",
    "__opencl_c_images",
    "__opencl_c_int64",
    "__opencl_c_integer_dot_product_input_4x8bit",
    "__opencl_c_integer_dot_product_input_4x8bit_packed",
    "__opencl_c_kernel_clock_scope_device",
    "__opencl_c_kernel_clock_scope_work_group",
    "__opencl_c_kernel_clock_scope_sub_group",
    "__opencl_c_pipes",
    "__opencl_c_program_scope_global_variables",
    "__opencl_c_read_write_images",
    "__opencl_c_subgroups",
    "__opencl_c_work_group_collective_functions",
    "__opencl_c_ext_fp16_global_atomic_load_store",
    "__opencl_c_ext_fp32_global_atomic_add",
    "__opencl_c_ext_fp64_global_atomic_add"};

std::vector<std::string> splitNames(const std::string &S) {
  std::vector<std::string> Out;
  size_t I = 0;
  while (I < S.size()) {
    size_t J = S.find(' ', I);
    if (J == std::string::npos)
      J = S.size();
    if (J > I)
      Out.push_back(S.substr(I, J - I));
    I = J + 1;
  }
  return Out;
}
} // namespace

TEST_CASE("OpenCL C 6.2.1: predefined extension and feature macros are "
          "exactly the device's for every -cl-std",
          "[options][extensions]") {
  sched::Env E;
  REQUIRE(E.Q);
  std::vector<std::string> Extensions =
      splitNames(deviceString(E.D, CL_DEVICE_EXTENSIONS));
  REQUIRE(!Extensions.empty());
  size_t N = 0;
  REQUIRE(clGetDeviceInfo(E.D, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &N) ==
          CL_SUCCESS);
  std::vector<cl_name_version> FeatureList(N / sizeof(cl_name_version));
  REQUIRE(clGetDeviceInfo(E.D, CL_DEVICE_OPENCL_C_FEATURES, N,
                          FeatureList.data(), nullptr) == CL_SUCCESS);
  std::vector<std::string> Features;
  for (const cl_name_version &F : FeatureList)
    Features.push_back(F.name);
  // Every reported name is a candidate too, so that none is missed.
  std::vector<std::string> Names(std::begin(CandidateMacros),
                                 std::end(CandidateMacros));
  for (const std::vector<std::string> *L : {&Extensions, &Features})
    for (const std::string &X : *L)
      if (std::find(Names.begin(), Names.end(), X) == Names.end())
        Names.push_back(X);
  std::string Src = "kernel void k(global int *o) {\n";
  for (size_t I = 0; I < Names.size(); ++I)
    Src += "#ifdef " + Names[I] + "\n  o[" + std::to_string(I) +
           "] = 1;\n#endif\n";
  Src += "}\n";
  auto Has = [](const std::vector<std::string> &L, const std::string &X) {
    return std::find(L.begin(), L.end(), X) != L.end();
  };
  for (const char *Std : {"", "-cl-std=CL1.0", "-cl-std=CL1.1", "-cl-std=CL1.2",
                          "-cl-std=CL3.0"}) {
    CAPTURE(Std);
    bool Is30 = std::string(Std) == "-cl-std=CL3.0";
    cl_program P = E.build(Src, Std);
    cl_mem Out = E.buffer(std::vector<int>(Names.size(), 0));
    E.run(P, "k", {Out}, 1, 1);
    std::vector<int> Got = E.read<int>(Out, Names.size());
    for (size_t I = 0; I < Names.size(); ++I) {
      const std::string &X = Names[I];
      bool Feature = X.rfind("__opencl_c_", 0) == 0;
      // Feature macros belong to OpenCL C 3.0; __opencl_c_int64 is the
      // one Clang defines for every version (a full profile has 64-bit
      // integers in every version), and the extensions that define
      // feature macros of their own (cl_khr_integer_dot_product,
      // cl_khr_kernel_clock: their builtins are declared under them) need
      // only OpenCL C 1.0.
      bool OfExtension = X.rfind("__opencl_c_integer_dot_product_", 0) == 0 ||
                         X.rfind("__opencl_c_kernel_clock_", 0) == 0;
      bool Want = Feature ? (Is30 || X == "__opencl_c_int64" || OfExtension) &&
                                Has(Features, X)
                          : Has(Extensions, X);
      CAPTURE(X);
      CHECK((Got[I] == 1) == Want);
    }
  }
}
