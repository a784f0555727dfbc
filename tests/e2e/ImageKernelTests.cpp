// End-to-end: images in kernels, every image type (OpenCL C 3.0, 6.15.15
// "Image Read and Write Functions", 8 "Image Addressing and Filtering";
// cl_khr_depth_images, cl_khr_3d_image_writes, read_write images), through
// the ICD loader. Reads are checked against a host reference sampler
// written from chapter 8; writes against the conversion rules of 8.3.
// Hidden ("[.images]"): the e2e_images test runs them with images on.

#include "Common.h"
#include "SamplerReference.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {
struct Env {
  cl_device_id D = clcpuDevice();
  cl_context C = nullptr;
  cl_command_queue Q = nullptr;
  std::vector<cl_mem> Mems;
  std::vector<cl_program> Progs;
  std::vector<cl_kernel> Kernels;
  Env() {
    REQUIRE(D);
    REQUIRE(deviceInfo<cl_bool>(D, CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE);
    C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, nullptr);
    Q = clCreateCommandQueueWithProperties(C, D, nullptr, nullptr);
    REQUIRE(Q);
  }
  ~Env() {
    for (cl_kernel K : Kernels)
      clReleaseKernel(K);
    for (cl_program P : Progs)
      clReleaseProgram(P);
    for (cl_mem M : Mems)
      clReleaseMemObject(M);
    clReleaseCommandQueue(Q);
    clReleaseContext(C);
  }
  cl_mem image(const cl_image_format &F, const cl_image_desc &Desc,
               cl_mem_flags Flags, void *Host = nullptr) {
    cl_int Err = -1;
    cl_mem M = clCreateImage(C, Flags, &F, &Desc, Host, &Err);
    REQUIRE(Err == CL_SUCCESS);
    Mems.push_back(M);
    return M;
  }
  cl_mem buffer(size_t Size, cl_mem_flags Flags = CL_MEM_READ_WRITE,
                void *Host = nullptr) {
    cl_int Err = -1;
    cl_mem M = clCreateBuffer(C, Flags, Size, Host, &Err);
    REQUIRE(Err == CL_SUCCESS);
    Mems.push_back(M);
    return M;
  }
  /// The build status of \p Src with \p Options (its log in \p Log).
  cl_int build(const std::string &Src, const std::string &Options,
               cl_program &P, std::string *Log = nullptr) {
    const char *S = Src.c_str();
    cl_int Err = -1;
    P = clCreateProgramWithSource(C, 1, &S, nullptr, &Err);
    REQUIRE(Err == CL_SUCCESS);
    Progs.push_back(P);
    cl_int B = clBuildProgram(P, 1, &D, Options.c_str(), nullptr, nullptr);
    if (Log) {
      size_t N = 0;
      clGetProgramBuildInfo(P, D, CL_PROGRAM_BUILD_LOG, 0, nullptr, &N);
      Log->assign(N, '\0');
      clGetProgramBuildInfo(P, D, CL_PROGRAM_BUILD_LOG, N, Log->data(),
                            nullptr);
    }
    return B;
  }
  cl_program program(const std::string &Src, const std::string &Options) {
    cl_program P;
    std::string Log;
    cl_int B = build(Src, "-cl-std=CL3.0 " + Options, P, &Log);
    INFO(Log);
    REQUIRE(B == CL_SUCCESS);
    return P;
  }
  cl_kernel kernel(cl_program P, const char *Name) {
    cl_int Err = -1;
    cl_kernel K = clCreateKernel(P, Name, &Err);
    REQUIRE(Err == CL_SUCCESS);
    Kernels.push_back(K);
    return K;
  }
  void run(cl_kernel K, size_t N) {
    REQUIRE(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &N, nullptr, 0, nullptr,
                                   nullptr) == CL_SUCCESS);
  }
  template <typename T> std::vector<T> read(cl_mem B, size_t N) {
    std::vector<T> V(N);
    REQUIRE(clEnqueueReadBuffer(Q, B, CL_TRUE, 0, N * sizeof(T), V.data(), 0,
                                nullptr, nullptr) == CL_SUCCESS);
    return V;
  }
  template <typename T> void write(cl_mem B, const std::vector<T> &V) {
    REQUIRE(clEnqueueWriteBuffer(Q, B, CL_TRUE, 0, V.size() * sizeof(T),
                                 V.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  }
};

/// One kernel image type: its OpenCL C name, the memory object type, the
/// coordinates a sampler addresses (Dims) and whether the next one is an
/// array layer, its extents (width, height, depth or layers; 1 where the
/// type has none), the OpenCL C coordinate expressions of a float4 c /
/// int4 n, and whether it is a depth image (read_imagef gives a float).
struct KType {
  const char *Name;
  cl_mem_object_type Mem;
  int Dims;
  bool Array;
  int Ext[3];
  const char *CoordF, *CoordI;
  bool Depth;
};
const KType Types[] = {
    {"image1d_t",
     CL_MEM_OBJECT_IMAGE1D,
     1,
     false,
     {9, 1, 1},
     "c.x",
     "n.x",
     false},
    {"image1d_array_t",
     CL_MEM_OBJECT_IMAGE1D_ARRAY,
     1,
     true,
     {7, 1, 4},
     "c.xy",
     "n.xy",
     false},
    {"image2d_t",
     CL_MEM_OBJECT_IMAGE2D,
     2,
     false,
     {7, 5, 1},
     "c.xy",
     "n.xy",
     false},
    {"image2d_array_t",
     CL_MEM_OBJECT_IMAGE2D_ARRAY,
     2,
     true,
     {6, 5, 3},
     "c",
     "n",
     false},
    {"image3d_t", CL_MEM_OBJECT_IMAGE3D, 3, false, {5, 4, 3}, "c", "n", false},
    {"image2d_depth_t",
     CL_MEM_OBJECT_IMAGE2D,
     2,
     false,
     {7, 5, 1},
     "c.xy",
     "n.xy",
     true},
    {"image2d_array_depth_t",
     CL_MEM_OBJECT_IMAGE2D_ARRAY,
     2,
     true,
     {6, 5, 3},
     "c",
     "n",
     true},
};

cl_image_desc descOf(const KType &T) {
  cl_image_desc D{};
  D.image_type = T.Mem;
  D.image_width = T.Ext[0];
  if (T.Mem == CL_MEM_OBJECT_IMAGE1D_ARRAY)
    D.image_array_size = T.Ext[2];
  if (T.Mem == CL_MEM_OBJECT_IMAGE2D || T.Mem == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
      T.Mem == CL_MEM_OBJECT_IMAGE3D)
    D.image_height = T.Ext[1];
  if (T.Mem == CL_MEM_OBJECT_IMAGE2D_ARRAY)
    D.image_array_size = T.Ext[2];
  if (T.Mem == CL_MEM_OBJECT_IMAGE3D)
    D.image_depth = T.Ext[2];
  return D;
}

/// How a format is read: read_imagef, read_imagei or read_imageui.
enum class Read { F, I, UI };

/// A representative format per channel type: normalized, floating-point,
/// signed and unsigned integer (CL_RGBA), or the two depth formats.
struct Fmt {
  cl_image_format F;
  Read R;
  size_t Bytes; // per element
};
const Fmt ColorFormats[] = {
    {{CL_RGBA, CL_UNORM_INT8}, Read::F, 4},
    {{CL_RGBA, CL_FLOAT}, Read::F, 16},
    {{CL_RGBA, CL_SIGNED_INT16}, Read::I, 8},
    {{CL_RGBA, CL_UNSIGNED_INT8}, Read::UI, 4},
};
const Fmt DepthFormats[] = {
    {{CL_DEPTH, CL_FLOAT}, Read::F, 4},
    {{CL_DEPTH, CL_UNORM_INT16}, Read::F, 2},
};

/// Element bytes of format \p F at index \p I (deterministic) and the
/// (R, G, B, A) values read_image* returns for them (8.3).
void makeElement(const Fmt &F, size_t I, unsigned char *Out,
                 std::array<float, 4> &Px) {
  uint32_t H = static_cast<uint32_t>(I * 2654435761u + 12345u);
  auto Next = [&H] {
    H ^= H << 13;
    H ^= H >> 17;
    H ^= H << 5;
    return H;
  };
  const cl_channel_type T = F.F.image_channel_data_type;
  const int N = F.F.image_channel_order == CL_DEPTH ? 1 : 4;
  Px = {0, 0, 0, 1};
  for (int C = 0; C < N; ++C) {
    uint32_t R = Next();
    switch (T) {
    case CL_UNORM_INT8:
    case CL_UNSIGNED_INT8: {
      uint8_t V = static_cast<uint8_t>(R);
      Out[C] = V;
      Px[C] = T == CL_UNORM_INT8 ? V / 255.0f : V;
      break;
    }
    case CL_UNORM_INT16: {
      uint16_t V = static_cast<uint16_t>(R);
      std::memcpy(Out + 2 * C, &V, 2);
      Px[C] = V / 65535.0f;
      break;
    }
    case CL_SIGNED_INT16: {
      int16_t V = static_cast<int16_t>(R);
      std::memcpy(Out + 2 * C, &V, 2);
      Px[C] = V;
      break;
    }
    default: { // CL_FLOAT
      float V = static_cast<float>(R % 2001) / 97.0f - 8.0f;
      std::memcpy(Out + 4 * C, &V, 4);
      Px[C] = V;
      break;
    }
    }
  }
}

/// The host reference sampler: OpenCL C 3.0, 8.2 "Addressing and filter
/// modes" and 8.3 for arrays ("clamp(rint(coord), 0, size - 1)").
struct Ref {
  int Size[3];
  int Dims;
  bool Array;
  bool Alpha; // the border color is (0, 0, 0, 0), else (0, 0, 0, 1)
  std::vector<std::array<float, 4>> Px; // ((z * H) + y) * W + x

  std::array<float, 4> texel(int X, int Y, int Z) const {
    if (X < 0 || Y < 0 || Z < 0)
      return Alpha ? std::array<float, 4>{0, 0, 0, 0}
                   : std::array<float, 4>{0, 0, 0, 1};
    return Px[(static_cast<size_t>(Z) * Size[1] + Y) * Size[0] + X];
  }
  static int nearest(float S, int N, bool Norm, cl_addressing_mode Mode) {
    return sampler_ref::nearest(S, N, Norm, Mode);
  }
  static float linear(float S, int N, bool Norm, cl_addressing_mode Mode,
                      int &I0, int &I1) {
    return sampler_ref::linear(S, N, Norm, Mode, I0, I1);
  }
  int layer(float L) const {
    return static_cast<int>(
        std::clamp(std::rint(L), 0.0f, static_cast<float>(Size[2] - 1)));
  }
  std::array<float, 4> sample(const float *C, bool Norm,
                              cl_addressing_mode Mode, bool Linear) const {
    int Lo[3] = {0, 0, 0}, Hi[3] = {0, 0, 0};
    float W[3] = {0, 0, 0};
    if (Array)
      Lo[2] = Hi[2] = layer(C[Dims]);
    for (int D = 0; D < Dims; ++D) {
      if (Linear)
        W[D] = linear(C[D], Size[D], Norm, Mode, Lo[D], Hi[D]);
      else
        Lo[D] = nearest(C[D], Size[D], Norm, Mode);
    }
    if (!Linear)
      return texel(Lo[0], Lo[1], Lo[2]);
    // The spec's sums: (1 - a)(1 - b)(1 - c) T_i0j0k0 + ... + abc T_i1j1k1.
    std::array<float, 4> R{};
    for (int K = 0; K < (1 << Dims); ++K) {
      int X[3] = {Lo[0], Lo[1], Lo[2]};
      float Weight = 1;
      for (int D = 0; D < Dims; ++D) {
        bool Up = (K >> D) & 1;
        X[D] = Up ? Hi[D] : Lo[D];
        Weight *= Up ? W[D] : 1 - W[D];
      }
      auto T = texel(X[0], X[1], X[2]);
      for (int Ch = 0; Ch < 4; ++Ch)
        R[Ch] += Weight * T[Ch];
    }
    return R;
  }
};

/// Unnormalized test coordinates for a dimension of \p N elements: inside,
/// on element edges and centers, and outside on both sides.
std::vector<float> coordsFor(int N) {
  float F = static_cast<float>(N);
  return {-1.3f, -0.5f,         0.0f,      0.5f,         1.0f,
          1.75f, F / 2 + 0.37f, F - 1.5f,  F - 0.5f,     F - 0.01f,
          F,     F + 0.5f,      F + 2.75f, 2 * F + 0.3f, -F - 0.2f};
}
/// Layer coordinates: rounding ties (to even), and clamping.
std::vector<float> layersFor(int N) {
  float F = static_cast<float>(N);
  return {-1.7f, -0.5f, 0.0f, 0.4f, 0.5f, 1.5f, 2.5f, F - 1, F - 0.5f, F + 3};
}

const char *readName(Read R) {
  return R == Read::F   ? "read_imagef"
         : R == Read::I ? "read_imagei"
                        : "read_imageui";
}

/// The program reading images of type \p T with \p R: kernel "sf" samples
/// at float coordinates, "si" at int coordinates through a sampler, "n"
/// reads without a sampler (every access qualifier \p Acc allows it).
std::string readSource(const KType &T, Read R, const char *Acc = "read_only") {
  std::string Res = T.Depth        ? "(float4)(V, 0.0f, 0.0f, 0.0f)"
                    : R == Read::F ? "V"
                                   : "convert_float4(V)";
  std::string S = "#define RES(V) " + Res + "\n";
  S += std::string("#define CF(c) ") + T.CoordF + "\n";
  S += std::string("#define CI(n) ") + T.CoordI + "\n";
  S += std::string("#define READ ") + readName(R) + "\n";
  S += "#define IMG " + std::string(T.Name) + "\n";
  if (std::string(Acc) == "read_only")
    S += R"(
    kernel void sf(read_only IMG img, sampler_t s, global const float4 *cs,
                   global float4 *o) {
      size_t i = get_global_id(0);
      float4 c = cs[i];
      o[i] = RES(READ(img, s, CF(c)));
    }
    kernel void si(read_only IMG img, sampler_t s, global const float4 *cs,
                   global float4 *o) {
      size_t i = get_global_id(0);
      int4 n = convert_int4(cs[i]);
      o[i] = RES(READ(img, s, CI(n)));
    })";
  S += std::string(R"(
    kernel void n()") +
       Acc + R"( IMG img, global const float4 *cs,
                  global float4 *o) {
      size_t i = get_global_id(0);
      int4 n = convert_int4(cs[i]);
      o[i] = RES(READ(img, CI(n)));
    })";
  return S;
}

