// A loop with a run-time trip count whose result reaches a store to an
// address that does not depend on the work-item (Boost.Compute's count_if
// and accumulate run such kernels on one work-item): the stored value was
// the one from before the loop (0 for count_if, not 3). Every reduction kind,
// element type, source (buffer or program-scope array), bound (constant or
// run-time) and work-item count, and the other places such a value can go:
// an atomic, a __local variable read after a barrier, printf.

#include "SchedulerCommon.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

using namespace sched;

namespace {

constexpr int N = 64;

/// Input element I: small integers and halves, so that float sums are exact
/// in any order; some above 2 and some not (count_if's predicate).
double inputValue(int I) { return ((I * 37) % 23) * 0.5 - 3.0; }

struct Shape {
  const char *Kind;  // count, sum, min, max
  const char *Type;  // element type: int, float, int4, float4
  const char *Acc;   // accumulator and result type: the element type, or a
                     // wider/other one (count_if counts floats in a uint,
                     // a sum of ints goes to a long)
  bool ProgramScope; // the loop reads a program-scope array
  bool RuntimeBound; // the trip count is an argument
  size_t WorkItems;
};

bool isVector(const std::string &T) { return T.back() == '4'; }
std::string scalarOf(const std::string &T) {
  return isVector(T) ? T.substr(0, T.size() - 1) : T;
}

std::string source(const Shape &S) {
  bool Vec = isVector(S.Type);
  std::ostringstream O;
  O << "#define T " << S.Type << "\n#define A " << S.Acc << "\n";
  if (S.ProgramScope)
    O << "global T g[" << N << "];\n"
      << "kernel void fill(global const T *in) {\n"
      << "  size_t i = get_global_id(0); if (i < " << N << ") g[i] = in[i];\n"
      << "}\n";
  std::string Src = S.ProgramScope ? "g" : "in";
  std::string Bound = S.RuntimeBound ? "n" : std::to_string(N);
  std::string Init, Step;
  std::string K = S.Kind;
  if (K == "count") {
    Init = "0";
    // count_if(x > 2): a vector counts its lanes.
    Step = Vec ? "acc += select((A)0, (A)1, " + Src + "[i] > (T)2)"
               : "if (" + Src + "[i] > (T)2) acc++";
  } else if (K == "sum") {
    Init = "0";
    Step = "acc += convert_" + std::string(S.Acc) + "(" + Src + "[i])";
  } else {
    Init = K == "min" ? "1000" : "-1000";
    Step = "acc = " + K + "(acc, convert_" + std::string(S.Acc) + "(" + Src +
           "[i]))";
  }
  O << "kernel void r(uint n, global A *result, global const T *in) {\n"
    << "  A acc = (A)(" << Init << ");\n"
    << "  for (uint i = 0; i < " << Bound << "; i++) { " << Step << "; }\n"
    << "  *result = acc;\n"
    << "}\n";
  return O.str();
}

/// Element \p I of the input, as the element type holds it.
double element(const Shape &S, int I) {
  double X = inputValue(I);
  return scalarOf(S.Type) == "int" ? std::trunc(X) : X;
}

/// The host's reduction of lane \p Lane (vectors: element I*4+Lane).
double reference(const Shape &S, int Lane) {
  bool Vec = isVector(S.Type);
  std::string K = S.Kind;
  double Acc = K == "count" || K == "sum" ? 0 : K == "min" ? 1000 : -1000;
  for (int I = 0; I < N; ++I) {
    double X = element(S, Vec ? I * 4 + Lane : I);
    if (K == "count")
      Acc += X > 2;
    else if (K == "sum")
      Acc += X;
    else if (K == "min")
      Acc = std::min(Acc, X);
    else
      Acc = std::max(Acc, X);
  }
  return Acc;
}

/// Lane \p L of a result of type \p T read back as bytes.
double resultLane(const std::vector<unsigned char> &Bytes, const std::string &T,
                  int L) {
  std::string E = scalarOf(T);
  auto Get = [&](auto Zero) {
    decltype(Zero) V;
    std::memcpy(&V, Bytes.data() + L * sizeof V, sizeof V);
    return static_cast<double>(V);
  };
  if (E == "uint")
    return Get(cl_uint());
  if (E == "int")
    return Get(cl_int());
  if (E == "long")
    return Get(cl_long());
  return Get(cl_float());
}

void runShape(const Shape &S) {
  Env Ev;
  REQUIRE(Ev.Q);
  bool Vec = isVector(S.Type);
  int Lanes = Vec ? 4 : 1;
  std::vector<unsigned char> In(N * Lanes * 4);
  for (int I = 0; I < N * Lanes; ++I) {
    double X = element(S, I);
    if (scalarOf(S.Type) == "int") {
      cl_int V = static_cast<cl_int>(X);
      std::memcpy(&In[I * 4], &V, 4);
    } else {
      cl_float V = static_cast<cl_float>(X);
      std::memcpy(&In[I * 4], &V, 4);
    }
  }
  cl_program P = Ev.build(source(S), S.ProgramScope ? "-cl-std=CL3.0" : "");
  cl_mem InBuf = Ev.buffer(In);
  size_t AccBytes = scalarOf(S.Acc) == "long" ? 8 : 4;
  cl_mem Out = Ev.buffer(std::vector<unsigned char>(AccBytes * Lanes, 0xA5));
  if (S.ProgramScope)
    Ev.launch(P, "fill", N, N, InBuf);
  cl_uint Bound = N;
  Ev.launch(P, "r", S.WorkItems, S.WorkItems, Bound, Out, InBuf);
  std::vector<unsigned char> Got =
      Ev.read<unsigned char>(Out, AccBytes * Lanes);
  for (int L = 0; L < Lanes; ++L)
    CHECK(resultLane(Got, S.Acc, L) == reference(S, L));
}

} // namespace

