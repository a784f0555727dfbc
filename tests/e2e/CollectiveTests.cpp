// End-to-end: work-group collective functions (OpenCL C 3.0, 6.15.16
// "Work-group Collective Functions"; optional feature
// __opencl_c_work_group_collective_functions) against host references, on
// local sizes 1, 3, 7, 64, 100 and 256 in 1D, 2D and 3D, for int, uint,
// long, ulong and float.

#include "CollectiveReference.h"
#include "SchedulerCommon.h"

#include <algorithm>
#include <limits>
#include <random>
#include <set>

using sched::Env;

namespace {

using collective::Ops;

/// One kernel per type and dimension count: out[g * Ops + k] is operation k
/// of work-item g (global linear id).
std::string source() {
  return R"(
kernel void coll(global const T *in, global T *out, global int *pred,
                 uint bx, uint by, uint bz) {
  size_t g = get_global_linear_id();
  T v = in[g];
  global T *o = out + g * 12;
  o[0] = work_group_reduce_add(v);
  o[1] = work_group_reduce_min(v);
  o[2] = work_group_reduce_max(v);
  o[3] = work_group_scan_inclusive_add(v);
  o[4] = work_group_scan_inclusive_min(v);
  o[5] = work_group_scan_inclusive_max(v);
  o[6] = work_group_scan_exclusive_add(v);
  o[7] = work_group_scan_exclusive_min(v);
  o[8] = work_group_scan_exclusive_max(v);
#if DIMS == 1
  o[9] = work_group_broadcast(v, bx);
#elif DIMS == 2
  o[9] = work_group_broadcast(v, bx, by);
#else
  o[9] = work_group_broadcast(v, bx, by, bz);
#endif
  o[10] = work_group_all(v > (T)-40);
  o[11] = work_group_any(v == (T)7);
  pred[g] = work_group_all(1) + 2 * work_group_any(0);
}
)";
}

template <typename T>
void check(Env &E, const char *TypeName, unsigned Dims, const size_t *L) {
  std::string Opt = std::string("-cl-std=CL3.0 -DT=") + TypeName +
                    " -DDIMS=" + std::to_string(Dims);
  cl_kernel K = E.kernel(source(), "coll", Opt.c_str());
  size_t Groups[3] = {3, 2, 2};
  size_t G[3] = {1, 1, 1}, Lf[3] = {1, 1, 1};
  for (unsigned D = 0; D < Dims; ++D) {
    Lf[D] = L[D];
    G[D] = L[D] * Groups[D];
  }
  size_t N = G[0] * G[1] * G[2];
  std::mt19937 R(static_cast<unsigned>(N * 31 + Dims));
  std::vector<T> In(N);
  for (T &X : In) {
    if constexpr (std::is_unsigned_v<T>)
      X = static_cast<T>(R() % 100);
    else
      X = static_cast<T>(static_cast<int>(R() % 101) - 50);
  }
  cl_uint B[3] = {static_cast<cl_uint>(Lf[0] - 1),
                  static_cast<cl_uint>(Lf[1] / 2),
                  static_cast<cl_uint>(Lf[2] - 1)};
  cl_mem A = E.buffer(In), O = E.buffer(std::vector<T>(N * Ops));
  cl_mem P = E.buffer(std::vector<cl_int>(N, -1));
  E.arg(K, 0, A);
  E.arg(K, 1, O);
  E.arg(K, 2, P);
  E.arg(K, 3, B[0]);
  E.arg(K, 4, B[1]);
  E.arg(K, 5, B[2]);
  REQUIRE(E.run(K, Dims, G, L) == CL_SUCCESS);
  std::vector<T> Out = E.read<T>(O, N * Ops);
  std::vector<cl_int> Pred = E.read<cl_int>(P, N);

  size_t Bad = 0;
  size_t Items = Lf[0] * Lf[1] * Lf[2];
  for (size_t Gz = 0; Gz < G[2] / Lf[2]; ++Gz)
    for (size_t Gy = 0; Gy < G[1] / Lf[1]; ++Gy)
      for (size_t Gx = 0; Gx < G[0] / Lf[0]; ++Gx) {
        // The group's global linear ids in local linear id order.
        std::vector<size_t> Ids;
        for (size_t Z = 0; Z < Lf[2]; ++Z)
          for (size_t Y = 0; Y < Lf[1]; ++Y)
            for (size_t X = 0; X < Lf[0]; ++X)
              Ids.push_back(((Gz * Lf[2] + Z) * G[1] + Gy * Lf[1] + Y) * G[0] +
                            Gx * Lf[0] + X);
        size_t From = B[0] + Lf[0] * (B[1] + Lf[1] * B[2]);
        auto Ref = collective::reference(In, Ids, From);
        for (size_t J = 0; J < Items; ++J) {
          const T *Got = &Out[Ids[J] * Ops];
          const auto &Want = Ref[J];
          for (int Op = 0; Op < Ops; ++Op)
            if (Got[Op] != Want[Op]) {
              if (Bad < 5)
                UNSCOPED_INFO("item " << Ids[J] << " op " << Op << " got "
                                      << Got[Op] << " want " << Want[Op]);
              ++Bad;
            }
          Bad += Pred[Ids[J]] != 1;
        }
      }
  CHECK(Bad == 0);
}

const std::vector<std::vector<size_t>> Shapes1 = {{1},  {3},   {7},
                                                  {64}, {100}, {256}};
const std::vector<std::vector<size_t>> Shapes2 = {{1, 1}, {1, 3},   {7, 1},
                                                  {8, 8}, {10, 10}, {16, 16}};