/// Runs kernel \p K over \p Coords (float4 each) and returns its float4s.
std::vector<float> sampleWith(Env &E, cl_kernel K, cl_mem Img, cl_sampler S,
                              const std::vector<float> &Coords) {
  size_t N = Coords.size() / 4;
  cl_mem CB =
      E.buffer(Coords.size() * 4, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
               const_cast<float *>(Coords.data()));
  cl_mem Out = E.buffer(N * 16);
  cl_uint A = 0;
  REQUIRE(clSetKernelArg(K, A++, sizeof Img, &Img) == CL_SUCCESS);
  if (S)
    REQUIRE(clSetKernelArg(K, A++, sizeof S, &S) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(K, A++, sizeof CB, &CB) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(K, A++, sizeof Out, &Out) == CL_SUCCESS);
  E.run(K, N);
  return E.read<float>(Out, N * 4);
}

/// A deterministic mix of \p Count coordinates (float4: the sampled ones,
/// then the layer), each component drawn from its list.
std::vector<float> mixCoords(const KType &T, size_t Count, bool Norm,
                             unsigned Seed) {
  std::vector<std::vector<float>> Lists;
  for (int D = 0; D < T.Dims; ++D)
    Lists.push_back(coordsFor(T.Ext[D]));
  if (T.Array)
    Lists.push_back(layersFor(T.Ext[2]));
  std::vector<float> C;
  uint32_t H = Seed * 7919u + 1;
  for (size_t I = 0; I < Count; ++I) {
    float V[4] = {0, 0, 0, 0};
    for (size_t D = 0; D < Lists.size(); ++D) {
      H = H * 1664525u + 1013904223u;
      float X = Lists[D][(H >> 8) % Lists[D].size()];
      V[D] = Norm && static_cast<int>(D) < T.Dims ? X / T.Ext[D] : X;
    }
    C.insert(C.end(), V, V + 4);
  }
  return C;
}