TEST_CASE("Loop-carried reductions stored to a work-item-independent address "
          "(Boost.Compute count_if / accumulate)",
          "[kernel][uniform-store]") {
  // Element type, then the accumulator types each kind is tried with.
  struct Types {
    const char *Type;
    std::vector<const char *> Count, Sum, MinMax;
  };
  const Types All[] = {
      {"int", {"int", "uint", "float"}, {"int", "long", "float"}, {"int"}},
      {"float", {"float", "uint", "int"}, {"float"}, {"float"}},
      {"int4", {"int4"}, {"int4", "long4", "float4"}, {"int4"}},
      {"float4", {"int4", "float4"}, {"float4"}, {"float4"}},
  };
  for (const Types &T : All)
    for (const char *Kind : {"count", "sum", "min", "max"}) {
      std::string K = Kind;
      const std::vector<const char *> &Accs = K == "count" ? T.Count
                                              : K == "sum" ? T.Sum
                                                           : T.MinMax;
      for (const char *Acc : Accs)
        for (bool ProgramScope : {false, true})
          for (bool Runtime : {false, true})
            for (size_t Items : {size_t(1), size_t(37)}) {
              Shape S{Kind, T.Type, Acc, ProgramScope, Runtime, Items};
              CAPTURE(Kind, T.Type, Acc, ProgramScope, Runtime, Items);
              runShape(S);
            }
    }
}

TEST_CASE("Boost.Compute count_if on one work-item: the minimal form",
          "[kernel][uniform-store]") {
  Env E;
  REQUIRE(E.Q);
  const char *Src = R"(
    kernel void k(uint size, global uint *result, global float *in) {
      uint c = 0;
      for (uint i = 0; i < size; i++) { if (in[i] > 2.0f) c++; }
      *result = c;
    })";
  cl_program P = E.build(Src);
  cl_mem In = E.buffer(std::vector<float>{1, 2.5f, -1, 3, 5});
  cl_mem Out = E.buffer(std::vector<cl_uint>{99});
  E.launch(P, "k", 1, 1, cl_uint(5), Out, In);
  CHECK(E.read<cl_uint>(Out, 1)[0] == 3);
}

TEST_CASE("A program-scope array summed with a run-time bound (CL3.0)",
          "[kernel][uniform-store]") {
  Env E;
  REQUIRE(E.Q);
  const char *Src = R"(
    global int g[64];
    kernel void fill() { int i = get_global_id(0); if (i < 64) g[i] = i + 1; }
    kernel void sumB(global long *out, int n) {
      long s = 0; for (int i = 0; i < n; i++) s += g[i]; out[0] = s;
    })";
  cl_program P = E.build(Src, "-cl-std=CL3.0");
  cl_mem Out = E.buffer(std::vector<cl_long>{0});
  E.launch(P, "fill", 64, 64);
  E.launch(P, "sumB", 1, 1, Out, cl_int(64));
  CHECK(E.read<cl_long>(Out, 1)[0] == 2080);
}

TEST_CASE("A loop-carried value reaching an atomic and a __local variable "
          "read after a barrier",
          "[kernel][uniform-store]") {
  Env E;
  REQUIRE(E.Q);
  const char *Src = R"(
    kernel void atom(uint n, global int *total, global const int *in) {
      int c = 0;
      for (uint i = 0; i < n; i++) if (in[i] > 2) c++;
      atomic_add(total, c);
    }
    kernel void viaLocal(uint n, global int *out, global const int *in) {
      local int s;
      int c = 0;
      for (uint i = 0; i < n; i++) c += in[i];
      if (get_local_id(0) == 0) s = c;
      barrier(CLK_LOCAL_MEM_FENCE);
      out[get_global_id(0)] = s;
    })";
  cl_program P = E.build(Src);
  std::vector<cl_int> In(N);
  int Count = 0, Sum = 0;
  for (int I = 0; I < N; ++I) {
    In[I] = static_cast<cl_int>(std::trunc(inputValue(I)));
    Count += In[I] > 2;
    Sum += In[I];
  }
  cl_mem InBuf = E.buffer(In);
  for (size_t Items : {size_t(1), size_t(37), size_t(256)}) {
    CAPTURE(Items);
    cl_mem Total = E.buffer(std::vector<cl_int>{0});
    E.launch(P, "atom", Items, Items, cl_uint(N), Total, InBuf);
    CHECK(E.read<cl_int>(Total, 1)[0] == Count * static_cast<int>(Items));
    cl_mem Out = E.buffer(std::vector<cl_int>(Items, -1));
    E.launch(P, "viaLocal", Items, Items, cl_uint(N), Out, InBuf);
    for (cl_int V : E.read<cl_int>(Out, Items))
      CHECK(V == Sum);
  }
}

TEST_CASE("A loop-carried value printed by one work-item",
          "[kernel][uniform-store]") {
  Env E;
  REQUIRE(E.Q);
  cl_kernel K = E.kernel(R"(
    kernel void k(uint n, global const float *in) {
      uint c = 0;
      for (uint i = 0; i < n; i++) { if (in[i] > 2.0f) c++; }
      printf("count %u\n", c);
    })",
                         "k");
  cl_mem In = E.buffer(std::vector<float>{1, 2.5f, -1, 3, 5});
  E.arg(K, 0, cl_uint(5));
  E.arg(K, 1, In);
  CHECK(runCapturingStdout(E, K) == "count 3\n");
}