const std::vector<std::vector<size_t>> Shapes3 = {
    {1, 1, 1}, {1, 3, 1}, {7, 1, 1}, {4, 4, 4}, {5, 5, 4}, {8, 4, 8}};

template <typename T> void checkAll(const char *TypeName) {
  Env E;
  for (unsigned Dims = 1; Dims <= 3; ++Dims)
    for (const auto &S : Dims == 1 ? Shapes1 : Dims == 2 ? Shapes2 : Shapes3) {
      INFO(TypeName << " " << Dims << "D local " << S[0] << "x"
                    << (S.size() > 1 ? S[1] : 1) << "x"
                    << (S.size() > 2 ? S[2] : 1));
      check<T>(E, TypeName, Dims, S.data());
    }
}

} // namespace

TEST_CASE("6.15.16: the device reports collectives and exactly the OpenCL C "
          "3.0 feature macros it defines",
          "[collective]") {
  Env E;
  CHECK(deviceInfo<cl_bool>(
            E.D, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT) == CL_TRUE);
  size_t Size = 0;
  REQUIRE(clGetDeviceInfo(E.D, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr,
                          &Size) == CL_SUCCESS);
  std::vector<cl_name_version> F(Size / sizeof(cl_name_version));
  REQUIRE(clGetDeviceInfo(E.D, CL_DEVICE_OPENCL_C_FEATURES, Size, F.data(),
                          nullptr) == CL_SUCCESS);
  std::set<std::string> Reported;
  for (const cl_name_version &V : F)
    Reported.insert(V.name);
  CHECK(Reported.count("__opencl_c_work_group_collective_functions") == 1);
  // Every OpenCL C 3.0 feature macro (OpenCL C spec 6.2.1).
  const char *All[] = {"__opencl_c_3d_image_writes",
                       "__opencl_c_atomic_order_acq_rel",
                       "__opencl_c_atomic_order_seq_cst",
                       "__opencl_c_atomic_scope_device",
                       "__opencl_c_atomic_scope_all_devices",
                       "__opencl_c_device_enqueue",
                       "__opencl_c_generic_address_space",
                       "__opencl_c_fp64",
                       "__opencl_c_images",
                       "__opencl_c_int64",
                       "__opencl_c_pipes",
                       "__opencl_c_program_scope_global_variables",
                       "__opencl_c_read_write_images",
                       "__opencl_c_subgroups",
                       "__opencl_c_work_group_collective_functions",
                       "__opencl_c_integer_dot_product_input_4x8bit",
                       "__opencl_c_integer_dot_product_input_4x8bit_packed"};
  std::string Src = "kernel void f(global int *o) {\n";
  for (size_t I = 0; I < std::size(All); ++I)
    Src += std::string("#ifdef ") + All[I] + "\n  o[" + std::to_string(I) +
           "] = 1;\n#else\n  o[" + std::to_string(I) + "] = 0;\n#endif\n";
  Src += "}\n";
  cl_kernel K = E.kernel(Src, "f", "-cl-std=CL3.0");
  cl_mem O = E.buffer(std::vector<cl_int>(std::size(All), -1));
  E.arg(K, 0, O);
  size_t One = 1;
  REQUIRE(E.run(K, 1, &One, &One) == CL_SUCCESS);
  std::vector<cl_int> Def = E.read<cl_int>(O, std::size(All));
  for (size_t I = 0; I < std::size(All); ++I) {
    INFO(All[I]);
    CHECK(Def[I] == static_cast<cl_int>(Reported.count(All[I])));
  }
}

TEST_CASE("6.15.16: the specification's scan example", "[collective]") {
  Env E;
  const char *Src = R"(
kernel void scans(global const int *in, global int *inc, global int *exc) {
  size_t g = get_global_id(0);
  inc[g] = work_group_scan_inclusive_add(in[g]);
  exc[g] = work_group_scan_exclusive_add(in[g]);
}
)";
  cl_kernel K = E.kernel(Src, "scans", "-cl-std=CL3.0");
  std::vector<int> In = {3, 1, 7, 0, 4, 1, 6, 3};
  cl_mem A = E.buffer(In), I = E.buffer(std::vector<int>(8)),
         X = E.buffer(std::vector<int>(8));
  E.arg(K, 0, A);
  E.arg(K, 1, I);
  E.arg(K, 2, X);
  size_t G = 8;
  REQUIRE(E.run(K, 1, &G, &G) == CL_SUCCESS);
  CHECK(E.read<int>(I, 8) == std::vector<int>{3, 4, 11, 11, 15, 16, 22, 25});
  CHECK(E.read<int>(X, 8) == std::vector<int>{0, 3, 4, 11, 11, 15, 16, 22});
}

TEST_CASE("6.15.16: collectives on int", "[collective]") {
  checkAll<cl_int>("int");
}
TEST_CASE("6.15.16: collectives on uint", "[collective]") {
  checkAll<cl_uint>("uint");
}
TEST_CASE("6.15.16: collectives on long", "[collective]") {
  checkAll<cl_long>("long");
}
TEST_CASE("6.15.16: collectives on ulong", "[collective]") {
  checkAll<cl_ulong>("ulong");
}
TEST_CASE("6.15.16: collectives on float", "[collective]") {
  checkAll<cl_float>("float");
}

TEST_CASE("6.15.16: collectives on double (cl_khr_fp64)", "[collective]") {
  checkAll<cl_double>("double");
}