bool close(float Got, float Want, float Tol) {
  if (std::isnan(Want))
    return std::isnan(Got);
  return std::fabs(Got - Want) <= Tol * std::max(1.0f, std::fabs(Want));
}
} // namespace

namespace {
/// Samples image \p Img (type \p T, read as \p R) at float coordinates
/// with every addressing, filter and normalization, at integer coordinates
/// through the samplers that allow them, and reads every element without
/// a sampler; each result is checked against the host reference sampler
/// \p Reference: within \p Tol for filtered reads, within \p ExactTol for those
/// that return one element (0: exactly).
void checkSampledReads(Env &E, const KType &T, Read R, cl_mem Img,
                       const Ref &Reference, float Tol, float ExactTol) {
  cl_program P = E.program(readSource(T, R), "");
  cl_kernel SF = E.kernel(P, "sf"), SI = E.kernel(P, "si"),
            NK = E.kernel(P, "n");
  const int Channels = T.Depth ? 1 : 4;
  const size_t N = size_t(T.Ext[0]) * T.Ext[1] * T.Ext[2];
  for (cl_bool Norm : {CL_FALSE, CL_TRUE})
    for (cl_addressing_mode Mode :
         {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
          CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT})
      for (cl_filter_mode Filter : {CL_FILTER_NEAREST, CL_FILTER_LINEAR}) {
        // Repeat modes need normalized coordinates; read_imagei/ui are
        // undefined with a linear filter.
        if (!Norm &&
            (Mode == CL_ADDRESS_REPEAT || Mode == CL_ADDRESS_MIRRORED_REPEAT))
          continue;
        if (R != Read::F && Filter == CL_FILTER_LINEAR)
          continue;
        cl_int Err = -1;
        cl_sampler S = clCreateSampler(E.C, Norm, Mode, Filter, &Err);
        REQUIRE(Err == CL_SUCCESS);
        std::vector<float> C = mixCoords(T, 400, Norm, Mode + Filter);
        std::vector<float> Got = sampleWith(E, SF, Img, S, C);
        int Bad = 0, Checked = 0;
        for (size_t I = 0; I < C.size() / 4; ++I) {
          const float *CI = &C[I * 4];
          // CL_ADDRESS_NONE: out-of-range coordinates are undefined.
          bool Undefined = false;
          for (int D = 0; D < T.Dims; ++D) {
            float U = Norm ? CI[D] * T.Ext[D] : CI[D];
            Undefined |= U < 0.5f || U > T.Ext[D] - 0.5f;
          }
          if (Mode == CL_ADDRESS_NONE && Undefined)
            continue;
          ++Checked;
          auto Want =
              Reference.sample(CI, Norm, Mode, Filter == CL_FILTER_LINEAR);
          for (int Ch = 0; Ch < Channels; ++Ch)
            if (!close(Got[I * 4 + Ch], Want[Ch], Tol) && Bad++ < 3)
              UNSCOPED_INFO("norm " << Norm << " mode 0x" << std::hex << Mode
                                    << " filter 0x" << Filter << std::dec
                                    << " coord (" << CI[0] << ", " << CI[1]
                                    << ", " << CI[2] << ") ch " << Ch
                                    << ": got " << Got[I * 4 + Ch] << ", want "
                                    << Want[Ch]);
        }
        CHECK(Checked > 0);
        CHECK(Bad == 0);
        // Integer coordinates through a sampler (unnormalized, nearest, no
        // repeat: 6.15.15.2) are element centers.
        if (!Norm && Filter == CL_FILTER_NEAREST) {
          std::vector<float> CInt;
          for (size_t I = 0; I < C.size() / 4; ++I)
            for (int D = 0; D < 4; ++D)
              CInt.push_back(std::floor(C[I * 4 + D]));
          Got = sampleWith(E, SI, Img, S, CInt);
          Bad = 0;
          for (size_t I = 0; I < CInt.size() / 4; ++I) {
            float Center[4];
            bool Undefined = false;
            for (int D = 0; D < 4; ++D) {
              Center[D] = CInt[I * 4 + D] + (D < T.Dims ? 0.5f : 0.0f);
              if (D < T.Dims)
                Undefined |= Center[D] < 0 || Center[D] > T.Ext[D];
            }
            if (Mode == CL_ADDRESS_NONE && Undefined)
              continue;
            auto Want = Reference.sample(Center, false, Mode, false);
            for (int Ch = 0; Ch < Channels; ++Ch)
              if (!close(Got[I * 4 + Ch], Want[Ch], ExactTol) && Bad++ < 3)
                UNSCOPED_INFO("int coord ("
                              << CInt[I * 4] << ", " << CInt[I * 4 + 1] << ", "
                              << CInt[I * 4 + 2] << ") ch " << Ch << ": got "
                              << Got[I * 4 + Ch] << ", want " << Want[Ch]);
          }
          CHECK(Bad == 0);
        }
        clReleaseSampler(S);
      }
  // Sampler-less reads of every element (6.15.15.3), layers included.
  std::vector<float> C;
  for (int Z = 0; Z < T.Ext[2]; ++Z)
    for (int Y = 0; Y < T.Ext[1]; ++Y)
      for (int X = 0; X < T.Ext[0]; ++X) {
        float V[4] = {0, 0, 0, 0};
        V[0] = static_cast<float>(X);
        if (T.Dims >= 2)
          V[1] = static_cast<float>(Y);
        V[T.Array ? T.Dims : 2] = static_cast<float>(Z);
        C.insert(C.end(), V, V + 4);
      }
  std::vector<float> Got = sampleWith(E, NK, Img, nullptr, C);
  int Bad = 0;
  for (size_t I = 0; I < N; ++I)
    for (int Ch = 0; Ch < Channels; ++Ch)
      if (!close(Got[I * 4 + Ch], Reference.Px[I][Ch], ExactTol) && Bad++ < 3)
        UNSCOPED_INFO("sampler-less element " << I << " ch " << Ch << ": got "
                                              << Got[I * 4 + Ch] << ", want "
                                              << Reference.Px[I][Ch]);
  CHECK(Bad == 0);
}
} // namespace

TEST_CASE("6.15.15, 8.2, 8.3: every image type and channel type is sampled "
          "with every addressing, filter and normalization as the spec says",
          "[.images]") {
  Env E;
  for (const KType &T : Types) {
    const auto &Formats = T.Depth ? std::vector<Fmt>(std::begin(DepthFormats),
                                                     std::end(DepthFormats))
                                  : std::vector<Fmt>(std::begin(ColorFormats),
                                                     std::end(ColorFormats));
    for (const Fmt &F : Formats) {
      INFO(T.Name << " format 0x" << std::hex << F.F.image_channel_data_type);
      Ref R{{T.Ext[0], T.Ext[1], T.Ext[2]}, T.Dims, T.Array, !T.Depth, {}};
      const size_t N = size_t(T.Ext[0]) * T.Ext[1] * T.Ext[2];
      std::vector<unsigned char> Bytes(N * F.Bytes);
      R.Px.resize(N);
      for (size_t I = 0; I < N; ++I)
        makeElement(F, I, &Bytes[I * F.Bytes], R.Px[I]);
      cl_mem Img =
          E.image(F.F, descOf(T), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                  Bytes.data());
      checkSampledReads(E, T, F.R, Img, R, 2e-5f, 0.0f);
    }
  }
}

namespace {
/// The bytes write_imagef/i/ui store for \p V (8.3.1.2, 8.3.3, 8.3.4:
/// round to nearest even and saturate; integers saturate).
void packElement(const Fmt &F, const float *V, unsigned char *Out) {
  const cl_channel_type T = F.F.image_channel_data_type;
  const int N = F.F.image_channel_order == CL_DEPTH ? 1 : 4;
  for (int C = 0; C < N; ++C)
    switch (T) {
    case CL_UNORM_INT8:
      Out[C] = static_cast<uint8_t>(
          std::nearbyint(std::clamp(V[C] * 255.0f, 0.0f, 255.0f)));
      break;
    case CL_UNSIGNED_INT8:
      Out[C] = static_cast<uint8_t>(std::clamp(V[C], 0.0f, 255.0f));
      break;
    case CL_UNORM_INT16: {
      uint16_t U = static_cast<uint16_t>(
          std::nearbyint(std::clamp(V[C] * 65535.0f, 0.0f, 65535.0f)));
      std::memcpy(Out + 2 * C, &U, 2);
      break;
    }
    case CL_SIGNED_INT16: {
      int16_t S = static_cast<int16_t>(std::clamp(V[C], -32768.0f, 32767.0f));
      std::memcpy(Out + 2 * C, &S, 2);
      break;
    }
    default:
      std::memcpy(Out + 4 * C, &V[C], 4);
      break;
    }
}

const char *writeName(Read R) {
  return R == Read::F   ? "write_imagef"
         : R == Read::I ? "write_imagei"
                        : "write_imageui";
}

/// A type for the write and query tests: the sampled ones and the 1D image
/// buffer (which is only read without a sampler and written).
struct WType {
  KType T;
  bool Buffer;
};
std::vector<WType> writeTypes() {
  std::vector<WType> L;
  for (const KType &T : Types)
    L.push_back({T, false});
  L.push_back({{"image1d_buffer_t",
                CL_MEM_OBJECT_IMAGE1D_BUFFER,
                1,
                false,
                {11, 1, 1},
                "c.x",
                "n.x",
                false},
               true});
  return L;
}

/// An image of type \p W and format \p F; for a 1D image buffer, the
/// buffer it is made from in \p Buf.
cl_mem makeImage(Env &E, const WType &W, const Fmt &F, cl_mem_flags Flags,
                 void *Host, cl_mem &Buf) {
  cl_image_desc D = descOf(W.T);
  Buf = nullptr;
  if (W.Buffer) {
    Buf = E.buffer(W.T.Ext[0] * F.Bytes,
                   CL_MEM_READ_WRITE | (Host ? CL_MEM_COPY_HOST_PTR : 0), Host);
    D.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
    D.image_width = W.T.Ext[0];
    D.buffer = Buf;
    return E.image(F.F, D, Flags);
  }
  return E.image(F.F, D, Flags | (Host ? CL_MEM_COPY_HOST_PTR : 0), Host);
}

/// The image's bytes, tightly packed.
std::vector<unsigned char> imageBytes(Env &E, cl_mem Img, const WType &W,
                                      size_t ES) {
  size_t N = size_t(W.T.Ext[0]) * W.T.Ext[1] * W.T.Ext[2];
  std::vector<unsigned char> B(N * ES);
  size_t O[3] = {0, 0, 0};
  size_t R[3] = {size_t(W.T.Ext[0]), 1, 1};
  if (W.T.Mem == CL_MEM_OBJECT_IMAGE1D_ARRAY)
    R[1] = W.T.Ext[2];
  else if (W.T.Mem != CL_MEM_OBJECT_IMAGE1D &&
           W.T.Mem != CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    R[1] = W.T.Ext[1];
    R[2] = W.T.Ext[2];
  }
  REQUIRE(clEnqueueReadImage(E.Q, Img, CL_TRUE, O, R, 0, 0, B.data(), 0,
                             nullptr, nullptr) == CL_SUCCESS);
  return B;
}

/// Runs write kernel \p K(image, coordinates, values) over \p N work-items
/// into a new image of type \p W and format \p F, write-only or read-write
/// as \p Acc says; the image's bytes, \p ES per element (for a 1D image
/// buffer, its buffer in \p Buf).
std::vector<unsigned char> runWrites(Env &E, cl_kernel K, const WType &W,
                                     const Fmt &F, const char *Acc,
                                     std::vector<float> &Coords,
                                     std::vector<float> &Vals, size_t N,
                                     size_t ES, cl_mem &Buf) {
  cl_mem Img = makeImage(E, W, F,
                         std::string(Acc) == "write_only" ? CL_MEM_WRITE_ONLY
                                                          : CL_MEM_READ_WRITE,
                         nullptr, Buf);
  cl_mem CB = E.buffer(Coords.size() * 4,
                       CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Coords.data());
  cl_mem VB = E.buffer(Vals.size() * 4, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                       Vals.data());
  REQUIRE(clSetKernelArg(K, 0, sizeof Img, &Img) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(K, 1, sizeof CB, &CB) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(K, 2, sizeof VB, &VB) == CL_SUCCESS);
  E.run(K, N);
  return imageBytes(E, Img, W, ES);
}

/// The coordinate of element \p I (x, y, z or layer) as the kernels'
/// float4 (the layer after the sampled coordinates).
std::array<float, 4> elementCoord(const KType &T, size_t I) {
  int X = static_cast<int>(I % T.Ext[0]);
  int Y = static_cast<int>(I / T.Ext[0] % T.Ext[1]);
  int Z = static_cast<int>(I / (size_t(T.Ext[0]) * T.Ext[1]));
  std::array<float, 4> V{static_cast<float>(X), 0, 0, 0};
  if (T.Dims >= 2)
    V[1] = static_cast<float>(Y);
  V[T.Array ? T.Dims : 2] = static_cast<float>(Z);
  return V;
}
} // namespace

TEST_CASE("6.15.15.4: write_imagef/i/ui to every image type, write-only and "
          "read-write, convert as 8.3 says (cl_khr_3d_image_writes, "
          "cl_khr_depth_images)",
          "[.images]") {
  Env E;
  for (const WType &W : writeTypes()) {
    const KType &T = W.T;
    const auto &Formats = T.Depth ? std::vector<Fmt>(std::begin(DepthFormats),
                                                     std::end(DepthFormats))
                                  : std::vector<Fmt>(std::begin(ColorFormats),
                                                     std::end(ColorFormats));
    for (const char *Acc : {"write_only", "read_write"})
      for (const Fmt &F : Formats) {
        INFO(T.Name << " " << Acc << " format 0x" << std::hex
                    << F.F.image_channel_data_type);
        const size_t N = size_t(T.Ext[0]) * T.Ext[1] * T.Ext[2];
        // Values across and beyond each channel type's range.
        std::vector<float> Vals(N * 4), Coords;
        for (size_t I = 0; I < N * 4; ++I) {
          float X = static_cast<float>((I * 7919) % 613) - 150.0f;
          Vals[I] = F.R == Read::F ? X / 301.0f * 1.7f : X * 131.0f;
        }
        for (size_t I = 0; I < N; ++I) {
          auto C = elementCoord(T, I);
          Coords.insert(Coords.end(), C.begin(), C.end());
        }
        std::string Val = T.Depth          ? "v[i].x"
                          : F.R == Read::F ? "v[i]"
                          : F.R == Read::I ? "convert_int4_sat(v[i])"
                                           : "convert_uint4_sat(v[i])";
        std::string Src = std::string("#define IMG ") + T.Name +
                          "\n#define CI(n) " + T.CoordI + "\n" + R"(
          kernel void w()" +
                          Acc + R"( IMG img, global const float4 *cs,
                          global const float4 *v) {
            size_t i = get_global_id(0);
            int4 n = convert_int4(cs[i]);
            )" + writeName(F.R) +
                          "(img, CI(n), " + Val + ");\n}";
        cl_program P = E.program(Src, "");
        cl_kernel K = E.kernel(P, "w");
        cl_mem Buf;
        std::vector<unsigned char> Got =
            runWrites(E, K, W, F, Acc, Coords, Vals, N, F.Bytes, Buf);
        std::vector<unsigned char> Want(N * F.Bytes);
        for (size_t I = 0; I < N; ++I) {
          float V[4];
          for (int C = 0; C < 4; ++C)
            V[C] = F.R == Read::F ? Vals[I * 4 + C]
                                  : std::nearbyint(Vals[I * 4 + C]);
          packElement(F, V, &Want[I * F.Bytes]);
        }
        CHECK(Got == Want);
        // A 1D image buffer's bytes are its buffer's.
        if (Buf)
          CHECK(E.read<unsigned char>(Buf, N * F.Bytes) == Want);
      }
  }
}

namespace {
/// OpenCL C 3.0, 8.3 "Conversion Rules for sRGBA and sBGRA Images", linear
/// to sRGB, in double: the channel scaled to [0, 255] before rounding.
double srgbEncodeReference(float F) {
  double C = F;
  if (std::isnan(C))
    C = 0.0;
  if (C > 1.0)
    C = 1.0;
  else if (C < 0.0)
    C = 0.0;
  else if (C < 0.0031308)
    C = 12.92 * C;
  else
    C = 1.055 * std::pow(C, 1.0 / 2.4) - 0.055;
  return C * 255.0;
}

/// Whether \p Got is \p Scaled rounded to nearest even; within 1e-3 of a
/// tie either neighbour is (powr is not correctly rounded: 7.4).
bool srgbByteMatches(unsigned Got, double Scaled) {
  if (Got == static_cast<unsigned>(std::nearbyint(Scaled)))
    return true;
  double Frac = Scaled - std::floor(Scaled);
  return std::fabs(Frac - 0.5) < 1e-3 &&
         (Got == static_cast<unsigned>(std::floor(Scaled)) ||
          Got == static_cast<unsigned>(std::ceil(Scaled)));
}

/// Linear values across and beyond [0, 1] for \p N elements: the
/// special cases first (NaN, infinities, signed zeros, the ends of the
/// linear segment), then a sweep; alpha a sweep over [-0.2, 1.2].
std::vector<float> srgbInputs(size_t N) {
  const float Special[] = {std::nanf(""),
                           INFINITY,
                           -INFINITY,
                           0.0f,
                           -0.0f,
                           1e-40f,
                           0.0031308f,
                           std::nextafter(0.0031308f, 0.0f),
                           std::nextafter(0.0031308f, 1.0f),
                           0.5f,
                           1.0f,
                           std::nextafter(1.0f, 0.0f),
                           1.5f,
                           -0.25f};
  std::vector<float> V(N * 4);
  size_t K = 0;
  for (size_t I = 0; I < N; ++I)
    for (int C = 0; C < 4; ++C) {
      size_t J = I * 4 + C;
      if (C == 3)
        V[J] = static_cast<float>(J % 1001) / 1000.0f * 1.4f - 0.2f;
      else if (K < std::size(Special))
        V[J] = Special[K++];
      else
        V[J] = static_cast<float>(J * 7919 % 4099) / 4098.0f * 1.2f - 0.1f;
    }
  return V;
}

/// The sRGB channel orders the device lists (the "sRGB Images" section;
/// not CL_sRGBx, runtime/Image.cpp says why), each with CL_UNORM_INT8, the
/// only data type they take: CL_sRGB's elements are 3 bytes, the others' 4.
const cl_channel_order SrgbOrders[] = {CL_sRGBA, CL_sBGRA, CL_sRGB};

const char *srgbOrderName(cl_channel_order O) {
  return O == CL_sRGBA ? "CL_sRGBA" : O == CL_sBGRA ? "CL_sBGRA" : "CL_sRGB";
}

/// The stored channels of an element of sRGB order \p O: 3 or 4.
size_t srgbChannels(cl_channel_order O) { return O == CL_sRGB ? 3 : 4; }

/// Which component of (R, G, B, A) stored channel \p C of order \p O
/// holds.
int srgbComponent(cl_channel_order O, int C) {
  if (O == CL_sBGRA && C != 1 && C != 3)
    return 2 - C;
  return C;
}

/// "Conversion Rules for sRGBA and sBGRA Images", sRGB to linear, in
/// double, of the 8-bit channel \p B (8.3.1.1 first: B / 255).
double srgbDecodeReference(unsigned B) {
  double U = B / 255.0;
  return U <= 0.04045 ? U / 12.92 : std::pow((U + 0.055) / 1.055, 2.4);
}
} // namespace

TEST_CASE("8.3 \"Conversion Rules for sRGBA and sBGRA Images\": write_imagef "
          "to CL_sRGBA, CL_sBGRA and CL_sRGB (3-byte elements) images of "
          "every color image type, write-only and read-write, encodes R, G, "
          "B linear to sRGB and writes A as-is (cl_khr_srgb_image_writes)",
          "[.images]") {
  Env E;
  // Reported in both lists, and its macro is defined (the kernel below
  // tests it).
  REQUIRE(extensionVersion(E.D, "cl_khr_srgb_image_writes") ==
          CL_MAKE_VERSION(1, 0, 0));
  REQUIRE(deviceString(E.D, CL_DEVICE_EXTENSIONS)
              .find("cl_khr_srgb_image_writes") != std::string::npos);
  std::vector<WType> Shapes;
  for (const WType &W : writeTypes())
    if (!W.T.Depth)
      Shapes.push_back(W);
  // A 2D image of 16384 elements: the work-item loop's vectorized path.
  Shapes.push_back({{"image2d_t",
                     CL_MEM_OBJECT_IMAGE2D,
                     2,
                     false,
                     {256, 64, 1},
                     "c.xy",
                     "n.xy",
                     false},
                    false});
  for (const WType &W : Shapes)
    for (cl_channel_order Order : SrgbOrders)
      for (const char *Acc : {"write_only", "read_write"}) {
        const KType &T = W.T;
        INFO(T.Name << " " << T.Ext[0] << "x" << T.Ext[1] << "x" << T.Ext[2]
                    << " " << Acc << " " << srgbOrderName(Order));
        const size_t NC = srgbChannels(Order);
        const Fmt F{{Order, CL_UNORM_INT8}, Read::F, NC};
        const size_t N = size_t(T.Ext[0]) * T.Ext[1] * T.Ext[2];
        std::vector<float> Vals = srgbInputs(N), Coords;
        for (size_t I = 0; I < N; ++I) {
          auto C = elementCoord(T, I);
          Coords.insert(Coords.end(), C.begin(), C.end());
        }
        std::string Src = std::string("#define IMG ") + T.Name +
                          "\n#define CI(n) " + T.CoordI + "\n" +
                          "#ifndef cl_khr_srgb_image_writes\n#error\n#endif\n"
                          "kernel void w(" +
                          Acc + R"( IMG img,
                          global const float4 *cs, global const float4 *v) {
            size_t i = get_global_id(0);
            write_imagef(img, CI(convert_int4(cs[i])), v[i]);
          })";
        cl_kernel K = E.kernel(E.program(Src, ""), "w");
        cl_mem Buf;
        std::vector<unsigned char> Got =
            runWrites(E, K, W, F, Acc, Coords, Vals, N, NC, Buf);
        size_t Bad = 0;
        for (size_t I = 0; I < N; ++I)
          for (size_t C = 0; C < NC; ++C) {
            int S = srgbComponent(Order, static_cast<int>(C));
            float In = Vals[I * 4 + S];
            unsigned G = Got[I * NC + C];
            bool Ok = S < 3 ? srgbByteMatches(G, srgbEncodeReference(In))
                            : G == static_cast<unsigned>(std::nearbyint(
                                       std::clamp(In * 255.0f, 0.0f, 255.0f)));
            if (!Ok && Bad++ < 4)
              UNSCOPED_INFO("element " << I << " component " << S << ": " << In
                                       << " -> " << G);
          }
        CHECK(Bad == 0);
        if (Buf)
          CHECK(E.read<unsigned char>(Buf, N * NC) == Got);
      }
}

TEST_CASE("8.3 \"Conversion Rules for sRGBA and sBGRA Images\": a read_write "
          "sRGB image reads its own sRGB writes after "
          "atomic_work_item_fence(CLK_IMAGE_MEM_FENCE), decoded to linear "
          "(cl_khr_srgb_image_writes)",
          "[.images]") {
  Env E;
  auto RW = [&] {
    cl_uint Num = 0;
    REQUIRE(clGetSupportedImageFormats(E.C, CL_MEM_KERNEL_READ_AND_WRITE,
                                       CL_MEM_OBJECT_IMAGE2D, 0, nullptr,
                                       &Num) == CL_SUCCESS);
    std::vector<cl_image_format> L(Num);
    REQUIRE(clGetSupportedImageFormats(E.C, CL_MEM_KERNEL_READ_AND_WRITE,
                                       CL_MEM_OBJECT_IMAGE2D, Num, L.data(),
                                       nullptr) == CL_SUCCESS);
    return L;
  }();
  for (cl_channel_order Order : SrgbOrders) {
    INFO(srgbOrderName(Order));
    const size_t NC = srgbChannels(Order);
    REQUIRE(std::any_of(RW.begin(), RW.end(), [&](const cl_image_format &F) {
      return F.image_channel_order == Order &&
             F.image_channel_data_type == CL_UNORM_INT8;
    }));
    const int W = 64, H = 32, N = W * H;
    std::vector<float> Vals = srgbInputs(N);
    const cl_image_format Fm{Order, CL_UNORM_INT8};
    cl_image_desc D{};
    D.image_type = CL_MEM_OBJECT_IMAGE2D;
    D.image_width = W;
    D.image_height = H;
    cl_mem Img = E.image(Fm, D, CL_MEM_READ_WRITE);
    cl_mem VB = E.buffer(Vals.size() * 4,
                         CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Vals.data());
    cl_mem Out = E.buffer(Vals.size() * 4);
    cl_kernel K = E.kernel(E.program(R"(
      kernel void rw(read_write image2d_t img, global const float4 *v,
                     global float4 *out) {
        int2 p = (int2)(get_global_id(0), get_global_id(1));
        int i = p.y * get_image_width(img) + p.x;
        write_imagef(img, p, v[i]);
        atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel,
                               memory_scope_work_item);
        out[i] = read_imagef(img, p);
      })",
                                     ""),
                           "rw");
    REQUIRE(clSetKernelArg(K, 0, sizeof Img, &Img) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(K, 1, sizeof VB, &VB) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(K, 2, sizeof Out, &Out) == CL_SUCCESS);
    size_t G[2] = {W, H};
    REQUIRE(clEnqueueNDRangeKernel(E.Q, K, 2, nullptr, G, nullptr, 0, nullptr,
                                   nullptr) == CL_SUCCESS);
    std::vector<float> Read = E.read<float>(Out, Vals.size());
    size_t O[3] = {0, 0, 0}, R[3] = {W, H, 1};
    std::vector<unsigned char> Got(N * NC);
    REQUIRE(clEnqueueReadImage(E.Q, Img, CL_TRUE, O, R, 0, 0, Got.data(), 0,
                               nullptr, nullptr) == CL_SUCCESS);
    size_t Bad = 0;
    // CL_sRGB has no alpha: reads return 1.0 ("Mapping Image Channels to
    // Color Values Returned by read_image").
    if (Order == CL_sRGB)
      for (int I = 0; I < N; ++I)
        if (Read[I * 4 + 3] != 1.0f && Bad++ < 4)
          UNSCOPED_INFO("element " << I << " alpha " << Read[I * 4 + 3]);
    for (int I = 0; I < N; ++I)
      for (size_t C = 0; C < NC; ++C) {
        int S = srgbComponent(Order, static_cast<int>(C));
        unsigned B = Got[I * NC + C];
        bool Ok = S < 3
                      ? srgbByteMatches(B, srgbEncodeReference(Vals[I * 4 + S]))
                      : true;
        // What the read returns: the stored byte decoded, sRGB to linear
        // for R, G, B ("Conversion Rules for sRGBA and sBGRA Images"),
        // 8.3.1.1 for A.
        double Lin = S == 3 ? B / 255.0 : srgbDecodeReference(B);
        Ok &= std::fabs(Read[I * 4 + S] - Lin) <= 1e-5;
        if (!Ok && Bad++ < 4)
          UNSCOPED_INFO("element " << I << " component " << S << ": "
                                   << Vals[I * 4 + S] << " -> " << B << " -> "
                                   << Read[I * 4 + S]);
      }
    CHECK(Bad == 0);
  }
}

TEST_CASE("8.3 \"Conversion Rules for sRGBA and sBGRA Images\", 8.2: "
          "CL_sRGBA, CL_sBGRA and CL_sRGB (3-byte elements) images of every "
          "color image type are sampled with every addressing, filter and "
          "normalization, decoded sRGB to linear before filtering; CL_sRGB "
          "reads alpha 1.0",
          "[.images]") {
  Env E;
  for (const KType &T : Types) {
    if (T.Depth)
      continue;
    for (cl_channel_order Order : SrgbOrders) {
      // CL_sRGBA and CL_sBGRA on the 2D and 3D types (bilinear and
      // trilinear filtering), CL_sRGB on every type.
      if ((Order == CL_sRGBA || Order == CL_sBGRA) &&
          T.Mem != CL_MEM_OBJECT_IMAGE2D && T.Mem != CL_MEM_OBJECT_IMAGE3D)
        continue;
      INFO(T.Name << " " << srgbOrderName(Order));
      const size_t NC = srgbChannels(Order);
      // "Determining the Border Color or Value": (0, 0, 0, 0) for CL_sRGBA
      // and CL_sBGRA; CL_sRGB, not in the list, has CL_RGB's (0, 0, 0, 1).
      Ref R{{T.Ext[0], T.Ext[1], T.Ext[2]},
            T.Dims,
            T.Array,
            Order != CL_sRGB,
            {}};
      const size_t N = size_t(T.Ext[0]) * T.Ext[1] * T.Ext[2];
      std::vector<unsigned char> Bytes(N * NC);
      R.Px.assign(N, {0, 0, 0, 1});
      uint32_t H = 0x9e3779b9u + static_cast<uint32_t>(Order);
      for (size_t I = 0; I < N; ++I)
        for (size_t C = 0; C < NC; ++C) {
          H = H * 1664525u + 1013904223u;
          unsigned B = H >> 24;
          Bytes[I * NC + C] = static_cast<unsigned char>(B);
          int S = srgbComponent(Order, static_cast<int>(C));
          R.Px[I][S] =
              static_cast<float>(S == 3 ? B / 255.0 : srgbDecodeReference(B));
        }
      cl_mem Img =
          E.image({Order, CL_UNORM_INT8}, descOf(T),
                  CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Bytes.data());
      // The decode is pow in float (7.4: within 16 ulp).
      checkSampledReads(E, T, Read::F, Img, R, 2e-5f, 2e-6f);
    }
  }
}

TEST_CASE("OpenCL C 6.12: __IMAGE_SUPPORT__ is 1 with image support (CTS "
          "test_basic kernel_numeric_constants)",
          "[.images]") {
  Env E;
  for (const char *Std : {"-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0"}) {
    INFO(Std);
    cl_program P;
    std::string Log;
    cl_int B =
        E.build("#if !defined(__IMAGE_SUPPORT__) || __IMAGE_SUPPORT__ != 1\n"
                "#error no image support macro\n#endif\n"
                "kernel void k(global int *p) { *p = __IMAGE_SUPPORT__; }",
                Std, P, &Log);
    INFO(Log);
    CHECK(B == CL_SUCCESS);
  }
}

TEST_CASE("6.15.15.5: read_write images read their own writes after "
          "atomic_work_item_fence(CLK_IMAGE_MEM_FENCE)",
          "[.images]") {
  Env E;
  REQUIRE(deviceInfo<cl_uint>(E.D, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) >= 64);
  for (const WType &W : writeTypes()) {
    const KType &T = W.T;
    INFO(T.Name);
    const Fmt F = T.Depth ? DepthFormats[0]
                          : Fmt{{CL_RGBA, CL_UNSIGNED_INT32}, Read::UI, 16};
    const size_t N = size_t(T.Ext[0]) * T.Ext[1] * T.Ext[2];
    std::vector<float> Coords;
    for (size_t I = 0; I < N; ++I) {
      auto C = elementCoord(T, I);
      Coords.insert(Coords.end(), C.begin(), C.end());
    }
    std::vector<unsigned char> In(N * F.Bytes);
    for (size_t I = 0; I < In.size(); ++I)
      In[I] = static_cast<unsigned char>(I * 37 % 101);
    if (T.Depth) // small floats, exact after * 2 + 1
      for (size_t I = 0; I < N; ++I) {
        float V = static_cast<float>(I % 50);
        std::memcpy(&In[I * 4], &V, 4);
      }
    // v' = 2 (v + 1): the second read sees the first write.
    std::string Body =
        T.Depth ? "float v = read_imagef(img, CI(n));\n"
                  "write_imagef(img, CI(n), v + 1.0f);\n"
                  "atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, "
                  "memory_order_acq_rel, memory_scope_work_item);\n"
                  "write_imagef(img, CI(n), read_imagef(img, CI(n)) * 2.0f);"
                : "uint4 v = read_imageui(img, CI(n));\n"
                  "write_imageui(img, CI(n), v + 1);\n"
                  "atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, "
                  "memory_order_acq_rel, memory_scope_work_item);\n"
                  "write_imageui(img, CI(n), read_imageui(img, CI(n)) * 2);";
    std::string Src = std::string("#define IMG ") + T.Name +
                      "\n#define CI(n) " + T.CoordI + "\n" +
                      R"(kernel void rw(read_write IMG img,
                                        global const float4 *cs) {
        int4 n = convert_int4(cs[get_global_id(0)]);
        )" + Body + "}";
    cl_program P = E.program(Src, "");
    cl_kernel K = E.kernel(P, "rw");
    cl_mem Buf;
    cl_mem Img = makeImage(E, W, F, CL_MEM_READ_WRITE, In.data(), Buf);
    cl_mem CB =
        E.buffer(Coords.size() * 4, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                 Coords.data());
    REQUIRE(clSetKernelArg(K, 0, sizeof Img, &Img) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(K, 1, sizeof CB, &CB) == CL_SUCCESS);
    E.run(K, N);
    std::vector<unsigned char> Got = imageBytes(E, Img, W, F.Bytes);
    bool Ok = true;
    for (size_t I = 0; I < N; ++I)
      if (T.Depth) {
        float A, B;
        std::memcpy(&A, &In[I * 4], 4);
        std::memcpy(&B, &Got[I * 4], 4);
        Ok &= B == (A + 1) * 2;
      } else
        for (int C = 0; C < 4; ++C) {
          uint32_t A, B;
          std::memcpy(&A, &In[I * 16 + C * 4], 4);
          std::memcpy(&B, &Got[I * 16 + C * 4], 4);
          Ok &= B == (A + 1) * 2;
        }
    CHECK(Ok);
  }
}

TEST_CASE("6.15.15.6: get_image_* queries of every image type and access "
          "qualifier",
          "[.images]") {
  Env E;
  for (const WType &W : writeTypes()) {
    const KType &T = W.T;
    const Fmt F = T.Depth ? DepthFormats[1] : ColorFormats[2];
    const bool Layered = T.Array;
    const bool Has3D = T.Mem == CL_MEM_OBJECT_IMAGE3D;
    const bool HasHeight = T.Dims >= 2;
    for (const char *Acc : {"read_only", "write_only", "read_write"}) {
      INFO(T.Name << " " << Acc);
      std::string Src = std::string("#define IMG ") + T.Name + "\n";
      Src += std::string("kernel void q(") + Acc +
             " IMG img, global int *o) {\n"
             "  o[0] = get_image_width(img);\n"
             "  o[1] = get_image_channel_data_type(img);\n"
             "  o[2] = get_image_channel_order(img);\n";
      if (HasHeight)
        Src += "  o[3] = get_image_height(img);\n"
               "  o[4] = get_image_dim(img).x;\n"
               "  o[5] = get_image_dim(img).y;\n";
      if (Has3D)
        Src += "  o[6] = get_image_depth(img);\n"
               "  o[7] = get_image_dim(img).z;\n"
               "  o[8] = get_image_dim(img).w;\n";
      if (Layered)
        Src += "  o[9] = (int)get_image_array_size(img);\n";
      Src += "}\n";
      cl_program P = E.program(Src, "");
      cl_kernel K = E.kernel(P, "q");
      cl_mem Buf;
      cl_mem Img = makeImage(E, W, F, CL_MEM_READ_WRITE, nullptr, Buf);
      std::vector<int> Init(10, -7);
      cl_mem O =
          E.buffer(40, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Init.data());
      REQUIRE(clSetKernelArg(K, 0, sizeof Img, &Img) == CL_SUCCESS);
      REQUIRE(clSetKernelArg(K, 1, sizeof O, &O) == CL_SUCCESS);
      E.run(K, 1);
      std::vector<int> Got = E.read<int>(O, 10);
      CHECK(Got[0] == T.Ext[0]);
      CHECK(Got[1] == static_cast<int>(F.F.image_channel_data_type));
      CHECK(Got[2] == static_cast<int>(F.F.image_channel_order));
      if (HasHeight) {
        CHECK(Got[3] == T.Ext[1]);
        CHECK(Got[4] == T.Ext[0]);
        CHECK(Got[5] == T.Ext[1]);
      }
      if (Has3D) {
        CHECK(Got[6] == T.Ext[2]);
        CHECK(Got[7] == T.Ext[2]);
        CHECK(Got[8] == 0);
      }
      if (Layered)
        CHECK(Got[9] == T.Ext[2]);
    }
  }
}

TEST_CASE("6.15.15, 5.9.2: image misuse is a build error or the spec's "
          "clSetKernelArg error",
          "[.images]") {
  Env E;
  // The access qualifiers choose the builtins: a write-only image has no
  // reads, a read-only one no writes, and a read-write one no sampled
  // reads (6.15.15: "read_write images ... sampler-less reads").
  const char *Bad[] = {
      "kernel void k(write_only image2d_t i, global float4 *o) {"
      " o[0] = read_imagef(i, (int2)(0, 0)); }",
      "kernel void k(write_only image3d_t i, global float4 *o) {"
      " o[0] = read_imagef(i, (int4)(0)); }",
      "kernel void k(read_only image1d_t i) {"
      " write_imagef(i, 0, (float4)(0.0f)); }",
      "kernel void k(read_write image2d_array_t i, sampler_t s,"
      " global float4 *o) { o[0] = read_imagef(i, s, (float4)(0.0f)); }",
  };
  for (const char *Src : Bad) {
    INFO(Src);
    cl_program P;
    std::string Log;
    CHECK(E.build(Src, "-cl-std=CL3.0", P, &Log) == CL_BUILD_PROGRAM_FAILURE);
    CHECK(Log.find("error") != std::string::npos);
  }

  cl_program P = E.program(R"(
    kernel void k(read_only image3d_t a, read_only image2d_depth_t d,
                  read_only image1d_t b, sampler_t s, global float4 *o) {
      o[0] = read_imagef(a, s, (float4)(0.0f)) + read_imagef(d, s, (int2)(0)) +
             read_imagef(b, s, 0.0f);
    })",
                           "");
  cl_kernel K = E.kernel(P, "k");
  cl_int Err = -1;
  cl_sampler S =
      clCreateSampler(E.C, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &Err);
  REQUIRE(Err == CL_SUCCESS);
  const cl_image_format Rgba = {CL_RGBA, CL_FLOAT}, Dep = {CL_DEPTH, CL_FLOAT};
  cl_image_desc D2{};
  D2.image_type = CL_MEM_OBJECT_IMAGE2D;
  D2.image_width = D2.image_height = 4;
  cl_mem Img2 = E.image(Rgba, D2, CL_MEM_READ_ONLY);
  cl_mem Depth = E.image(Dep, D2, CL_MEM_READ_ONLY);
  cl_image_desc D1{};
  D1.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
  D1.image_width = 4;
  D1.buffer = E.buffer(64);
  cl_mem Buf1 = E.image(Rgba, D1, CL_MEM_READ_ONLY);
  // "CL_INVALID_MEM_OBJECT for an argument declared to be a memory object
  // when the specified arg_value is not a valid memory object": a sampler
  // is none, and an image of another type than the argument's is not the
  // memory object the argument declares.
  CHECK(clSetKernelArg(K, 0, sizeof S, &S) == CL_INVALID_MEM_OBJECT);
  CHECK(clSetKernelArg(K, 0, sizeof Img2, &Img2) == CL_INVALID_MEM_OBJECT);
  CHECK(clSetKernelArg(K, 1, sizeof Img2, &Img2) == CL_INVALID_MEM_OBJECT);
  CHECK(clSetKernelArg(K, 1, sizeof Depth, &Depth) == CL_SUCCESS);
  CHECK(clSetKernelArg(K, 2, sizeof Buf1, &Buf1) == CL_INVALID_MEM_OBJECT);
  // "CL_INVALID_SAMPLER for an argument declared to be of type sampler_t
  // when the specified arg_value is not a valid sampler object".
  CHECK(clSetKernelArg(K, 3, sizeof Img2, &Img2) == CL_INVALID_SAMPLER);
  CHECK(clSetKernelArg(K, 3, sizeof S, &S) == CL_SUCCESS);
  clReleaseSampler(S);

  // "CL_INVALID_ARG_VALUE if the argument is an image declared with the
  // read_only qualifier and arg_value refers to an image object created
  // with cl_mem_flags of CL_MEM_WRITE_ONLY or if the image argument is
  // declared with the write_only qualifier and arg_value refers to an image
  // object created with cl_mem_flags of CL_MEM_READ_ONLY."
  cl_mem WoImg = E.image(Rgba, D2, CL_MEM_WRITE_ONLY);
  cl_program P3 = E.program(R"(
    kernel void w(write_only image2d_t i) {
      write_imagef(i, (int2)(0, 0), (float4)(1.0f));
    })",
                            "");
  cl_kernel WK = E.kernel(P3, "w");
  CHECK(clSetKernelArg(WK, 0, sizeof Img2, &Img2) == CL_INVALID_ARG_VALUE);
  CHECK(clSetKernelArg(WK, 0, sizeof WoImg, &WoImg) == CL_SUCCESS);
  // A pointer to a struct whose name begins with "image" is a buffer
  // argument (the CTS's kernel_image_methods passes image_kernel_data *).
  cl_program P2 = E.program(R"(
    typedef struct { int w; } image_info_t;
    kernel void q(read_only image2d_t i, global image_info_t *o) {
      o->w = get_image_width(i);
    })",
                            "");
  cl_kernel Q = E.kernel(P2, "q");
  cl_mem Info = E.buffer(sizeof(int));
  CHECK(clSetKernelArg(Q, 0, sizeof WoImg, &WoImg) == CL_INVALID_ARG_VALUE);
  CHECK(clSetKernelArg(Q, 0, sizeof Img2, &Img2) == CL_SUCCESS);
  CHECK(clSetKernelArg(Q, 1, sizeof Info, &Info) == CL_SUCCESS);
  CHECK(clSetKernelArg(Q, 1, sizeof Img2, &Img2) == CL_INVALID_MEM_OBJECT);
  E.run(Q, 1);
  CHECK(E.read<int>(Info, 1)[0] == 4);
}

TEST_CASE("5.9.2 (bug: an argument whose type name begins with \"image\" "
          "was taken for an image): a pointer to a struct named "
          "image_something is a buffer argument",
          "[.images]") {
  // NULL is a valid value for a buffer argument (clSetKernelArg), and the
  // kernel's null check must stay: the argument is not an image
  // descriptor, which kernels read unconditionally.
  Env E;
  cl_program P =
      E.program("typedef struct { int w; } image_kernel_data;"
                "kernel void k(global image_kernel_data *d, global int *o) {"
                " o[get_global_id(0)] = d ? d->w : -1; }",
                "");
  cl_kernel K = E.kernel(P, "k");
  cl_mem Out = E.buffer(4 * sizeof(cl_int));
  cl_mem Null = nullptr;
  REQUIRE(clSetKernelArg(K, 0, sizeof Null, &Null) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(K, 1, sizeof Out, &Out) == CL_SUCCESS);
  E.run(K, 4);
  REQUIRE(clFinish(E.Q) == CL_SUCCESS);
  for (cl_int V : E.read<cl_int>(Out, 4))
    CHECK(V == -1);
  cl_int W = 7;
  cl_mem Data = E.buffer(sizeof W, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &W);
  REQUIRE(clSetKernelArg(K, 0, sizeof Data, &Data) == CL_SUCCESS);
  E.run(K, 4);
  REQUIRE(clFinish(E.Q) == CL_SUCCESS);
  for (cl_int V : E.read<cl_int>(Out, 4))
    CHECK(V == 7);
}

TEST_CASE("6.15.15.2, 6.15.15.4 (builtins/image.cl coordInside, "
          "compiler/passes/CheckRangeVersioning.cpp): work-item loops partly "
          "outside the image clamp their reads and skip their writes; loops "
          "inside read and write every pixel",
          "[.images]") {
  Env E;
  // The destination is a 2D image over a buffer whose rows are longer than
  // the image: a write outside the image would land in a row's padding.
  const int W = 100, H = 37, Pitch = 128; // pixels
  const size_t GX = 128, GY = 40, LX = 32, LY = 4;
  cl_program P = E.program(R"(
    constant sampler_t Edge = CLK_NORMALIZED_COORDS_FALSE |
        CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
    constant sampler_t Border = CLK_NORMALIZED_COORDS_FALSE |
        CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
    kernel void shifted(read_only image2d_t src, write_only image2d_t dst,
                        int dx, int border) {
      int x = get_global_id(0), y = get_global_id(1);
      int2 at = (int2)(x + dx, y);
      write_imageui(dst, (int2)(x, y), border ? read_imageui(src, Border, at)
                                              : read_imageui(src, Edge, at));
    })",
                           "");
  cl_kernel K = E.kernel(P, "shifted");
  cl_image_format F = {CL_RGBA, CL_UNSIGNED_INT8};
  std::vector<uint32_t> In(size_t(W) * H);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = uint32_t(I * 2654435761u) | 1u; // never 0, the border colour
  cl_image_desc SD = {};
  SD.image_type = CL_MEM_OBJECT_IMAGE2D;
  SD.image_width = W;
  SD.image_height = H;
  cl_mem Src =
      E.image(F, SD, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, In.data());
  const uint32_t Pad = 0xdeadbeef;
  for (int Dx : {0, -5, 7})
    for (int BorderMode : {0, 1}) {
      INFO("dx " << Dx << (BorderMode ? ", CLK_ADDRESS_CLAMP"
                                      : ", CLK_ADDRESS_CLAMP_TO_EDGE"));
      std::vector<uint32_t> Init(size_t(Pitch) * H, Pad);
      cl_mem Buf = E.buffer(Init.size() * 4,
                            CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            Init.data());
      cl_image_desc DD = SD;
      DD.image_row_pitch = size_t(Pitch) * 4;
      DD.buffer = Buf;
      cl_mem Dst = E.image(F, DD, CL_MEM_WRITE_ONLY);
      REQUIRE(clSetKernelArg(K, 0, sizeof Src, &Src) == CL_SUCCESS);
      REQUIRE(clSetKernelArg(K, 1, sizeof Dst, &Dst) == CL_SUCCESS);
      REQUIRE(clSetKernelArg(K, 2, sizeof Dx, &Dx) == CL_SUCCESS);
      REQUIRE(clSetKernelArg(K, 3, sizeof BorderMode, &BorderMode) ==
              CL_SUCCESS);
      size_t G[2] = {GX, GY}, L[2] = {LX, LY};
      REQUIRE(clEnqueueNDRangeKernel(E.Q, K, 2, nullptr, G, L, 0, nullptr,
                                     nullptr) == CL_SUCCESS);
      std::vector<uint32_t> Got = E.read<uint32_t>(Buf, Init.size());
      size_t Wrong = 0, PadWritten = 0;
      for (int Y = 0; Y < H; ++Y)
        for (int X = 0; X < Pitch; ++X) {
          uint32_t V = Got[size_t(Y) * Pitch + X];
          if (X >= W) {
            PadWritten += V != Pad;
            continue;
          }
          int SX = X + Dx;
          uint32_t Want =
              SX >= 0 && SX < W
                  ? In[size_t(Y) * W + SX]
                  : (BorderMode ? 0u
                                : In[size_t(Y) * W + std::clamp(SX, 0, W - 1)]);
          Wrong += V != Want;
        }
      CHECK(Wrong == 0);
      CHECK(PadWritten == 0);
    }
}
